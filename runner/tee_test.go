//go:build darwin || linux

// Tees and stdin sources with proctest helper stages: Linux and macOS.

package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// failAfter is a tee that fails its second write.
type failAfter struct{ writes int }

func (f *failAfter) Write(p []byte) (int, error) {
	f.writes++
	if f.writes > 1 {
		return 0, errors.New("full")
	}
	return len(p), nil
}

// TestTees: the tees see every byte read, drained ones included; a failing
// tee stops itself, not the run; a ">" file's bytes are not teed.
func TestTees(t *testing.T) {
	t.Run("drained bytes reach the tee", func(t *testing.T) {
		var out, errb bytes.Buffer
		s := newSpec(t, stage(t, "zeros", "300000", "stderr", "say", "oops"))
		s.OutputLimit, s.DrainPastLimit = 1000, true
		s.StdoutTee, s.StderrTee = &out, &errb
		r, err := Run(context.Background(), s.build(t))
		if err != nil || r.Outcome != Success || len(r.Stdout) != 1000 || !r.StdoutTruncated {
			t.Fatalf("run: %v %+v", err, r.Outcome)
		}
		if out.Len() != 300000 || errb.String() != "oops\n" {
			t.Errorf("tees got %d stdout bytes and %q", out.Len(), errb.String())
		}
	})
	t.Run("a failing tee stops, the run goes on", func(t *testing.T) {
		f := &failAfter{}
		s := newSpec(t, stage(t, "zeros", "300000"))
		s.StdoutTee = f
		r, err := Run(context.Background(), s.build(t))
		if err != nil || r.Outcome != Success || r.StdoutBytes != 300000 || len(r.Stdout) != 300000 {
			t.Fatalf("run: %v %+v", err, r)
		}
		if f.writes != 2 {
			t.Errorf("tee written %d times after failing, want it dropped after the failure", f.writes)
		}
	})
	t.Run("redirected stdout is not teed", func(t *testing.T) {
		var out bytes.Buffer
		s := newSpec(t, stage(t, "say", "to file"))
		s.StdoutFile, s.StdoutTee = "out.txt", &out
		if r, err := Run(context.Background(), s.build(t)); err != nil || r.Outcome != Success {
			t.Fatalf("run: %v %+v", err, r)
		}
		if out.Len() != 0 {
			t.Errorf("tee got %q", out.String())
		}
	})
}

// TestStdinFrom: a pipe the caller writes is the first stage's stdin, and
// Run closes the read end so that the writer sees EPIPE once the stage is
// gone; a regular file works the same way.
func TestStdinFrom(t *testing.T) {
	t.Run("pipe", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		s := newSpec(t, stage(t, "head", "1"))
		s.StdinFrom = r
		done := make(chan Result, 1)
		go func() { res, _ := Run(context.Background(), s.build(t)); done <- res }()
		if _, err := w.Write([]byte("first\nsecond\n")); err != nil {
			t.Fatal(err)
		}
		res := <-done
		if string(res.Stdout) != "first\n" {
			t.Fatalf("stdout %q", res.Stdout)
		}
		// head has exited and Run closed the parent's read end: no reader
		// is left, so a write fails instead of filling the pipe for ever.
		if _, err := w.Write([]byte("third\n")); err == nil {
			t.Error("write after the stage exited succeeded; the parent still holds the read end")
		}
	})
	t.Run("file", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "in")
		os.WriteFile(p, []byte("from a file\n"), 0o600)
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s := newSpec(t, stage(t, "cat"))
		s.StdinFrom, s.Stdin = f, []byte("ignored")
		res, err := Run(context.Background(), s.build(t))
		if err != nil || string(res.Stdout) != "from a file\n" {
			t.Fatalf("%v %q", err, res.Stdout)
		}
	})
}
