package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// casesDir finds ../shared/cases beside the repository root, or skips.
func casesDir(tb testing.TB) string {
	tb.Helper()
	root, err := repoRoot()
	if err != nil {
		tb.Skip(err)
	}
	dir := filepath.Join(root, "..", "shared", "cases")
	if _, err := os.Stat(filepath.Join(dir, "benign.jsonl")); err != nil {
		tb.Skip("shared/cases/benign.jsonl not found")
	}
	return dir
}

// BenchmarkPolicyBenign is section 6 as a go test benchmark: one
// (*policy.Policy).Evaluate per op over shared/cases/benign.jsonl.
//
//	go test -run '^$' -bench PolicyBenign ./bench
func BenchmarkPolicyBenign(b *testing.B) {
	dir := b.TempDir()
	cases, err := loadPolicyCases(filepath.Join(casesDir(b), "benign.jsonl"), dir)
	if err != nil {
		b.Fatal(err)
	}
	benchDecide(b, cases, dir)
}

func TestQuantile(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var d []time.Duration
		for _, x := range v {
			d = append(d, time.Duration(x)*time.Millisecond)
		}
		return d
	}
	for _, tc := range []struct {
		d    []time.Duration
		q    float64
		want time.Duration
	}{
		{nil, .5, 0},
		{ms(7), .99, 7 * time.Millisecond},
		{ms(3, 1, 2), .5, 2 * time.Millisecond},
		{ms(4, 1, 3, 2), .5, 2500 * time.Microsecond},
		{ms(1, 2, 3, 4, 5), 0, time.Millisecond},
		{ms(1, 2, 3, 4, 5), 1, 5 * time.Millisecond},
		{ms(1, 2, 3, 4, 5), .9, 4600 * time.Microsecond},
	} {
		if got := quantile(tc.d, tc.q); got != tc.want {
			t.Errorf("quantile(%v, %v) = %v, want %v", tc.d, tc.q, got, tc.want)
		}
	}
}

func TestQuantileFloat(t *testing.T) {
	if got := quantile([]float64{4, 1, 3, 2}, .5); got != 2.5 {
		t.Errorf("median of 1..4 = %v, want 2.5", got)
	}
}

func TestProcKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpuinfo")
	text := "processor\t: 0\nmodel name\t: First CPU\n\nno colon here\nprocessor\t: 1\nmodel name\t: Second CPU\nflags\t\t:\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := procKeys(path)
	if err != nil {
		t.Fatal(err)
	}
	if m["model name"] != "First CPU" || m["processor"] != "0" || m["flags"] != "" || len(m) != 3 {
		t.Errorf("procKeys = %q", m)
	}
	if got := procValue(path, "flags"); got != "unknown" {
		t.Errorf("procValue of an empty value = %q, want unknown", got)
	}
}

func TestBlockRatios(t *testing.T) {
	a := []time.Duration{2, 2, 6, 6}
	b := []time.Duration{1, 1, 2, 2}
	got := blockRatios(a, b, 2)
	if len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Errorf("blockRatios = %v, want [2 3]", got)
	}
}

func TestPpidOf(t *testing.T) {
	for _, tc := range []struct {
		stat string
		want int
	}{
		{"123 (sleep) S 45 123 45 0 -1", 45},
		{"123 (a) b) (c) R 7 1 1", 7},
		{"garbage", -1},
		{"1 (x)", -1},
	} {
		if got := ppidOf([]byte(tc.stat)); got != tc.want {
			t.Errorf("ppidOf(%q) = %d, want %d", tc.stat, got, tc.want)
		}
	}
}

func TestStageNames(t *testing.T) {
	got := stageNames([]string{"git", "log", "|", "head", "-n", "3", "|", "wc"})
	if len(got) != 3 || got[0] != "git" || got[1] != "head" || got[2] != "wc" {
		t.Errorf("stageNames = %q", got)
	}
}

func TestReadProcSelf(t *testing.T) {
	s, err := readProc(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if s.RSSKiB <= 0 || s.HWMKiB < s.RSSKiB || s.Threads < 1 || s.FDs < 3 {
		t.Errorf("implausible /proc stats of this test: %+v", s)
	}
	if b, err := os.ReadFile("/proc/self/stat"); err != nil || ppidOf(b) != os.Getppid() {
		t.Errorf("ppidOf(/proc/self/stat) = %d, want %d (%v)", ppidOf(b), os.Getppid(), err)
	}
}

func TestLatencyChart(t *testing.T) {
	spread := func(name string, lo, hi time.Duration) *series {
		s := &series{name: name}
		for i := range 101 {
			s.d = append(s.d, lo+(hi-lo)*time.Duration(i)/100)
		}
		return s
	}
	got := latencyChart([]*series{
		spread("floor", 2*time.Millisecond, 4*time.Millisecond),
		spread("ours: shell_execute", 3*time.Millisecond, 40*time.Millisecond),
		{name: "empty"},
	})
	// ours: p10 6.7, p25 12.25, p50 21.5, p75 30.75, p90 36.3, p99 39.63 ms.
	want := `floor                  --===|===--.
ours: shell_execute                        -----------===========|======---..
empty
                     +----------------+------------+-----------+----------------+
                     2                5            10          20               50 ms
`
	if got != want {
		t.Errorf("latencyChart:\n%s\nwant:\n%s", got, want)
	}
	if got := latencyChart([]*series{{name: "empty"}}); got != "(no latency measured)\n" {
		t.Errorf("latencyChart of empty series = %q", got)
	}
}

func TestTicks125(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		want   []float64
	}{
		{2.8, 45.7, []float64{2, 5, 10, 20, 50}},
		{2, 2, []float64{2, 5}},
		{0.15, 0.9, []float64{0.1, 0.2, 0.5, 1}},
		{142, 229, []float64{100, 200, 500}},
	} {
		if got := ticks125(tc.lo, tc.hi); !slices.Equal(got, tc.want) {
			t.Errorf("ticks125(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
		}
	}
}
