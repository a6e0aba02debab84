//go:build unix

package argvrules

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// TestNpmOracle runs the real npm on command lines
// where value-taking options, shorthands, abbreviations and "--" stand
// between npm and the command, and counts escapes: runs that started the
// canary (through npm exec -c, or a script that npm pkg set stored and a
// later npm run ran) although checkNpm allowed the argv. It needs at
// least ten dangerous runs (scaled with the sample: see testenv), and
// checks the everyday forms are allowed.
func TestNpmOracle(t *testing.T) {
	t.Parallel()
	ctx := scratch(t)
	if testing.Short() {
		t.Skip("oracle runs npm")
	}
	npm := testenv.Program(t, "npm")
	const c = "@CANARY@"
	type npmVariant struct {
		args     []string
		everyday bool // must be allowed
	}
	d := func(args ...string) npmVariant { return npmVariant{args: args} }
	ok := func(args ...string) npmVariant { return npmVariant{args: args, everyday: true} }
	variants := testenv.Sample([]npmVariant{
		d("exec", "-c", c),
		d("--registry", "http://127.0.0.1:9", "--loglevel", "silent", "exec", "-c", c),
		d("--reg", "http://127.0.0.1:9", "--loglevel", "silent", "exec", "-c", c),
		d("--loglevel", "silent", "--tag", "x", "--cache", "cache", "exec", "-c", c),
		d("-C", ".", "--before", "2020-01-01", "x", "-c", c),
		ok("run", "e2e", "--", "--browser", "chrome"),
		d("--prefix", ".", "--userconfig-x", "exe", "-c", c),
		d("-dd", "exec", "--call", c),
		d("exec", "--call="+c),
		d("exec", "--cal", c),
		d("x", "-c", c),
		ok("run", "e2e"),
		d("exe", "-c", c),
		d("--", "exec", "-c", c),
		d("--no-yes", "null", "exec", "-c", c),
		d("--yes", "null", "exec", "-c", c),
		d("--workspaces", "false", "exec", "-c", c),
		ok("--loglevel", "silent", "run", "e2e"),
		d("--color", "always", "exec", "-c", c),
		d("--browser", "firefox", "exec", "-c", c),
		d("--global=false", "exec", "-c", c),
		d("--foreground-scripts", "true", "exec", "-c", c),
		d("--scope", "@x", "exec", "-c", c),
		ok("pkg", "get", "name"),
		d("exec", "-qc", c),
		d("--offline", "exec", "--", "sh", "-c", c),
		d("pkg", "set", "scripts.pwn="+c),
		d("--loglevel", "silent", "pkg", "set", "scripts[pwn]="+c),
		d("pkg", "set", "scripts.pwn="+c, "--json=false"),
		ok("pkg", "set", "version=1.0.1"),
	})
	var mu sync.Mutex
	triggered := 0
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for _, v := range variants {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			ran, argv := runNpmVariant(t, npm, v.args)
			rej := checkNpm(argv, ctx)
			mu.Lock()
			defer mu.Unlock()
			if v.everyday && rej != nil {
				t.Errorf("everyday %q refused: %s", argv, rej.Message)
			}
			if ran {
				triggered++
				if rej == nil {
					t.Errorf("escape: %q ran the canary, but checkNpm allowed it", argv)
				}
			}
		})
	}
	wg.Wait()
	testenv.Saw(t, "npm command lines", len(variants), triggered, 10)
}

// runNpmVariant runs npm with args in a fresh package directory (scripts
// e2e: echo ok), offline with a private HOME and cache, then, after
// "npm pkg", "npm run pwn" to see whether a script was stored; it reports
// whether the canary ran.
func runNpmVariant(t *testing.T, npm string, args []string) (bool, []string) {
	dir := t.TempDir()
	marker, canary := filepath.Join(dir, "marker"), filepath.Join(dir, "canary.sh")
	os.WriteFile(canary, []byte("#!/bin/sh\n: > '"+marker+"'\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"p","version":"1.0.0","scripts":{"e2e":"echo ok"}}`), 0o644)
	argv := []string{"npm"}
	for _, a := range args {
		argv = append(argv, strings.ReplaceAll(a, "@CANARY@", canary))
	}
	run := func(args ...string) {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.RunTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, npm, args...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + filepath.Dir(npm) + ":/usr/bin:/bin", "HOME=" + dir, "npm_config_cache=" + filepath.Join(dir, "cache"),
			"npm_config_offline=true", "npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false"}
		cmd.WaitDelay = time.Second
		cmd.Run()
	}
	run(argv[1:]...)
	if slices.Contains(args, "pkg") {
		run("run", "pwn") // a stored script runs on the next npm run
	}
	_, err := os.Stat(marker)
	return err == nil, argv
}
