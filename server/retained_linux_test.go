//go:build linux

package server

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/mcptest"
)

// createWatch reports the files created in one directory, through
// inotify: a file created and removed within a call leaves nothing for a
// directory listing to see, but its IN_CREATE event stays queued.
type createWatch struct{ fd int }

func watchCreates(t *testing.T, dir string) *createWatch {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_CREATE); err != nil {
		t.Fatal(err)
	}
	return &createWatch{fd}
}

// take returns the names created since the last take. The events of a
// creation are queued before the creating call returns, so what a tool
// call created is there once its answer is.
func (w *createWatch) take(t *testing.T) []string {
	t.Helper()
	var names []string
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Read(w.fd, buf)
		if errors.Is(err, unix.EAGAIN) {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
			if ev.Mask&unix.IN_CREATE != 0 {
				names = append(names, string(bytes.TrimRight(name, "\x00")))
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
		}
	}
}

// TestOutputsThatFitCreateNoFile: a call whose output the answer shows
// whole (small, empty, refused, just under the text limit, on either
// stream) creates no file in the retained-output directory at any moment
// of the call, not merely leaves none; one past the text limit creates
// one, for the stream past it, and a job one for each stream that
// printed, so that read_output finds what the answer cut.
func TestOutputsThatFitCreateNoFile(t *testing.T) {
	t.Parallel()
	o := jobOptions(t, "echo", "head", "true")
	s, cs, _ := newJobServer(t, o)
	big := bytes.Repeat([]byte("line of text\n"), 1000)
	os.WriteFile(filepath.Join(o.Policy.AllowedDirs()[0], "big"), big, 0o644)
	w := watchCreates(t, s.bg.store.Dir())
	for _, c := range []struct {
		name    string
		command []string
		job     bool
		files   []string // streams that get a file
	}{
		{"small", []string{"echo", "small"}, false, nil},
		{"empty", []string{"true"}, false, nil},
		{"on stderr", []string{"head", "missing"}, false, nil},
		{"refused", []string{"rm", "big"}, false, nil},
		{"under the text limit", []string{"head", "-c", "1000", "big"}, false, nil},
		{"past the text limit", []string{"head", "-c", "3000", "big"}, false, []string{"stdout"}},
		{"job", []string{"echo", "x"}, true, []string{"stdout"}},
	} {
		args := map[string]any{"command": c.command}
		if c.job {
			args["background"] = true
		}
		r, m := mcptest.CallTool(t, cs, "shell_execute", args)
		id, _ := m["output_id"].(string)
		if c.job {
			id, _ = m["job_id"].(string)
			if _, st := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": id, "wait": 30}); st["state"] != "exited" {
				t.Fatalf("%s: job %v", c.name, st)
			}
		}
		var want []string
		for _, stream := range c.files {
			want = append(want, id+"."+stream)
		}
		if got := w.take(t); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s (%q): files created %v, want %v", c.name, resultText(r), got, want)
		}
		if len(c.files) > 0 {
			if _, rd := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": id, "length": 1 << 20}); rd["eof"] != true || rd["data"] == "" {
				t.Errorf("%s: read_output %v", c.name, rd)
			}
		}
	}
	if st := s.bg.store.Stats(); st.Files != 2 {
		t.Errorf("store figures after the calls: %+v, want the two files created above", st)
	}
}
