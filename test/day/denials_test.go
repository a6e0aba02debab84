//go:build linux

package day

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// probeSource is a leaf program of no family: "exec" runs /bin/sh,
// "connect ADDR" opens a TCP connection; each prints Go's error and
// exits 1 when the access fails.
const probeSource = `package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
)

func main() {
	var err error
	switch os.Args[1] {
	case "exec":
		err = exec.Command("/bin/sh", "-c", "true").Run()
	case "connect":
		var c net.Conn
		if c, err = net.Dial("tcp", os.Args[2]); err == nil {
			c.Close()
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`

// probe is the probe's path: outside the allowed directory, as an
// installed program is.
func (f *fixture) probe() string { return filepath.Join(f.root, "bin", "probe") }

// buildProbe builds the probe and the canary that the Makefile's
// outside target overwrites unconfined.
func (f *fixture) buildProbe(t *testing.T) {
	t.Helper()
	src := filepath.Join(f.root, "probesrc")
	must(t, os.MkdirAll(src, 0o755))
	must(t, os.WriteFile(filepath.Join(src, "main.go"), []byte(probeSource), 0o644))
	must(t, os.WriteFile(filepath.Join(src, "go.mod"), []byte("module probe\n\ngo 1.22\n"), 0o644))
	cmd := exec.Command("go", "build", "-o", f.probe(), ".")
	cmd.Dir, cmd.Env = src, append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the probe: %v\n%s", err, out)
	}
	// The same program as a module in the allowed directory, for go run.
	f.write(t, "dial/go.mod", "module dial\n\ngo 1.22\n")
	f.write(t, "dial/main.go", probeSource)
	must(t, os.WriteFile(f.canary(), []byte("canary\n"), 0o644))
}

func (f *fixture) canary() string { return filepath.Join(f.root, "canary.txt") }

// testDenials proves, on the default-mode fixture, that a stage the
// sandbox stopped says so in its result and its audit record: a make
// recipe that writes outside the allowed directory, a leaf that execs
// sh, a leaf of no family and a program go run starts (go run has no
// network) connecting out. Each access is real:
// the canary stays untouched and the listener accepts nothing.
func testDenials(t *testing.T, f *fixture) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	addr := ln.Addr().String()
	for _, tc := range []struct {
		name string
		x    row
		kind string
		want string
	}{
		{"make recipe writes outside", r("make", "mk", "make", "outside"), "write", "write to ../../canary.txt"},
		{"leaf execs sh", r("leaf", "", f.probe(), "exec"), "exec", "exec of /bin/sh"},
		{"leaf connects out", r("leaf", "", f.probe(), "connect", addr), "connect", "TCP to " + addr},
		// go run has no network: the program it builds and starts is
		// go's child, in go's profile.
		{"go run program connects out", r("go", "dial", "go", "run", ".", "connect", addr), "connect", "TCP to " + addr},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := f.call(t, tc.x)
			if o.ok {
				t.Fatalf("%q succeeded under the default sandbox:\n%s", tc.x.argv, o.text)
			}
			if !strings.Contains(o.text, "The sandbox may have denied") || !strings.Contains(o.text, tc.want) {
				t.Errorf("%q: the result does not say the sandbox denied %q:\n%s", tc.x.argv, tc.want, clip(o.text, 1500))
			}
			if rec := f.lastAudit(t); !strings.Contains(rec, `"kind":"`+tc.kind+`"`) || !strings.Contains(rec, `"guess":true`) {
				t.Errorf("%q: the audit record has no %s denial: %s", tc.x.argv, tc.kind, clip(rec, 1500))
			}
		})
	}
	t.Run("background make recipe writes outside", func(t *testing.T) { testJobDenial(t, f) })
	if body, err := os.ReadFile(f.canary()); err != nil || string(body) != "canary\n" {
		t.Errorf("the canary outside the allowed directory was changed: %q, %v", body, err)
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the listener accepted %d connections from a stage without network", n)
	}
}

// lastAudit is the last shell_execute record of the audit log.
func (f *fixture) lastAudit(t *testing.T) string {
	t.Helper()
	file, err := os.Open(f.auditLog)
	must(t, err)
	defer file.Close()
	var last string
	sc := bufio.NewScanner(file)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["tool"] == "shell_execute" {
			last = sc.Text()
		}
	}
	return last
}

// testJobDenial: a job the sandbox stopped says so in its status and in
// its job_end record, as a foreground call does.
func testJobDenial(t *testing.T, f *fixture) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	res, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{
		"command": []string{"make", "outside"}, "directory": filepath.Join(f.work, "mk"), "background": true}})
	must(t, err)
	var started struct {
		JobID string `json:"job_id"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if json.Unmarshal(raw, &started) != nil || started.JobID == "" {
		t.Fatalf("no job started: %s", raw)
	}
	var text string
	for ended := false; !ended; {
		st, err := f.session.CallTool(ctx, &mcp.CallToolParams{Name: "job_status", Arguments: map[string]any{"id": started.JobID, "wait": 30}})
		must(t, err)
		text = st.Content[0].(*mcp.TextContent).Text
		var out struct {
			State string `json:"state"`
		}
		raw, _ := json.Marshal(st.StructuredContent)
		must(t, json.Unmarshal(raw, &out))
		ended = out.State != "running" && out.State != "queued"
	}
	if !strings.Contains(text, "The sandbox may have denied") || !strings.Contains(text, "write to ../../canary.txt") {
		t.Errorf("the failed job's status does not say the sandbox denied the write:\n%s", clip(text, 1500))
	}
	// The job_end record is written by the audit's writer after the job
	// ended; the log is a file, which gives no signal, so it is read
	// again until the record is there.
	var rec string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if rec = f.lastAudit(t); strings.Contains(rec, `"event":"job_end"`) {
			break
		}
	}
	if !strings.Contains(rec, `"event":"job_end"`) || !strings.Contains(rec, `"kind":"write"`) {
		t.Errorf("the job_end record has no write denial: %s", clip(rec, 1500))
	}
}
