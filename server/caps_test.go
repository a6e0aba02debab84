package server

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/mcptest"
)

// TestRedirectLimitIsAnError: a ">" file that reaches its own limit
// (Limits.RedirectLimit, not the stream cap) stops the command and is an
// error naming the limit and the file, in the foreground and as a
// background job, whose state says so; below the limit, a file larger
// than the stream cap is written whole.
func TestRedirectLimitIsAnError(t *testing.T) {
	t.Parallel()
	o := jobOptions(t, "head")
	o.Limits.OutputLimit, o.Limits.RedirectLimit = 1000, 5000
	_, cs, buf := newJobServer(t, o)
	dir := o.Policy.AllowedDirs()[0]
	r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "4000", "/dev/zero", ">", "ok.bin"}})
	if fi, err := os.Stat(filepath.Join(dir, "ok.bin")); r.IsError || err != nil || fi.Size() != 4000 {
		t.Fatalf("a file under its limit, over the stream cap: %q %v %v", resultText(r), m, err)
	}
	r, _ = mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "100000", "/dev/zero", ">", "fg.bin"}})
	txt := resultText(r)
	if !r.IsError || !strings.Contains(txt, `"fg.bin" exceeded the redirect limit of 5000 bytes (MCP_SHELL_REDIRECT_LIMIT_BYTES)`) {
		t.Errorf("foreground past the redirect limit: %q", txt)
	}
	if fi, err := os.Stat(filepath.Join(dir, "fg.bin")); err != nil || fi.Size() != 5000 {
		t.Errorf("fg.bin: %v %v, want the first 5000 bytes", fi, err)
	}
	_, m = mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "100000", "/dev/zero", ">", "bg.bin"}, "background": true})
	id, _ := m["job_id"].(string)
	_, st := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": id, "wait": 30})
	if st["state"] != "output_capped" || !strings.Contains(fmt.Sprint(st["error"]), "exceeded the redirect limit of 5000 bytes (MCP_SHELL_REDIRECT_LIMIT_BYTES)") {
		t.Errorf("background past the redirect limit: %v", st)
	}
	if fi, err := os.Stat(filepath.Join(dir, "bg.bin")); err != nil || fi.Size() != 5000 {
		t.Errorf("bg.bin: %v %v, want the first 5000 bytes", fi, err)
	}
	ends := 0
	for _, rec := range buf.records(t) {
		if rec["event"] == "job_end" && rec["job_id"] == id {
			ends++
			if rec["result_type"] != "output_cap" {
				t.Errorf("job end record %v", rec)
			}
		}
	}
	if ends != 1 {
		t.Errorf("%d job end records", ends)
	}
}

// TestCapSaysWhatWasLostAndHowToKeepIt: a foreground call stopped at the
// output cap says that the rest of its output is lost and how to keep
// more (a background job and its retention, a pipeline, a file); without
// jobs, only the ways that exist.
func TestCapSaysWhatWasLostAndHowToKeepIt(t *testing.T) {
	t.Parallel()
	for _, jobs := range []bool{true, false} {
		o := testOptions(t, "head")
		if jobs {
			o = jobOptions(t, "head")
		}
		o.Limits.OutputLimit = 1000
		_, cs, _ := newJobServer(t, o)
		r, _ := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "100000", "/dev/zero"}})
		txt := resultText(r)
		want := []string{"stdout exceeded output limit of 1000 bytes", "is lost", "pipeline", `">"`}
		if jobs {
			want = append(want, `"background": true`, "retains up to 1048576 bytes", "MCP_SHELL_RETAIN_BYTES")
		}
		for _, w := range want {
			if !strings.Contains(txt, w) {
				t.Errorf("jobs %v: %q does not say %s", jobs, firstLine(txt), w)
			}
		}
		if !jobs && strings.Contains(txt, "background") {
			t.Errorf("without jobs: %q", firstLine(txt))
		}
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// TestSeedParameters: shell_execute's capture_stderr false discards
// stderr (none returned, counted or capped), max_output_size lowers the
// cap for one call and is clamped to the server's, and session_id labels
// a job, which job_list filters by and the audit records carry.
func TestSeedParameters(t *testing.T) {
	t.Parallel()
	o := jobOptions(t, "sh", "head")
	o.Limits.OutputLimit = 4000
	s, cs, buf := newJobServer(t, o)
	_ = s
	r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "100000", "/dev/zero", "|", "head", "-c", "10"}, "capture_stderr": false})
	if r.IsError || m["stderr"] != "" || m["stderr_truncated"] != false {
		t.Errorf("capture_stderr false: %q %v", resultText(r), m)
	}
	r, _ = mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "3000", "/dev/zero"}, "max_output_size": 1000})
	if !r.IsError || !strings.Contains(resultText(r), "exceeded output limit of 1000 bytes") {
		t.Errorf("max_output_size 1000: %q", firstLine(resultText(r)))
	}
	r, m = mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "3000", "/dev/zero"}, "max_output_size": 1 << 30})
	if r.IsError || len(fmt.Sprint(m["stdout"])) != 3000 {
		t.Errorf("max_output_size above the cap: %q", firstLine(resultText(r)))
	}
	r, _ = mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "5000", "/dev/zero"}, "max_output_size": 1 << 30})
	if !r.IsError || !strings.Contains(resultText(r), "exceeded output limit of 4000 bytes") {
		t.Errorf("max_output_size is clamped to the server's cap: %q", firstLine(resultText(r)))
	}
	ids := map[string]string{}
	for _, label := range []string{"build-1", "test:2", ""} {
		args := map[string]any{"command": []string{"head", "-c", "1", "/dev/zero"}, "background": true}
		if label != "" {
			args["session_id"] = label
		}
		_, m := mcptest.CallTool(t, cs, "shell_execute", args)
		ids[label], _ = m["job_id"].(string)
		mcptest.CallTool(t, cs, "job_status", map[string]any{"id": ids[label], "wait": 30})
	}
	_, l := mcptest.CallTool(t, cs, "job_list", map[string]any{"session_id": "build-1"})
	if js, _ := l["jobs"].([]any); len(js) != 1 || js[0].(map[string]any)["id"] != ids["build-1"] || js[0].(map[string]any)["session_id"] != "build-1" {
		t.Errorf("job_list session_id build-1: %v", l)
	}
	if _, l := mcptest.CallTool(t, cs, "job_list", map[string]any{}); len(l["jobs"].([]any)) != 3 {
		t.Errorf("job_list: %v", l)
	}
	if r, _ := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "1", "/dev/zero"}, "session_id": "a b"}); !r.IsError {
		t.Errorf("a session_id with a space was accepted")
	}
	labelled := 0
	for _, rec := range buf.records(t) {
		if rec["job_id"] == ids["build-1"] && rec["tool"] == "shell_execute" {
			if rec["session_id"] != "build-1" {
				t.Errorf("record without the label: %v", rec)
			}
			labelled++
		}
	}
	if labelled != 2 {
		t.Errorf("%d records of the labelled job, want its start and end", labelled)
	}
}

// TestDetachedJob: detached runs a background job whose output is
// discarded (nothing retained, the text offers no output to read), whose
// ">" file is still written, and whose end is audited.
func TestDetachedJob(t *testing.T) {
	t.Parallel()
	o := jobOptions(t, "head")
	_, cs, buf := newJobServer(t, o)
	dir := o.Policy.AllowedDirs()[0]
	r, m := mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "5000000", "/dev/zero"}, "detached": true})
	id, _ := m["job_id"].(string)
	if r.IsError || id == "" || !strings.Contains(resultText(r), "Started detached job "+id) || strings.Contains(resultText(r), "read_output") || len(r.Content) != 1 {
		t.Fatalf("detached start: %q %v", resultText(r), m)
	}
	_, st := mcptest.CallTool(t, cs, "job_status", map[string]any{"id": id, "wait": 30})
	if st["state"] != "exited" || st["exit_code"] != 0.0 || st["stdout_bytes"] != 0.0 || st["detached"] != true {
		t.Errorf("detached status %v", st)
	}
	if _, rd := mcptest.CallTool(t, cs, "read_output", map[string]any{"id": id}); rd["data"] != nil && rd["data"] != "" {
		t.Errorf("a detached job's output was retained: %v", rd)
	}
	_, m = mcptest.CallTool(t, cs, "shell_execute", map[string]any{"command": []string{"head", "-c", "7", "/dev/zero", ">", "out.bin"}, "detached": true})
	id2, _ := m["job_id"].(string)
	mcptest.CallTool(t, cs, "job_status", map[string]any{"id": id2, "wait": 30})
	if fi, err := os.Stat(filepath.Join(dir, "out.bin")); err != nil || fi.Size() != 7 {
		t.Errorf("a detached job's > file: %v %v", fi, err)
	}
	var ended bool
	for _, rec := range buf.records(t) {
		if rec["event"] == "job_end" && rec["job_id"] == id && rec["result_type"] == "success" {
			ended = true
		}
	}
	if !ended {
		t.Errorf("no job_end record of the detached job")
	}
}
