package server

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/mcptest"
)

// storeFiles lists the retained-output directory.
func storeFiles(t *testing.T, s *Server) []string {
	t.Helper()
	ents, err := os.ReadDir(s.bg.store.Dir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// TestOutputInFileOnlyPastTheText: an output the answer's text shows whole
// is held in memory, without a file, and read_output, the shell-output
// resource and stdin_output_id all find it; one past the text limit is in
// its file, and read_output from the marker's offset returns exactly what
// the text left out.
func TestOutputInFileOnlyPastTheText(t *testing.T) {
	t.Parallel()
	o := jobOptions(t, "echo", "head", "cat")
	s, cs, _ := newJobServer(t, o)
	big := bytes.Repeat([]byte("line of text\n"), 1000)
	os.WriteFile(filepath.Join(o.Policy.AllowedDirs()[0], "big"), big, 0o644)

	_, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo", "small"}})
	small := m["output_id"].(string)
	if got := storeFiles(t, s); len(got) != 0 {
		t.Errorf("files for an output the text showed whole: %v", got)
	}
	if _, rd := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": small}); rd["data"] != "small\n" || rd["eof"] != true {
		t.Errorf("read_output of the output in memory: %v", rd)
	}
	rr, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: outputURI(small, "stdout")})
	if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text != "small\n" {
		t.Errorf("resource read of the output in memory: %v %v", rr, err)
	}
	if _, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"cat"}, "stdin_output_id": small}); m["stdout"] != "small\n" {
		t.Errorf("chained from memory: %v", m)
	}

	r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "3000", "big"}})
	cut := m["output_id"].(string)
	if got := storeFiles(t, s); !slices.Equal(got, []string{cut + ".stdout"}) {
		t.Errorf("files after an output past the text limit: %v, want %s.stdout only", got, cut)
	}
	mark := regexp.MustCompile(`"offset":(\d+)\}`).FindStringSubmatch(resultText(r))
	if mark == nil {
		t.Fatalf("no read_output offset in the cut text: %q", resultText(r))
	}
	off, _ := strconv.Atoi(mark[1])
	_, rd := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": cut, "offset": off, "length": 3000})
	if rd["data"] != string(big[off:3000]) || rd["retained_bytes"] != 3000.0 {
		t.Errorf("read_output from the marker's offset %d: %v", off, rd)
	}
}

// TestJobOutputsAreInFiles: a background job's output is in its files
// from its first byte, and so is an adaptive call's once it is handed off
// (what it printed before is moved there).
func TestJobOutputsAreInFiles(t *testing.T) {
	t.Parallel()
	o := jobOptions(t, "echo", "tail")
	o.Jobs.Adaptive = 100 * time.Millisecond
	s, cs, _ := newJobServer(t, o)
	data := filepath.Join(o.Policy.AllowedDirs()[0], "data")
	os.WriteFile(data, []byte("first\n"), 0o644)

	_, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"echo", "x"}, "background": true})
	job := m["job_id"].(string)
	if _, st := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": job, "wait": 30}); st["state"] != "exited" {
		t.Fatalf("job: %v", st)
	}
	if got := storeFiles(t, s); !slices.Contains(got, job+".stdout") {
		t.Errorf("a job's output is not in its file: %v", got)
	}

	r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"tail", "-f", "data"}})
	adaptive, _ := m["job_id"].(string)
	if adaptive == "" {
		t.Fatalf("no hand-off: %q %v", resultText(r), m)
	}
	defer mcptest.CallTool(t, cs, "job_kill", map[string]any{"id": adaptive})
	b, err := os.ReadFile(filepath.Join(s.bg.store.Dir(), adaptive+".stdout"))
	if err != nil || string(b) != "first\n" {
		t.Errorf("the handed-off call's output before the hand-off: %q %v", b, err)
	}
	// A job's later bytes go to the same file.
	f, _ := os.OpenFile(data, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("second\n")
	f.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	out, _ := s.bg.store.Get(adaptive)
	out.Wait(ctx, 0, int64(len("first\n")))
	if b, _ := os.ReadFile(filepath.Join(s.bg.store.Dir(), adaptive+".stdout")); !strings.HasSuffix(string(b), "second\n") {
		t.Errorf("after the hand-off: %q", b)
	}
}
