//go:build linux

// Fault injection on a small tmpfs (mount(2), root only): Linux.

package fault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tmpfs mounts a tmpfs of size bytes on a new temporary directory, or
// skips the test where mounting is not allowed (not root, no
// CAP_SYS_ADMIN in a container).
func tmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0755", size)); err != nil {
		t.Skipf("cannot mount a tmpfs (%v): the audit package's failing-writer tests cover this", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fill writes dir/filler until the file system is full and returns its
// path; removing it gives the room back.
func fill(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "filler")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for len(chunk) > 0 {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			chunk = chunk[:len(chunk)/2]
		}
	}
	return p
}

// TestAuditNearFullDisk: with the audit log on a file system that has
// filled up (only the slack of the log's last page left), every call that
// runs has its record: calls are admitted only with room reserved for the
// largest record a call can write, so a small record that still fits
// cannot re-admit calls whose records then fail. Once room is back, calls
// run again.
func TestAuditNearFullDisk(t *testing.T) {
	dir := tmpfs(t, 1<<20)
	log := filepath.Join(dir, "audit.jsonl")
	s := startStdio(t, "ALLOW_COMMANDS=echo", "MCP_SHELL_AUDIT_LOG="+log)
	// A few records first, so the log has a partly used last page.
	id := 0
	for range 3 {
		id++
		s.send(call(id, map[string]any{"command": []string{"echo", "before"}}))
		s.response(id)
	}
	filler := fill(t, dir)
	const n = 30
	ran, refused := 0, 0
	var ranIDs []string
	for range n {
		id++
		s.send(call(id, map[string]any{"command": []string{"echo", fmt.Sprintf("near-full-%d", id), strings.Repeat("x", 200)}}))
		out := text(s.response(id))
		switch {
		case strings.HasPrefix(out, "near-full"):
			ran++
			ranIDs = append(ranIDs, fmt.Sprintf("near-full-%d", id))
		case strings.Contains(out, "was not run"):
			refused++
		default:
			t.Fatalf("call %d: %q", id, out)
		}
	}
	os.Remove(filler)
	recovered := false
	for range 5 {
		id++
		s.send(call(id, map[string]any{"command": []string{"echo", "after"}}))
		if strings.HasPrefix(text(s.response(id)), "after") {
			recovered = true
			break
		}
	}
	s.in.Close()
	s.cmd.Wait()
	raw, _ := os.ReadFile(log)
	recorded := 0
	for _, marker := range ranIDs {
		if strings.Contains(string(raw), `"`+marker+`"`) {
			recorded++
		}
	}
	t.Logf("audit log on a full 1 MiB tmpfs: %d calls: %d ran, %d refused; %d of the %d that ran have their record (%d unrecorded); calls run again once room is back: %v",
		n, ran, refused, recorded, ran, ran-recorded, recovered)
	if ran-recorded > 0 || ran+refused != n || !recovered {
		t.Errorf("want every call that ran recorded, the rest refused, and calls admitted again after the disk has room")
	}
	records(t, log) // every line a whole record
}

// TestAuditFailingWithJobs: while the audit log cannot take records, a
// read of retained output (read_output, resources/read) is refused, not
// answered unrecorded; job_kill still stops a job, and the job's end
// record is written (its room was reserved when the job started). On a
// destination that never takes a record (/dev/full), the job's end is
// said lost on stderr, naming the job.
func TestAuditFailingWithJobs(t *testing.T) {
	t.Run("full disk", func(t *testing.T) {
		dir := tmpfs(t, 1<<20)
		log := filepath.Join(dir, "audit.jsonl")
		hold := holdScript(t)
		s := startStdio(t, "ALLOW_COMMANDS="+hold, "MCP_SHELL_AUDIT_LOG="+log)
		pidFile := filepath.Join(s.dir, "job")
		s.send(call(1, map[string]any{"command": []string{hold, pidFile}, "background": true}))
		job := jobID(t, s.response(1))
		waitPID(t, pidFile+".pid")
		filler := fill(t, dir)
		s.send(toolCall(2, "read_output", map[string]any{"id": job}))
		readText := text(s.response(2))
		s.send(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"shell-output://` + job + `/stdout"}}`)
		res := s.response(3)
		s.send(toolCall(4, "job_kill", map[string]any{"id": job}))
		killText := text(s.response(4))
		os.Remove(filler)
		s.send(toolCall(5, "read_output", map[string]any{"id": job}))
		afterText := text(s.response(5))
		s.in.Close()
		s.cmd.Wait()
		var ends, reads int
		for _, r := range records(t, log) {
			switch {
			case r["event"] == "job_end" && r["job_id"] == job:
				ends++
			case r["event"] == "output_read" && r["result_type"] == "success":
				reads++
			}
		}
		readRefused := strings.Contains(readText, "audit record")
		resRefused := res["error"] != nil
		t.Logf("job %s, disk full: read_output refused %v (%q), resources/read refused %v; job_kill: %q; after room is back read_output answered %v; records: %d job_end, %d output_read answered",
			job, readRefused, firstLine(readText), resRefused, firstLine(killText), strings.HasPrefix(afterText, "[stdout"), ends, reads)
		if !readRefused || !resRefused || ends != 1 || reads != 1 || !strings.Contains(killText, "killed") {
			t.Errorf("want both reads refused while the log is full, the job killed and its end recorded, one answered output_read record (the read after)")
		}
	})
	t.Run("dev full", func(t *testing.T) {
		hold := holdScript(t)
		s := newStdio(t, nil, "ALLOW_COMMANDS="+hold, "MCP_SHELL_AUDIT_LOG=/dev/full").initialize()
		pidFile := filepath.Join(s.dir, "job")
		s.send(call(1, map[string]any{"command": []string{hold, pidFile}, "background": true}))
		job := jobID(t, s.response(1))
		waitPID(t, pidFile+".pid")
		s.send(toolCall(2, "job_kill", map[string]any{"id": job}))
		killText := text(s.response(2))
		s.in.Close()
		s.cmd.Wait()
		named := false
		for _, l := range strings.Split(s.stderr.String(), "\n") {
			if strings.Contains(l, "job_end") && strings.Contains(l, job) {
				named = true
			}
		}
		t.Logf("/dev/full: job %s killed (%q); stderr names its lost job_end: %v", job, firstLine(killText), named)
		if !named {
			t.Errorf("the lost end record of job %s is not said on stderr:\n%s", job, s.stderr.String())
		}
	})
}

// toolCall is a tools/call of any tool.
func toolCall(id any, tool string, args map[string]any) string {
	return strings.Replace(call(id, args), `"name":"shell_execute"`, fmt.Sprintf("%q:%q", "name", tool), 1)
}

// jobID is the job_id of a call that became a background job.
func jobID(t *testing.T, res map[string]any) string {
	t.Helper()
	r, _ := res["result"].(map[string]any)
	sc, _ := r["structuredContent"].(map[string]any)
	id, _ := sc["job_id"].(string)
	if id == "" {
		t.Fatalf("not a job: %v", res)
	}
	return id
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
