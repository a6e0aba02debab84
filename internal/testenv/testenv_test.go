package testenv

import (
	"slices"
	"testing"
)

func TestSampleEvery(t *testing.T) {
	t.Setenv("MCP_SHELL_TEST_HEAVY", "")
	rows := []int{0, 1, 2, 3, 4, 5, 6}
	for _, c := range []struct {
		n    int
		want []int
	}{
		{2, []int{0, 2, 4, 6}},
		{3, []int{0, 3, 6}},
		{7, rows},
		{1, rows},
	} {
		if got := SampleEvery(rows, c.n); !slices.Equal(got, c.want) {
			t.Errorf("SampleEvery(0..6, %d) = %v, want %v", c.n, got, c.want)
		}
	}
	if got := Sample(make([]int, 13)); len(got) != 3 {
		t.Errorf("Sample of 13 rows kept %d, want 3 (0, 6, 12)", len(got))
	}
	t.Setenv("MCP_SHELL_TEST_HEAVY", "1")
	if got := SampleEvery(rows, 2); !slices.Equal(got, rows) {
		t.Errorf("under MCP_SHELL_TEST_HEAVY=1 SampleEvery kept %v, want every row", got)
	}
	if Scaled(9) != 9 {
		t.Errorf("Scaled(9) = %d under MCP_SHELL_TEST_HEAVY=1, want 9", Scaled(9))
	}
}
