package refusal

import (
	"errors"
	"io/fs"
	"testing"
)

func TestRuleMessage(t *testing.T) {
	r := Rule{Code: "find.exec", Phrase: "find command execution"}.Reject(2, "-exec", "argument %d %q runs a program", 2, "-exec")
	want := `Command rejected by default security policy: find command execution: argument 2 "-exec" runs a program`
	if r.Message != want || r.Code != "find.exec" || r.Index != 2 || r.Arg != "-exec" {
		t.Errorf("got %+v", r)
	}
}

func TestUnwrapAndAs(t *testing.T) {
	r := &Rejection{Code: "redirect.input", Message: "m", Err: fs.ErrNotExist}
	if !errors.Is(r, fs.ErrNotExist) {
		t.Error("Err not reachable through errors.Is")
	}
	wrapped := errors.Join(errors.New("x"), r)
	if As(wrapped) != r || As(errors.New("y")) != nil {
		t.Error("As")
	}
}

func TestShifted(t *testing.T) {
	r := New("c", 1, "a", "m")
	if got := r.Shifted([]int{4, 7}); got.Index != 7 || r.Index != 1 {
		t.Errorf("Shifted: %d (original %d)", got.Index, r.Index)
	}
	if got := New("c", -1, "", "m").Shifted([]int{4}); got.Index != -1 {
		t.Errorf("Shifted(-1) = %d", got.Index)
	}
	var nilR *Rejection
	if nilR.Shifted(nil) != nil {
		t.Error("nil")
	}
}
