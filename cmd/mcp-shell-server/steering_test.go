//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPerCallSteeringVariableRefused replays redteam3's
// rtk-childenv-cflags through the real server: with CFLAGS delegated by
// the operator, a call's envs {"CFLAGS": "-B./evil/"} would make make's
// built-in rule run gcc, and gcc the request-written ./evil/as. The test
// first proves that outside the server (make with that environment runs
// the planted assembler), then that the server refuses the call with
// request.env-steering, names the variable, runs nothing and audits it.
func TestPerCallSteeringVariableRefused(t *testing.T) {
	for _, p := range []string{"make", "cc"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not installed", p)
		}
	}
	plant := func(dir, canary string) {
		t.Helper()
		if err := os.Mkdir(filepath.Join(dir, "evil"), 0o755); err != nil {
			t.Fatal(err)
		}
		files := map[string]string{"evil/as": "#!/bin/sh\ntouch '" + canary + "'\nexit 1\n", "hello.c": "int main(void){return 0;}\n"}
		for name, body := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}

	outside := t.TempDir()
	proof, proofCanary := t.TempDir(), filepath.Join(outside, "proof")
	plant(proof, proofCanary)
	cmd := exec.Command("make", "hello")
	cmd.Dir, cmd.Env = proof, []string{"PATH=/usr/bin:/bin", "CFLAGS=-B./evil/"}
	_ = cmd.Run()
	if _, err := os.Stat(proofCanary); err != nil {
		t.Fatalf("make with CFLAGS=-B./evil/ did not run the planted assembler (%v): the test cannot see the danger", err)
	}

	e := start(t, "", "ALLOW_COMMANDS=make", "MCP_SHELL_CHILD_ENV_ALLOWLIST=CFLAGS")
	canary := filepath.Join(outside, "PWNED-rtk-cflags")
	plant(e.dir, canary)
	r := e.call(map[string]any{"command": []string{"make", "hello"}, "envs": map[string]string{"CFLAGS": "-B./evil/"}})
	if !r.IsError || !strings.Contains(text(r), "CFLAGS") || !strings.Contains(text(r), "make") {
		t.Fatalf("per-call CFLAGS: isError %v, %q", r.IsError, text(r))
	}
	if _, err := os.Stat(canary); err == nil {
		t.Fatal("the planted assembler ran")
	}
	var found bool
	for _, rec := range e.auditRecords() {
		if rec["result_type"] == "rejected" && rec["rule"] == "request.env-steering" {
			found = true
		}
	}
	if !found {
		t.Errorf("no audit record with rule request.env-steering: %v", e.auditRecords())
	}
	// The operator's own value of the delegated name still reaches make.
	if r := e.call(map[string]any{"command": []string{"make", "-n", "hello"}}); r.IsError {
		t.Errorf("make without envs: %q", text(r))
	}
}
