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
)

// TestNpmOracle (issue 12, class 7) runs the real npm on command lines
// where value-taking options, shorthands, abbreviations and "--" stand
// between npm and the command, and counts escapes: runs that started the
// canary (through npm exec -c, or a script that npm pkg set stored and a
// later npm run ran) although checkNpm allowed the argv. It needs at
// least ten dangerous runs, and checks the everyday forms are allowed.
func TestNpmOracle(t *testing.T) {
	ctx := scratch(t)
	if testing.Short() {
		t.Skip("oracle runs npm")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm not installed")
	}
	const c = "@CANARY@"
	variants := [][]string{
		{"exec", "-c", c},
		{"--registry", "http://127.0.0.1:9", "--loglevel", "silent", "exec", "-c", c},
		{"--reg", "http://127.0.0.1:9", "--loglevel", "silent", "exec", "-c", c},
		{"--loglevel", "silent", "--tag", "x", "--cache", "cache", "exec", "-c", c},
		{"-C", ".", "--before", "2020-01-01", "x", "-c", c},
		{"--prefix", ".", "--userconfig-x", "exe", "-c", c},
		{"-dd", "exec", "--call", c},
		{"exec", "--call=" + c},
		{"exec", "--cal", c},
		{"x", "-c", c},
		{"exe", "-c", c},
		{"--", "exec", "-c", c},
		{"--no-yes", "null", "exec", "-c", c},
		{"--yes", "null", "exec", "-c", c},
		{"--workspaces", "false", "exec", "-c", c},
		{"--color", "always", "exec", "-c", c},
		{"--browser", "firefox", "exec", "-c", c},
		{"--global=false", "exec", "-c", c},
		{"--foreground-scripts", "true", "exec", "-c", c},
		{"--scope", "@x", "exec", "-c", c},
		{"exec", "-qc", c},
		{"--offline", "exec", "--", "sh", "-c", c},
		{"pkg", "set", "scripts.pwn=" + c},
		{"--loglevel", "silent", "pkg", "set", "scripts[pwn]=" + c},
		{"pkg", "set", "scripts.pwn=" + c, "--json=false"},
		// everyday
		{"run", "e2e", "--", "--browser", "chrome"},
		{"run", "e2e"},
		{"--loglevel", "silent", "run", "e2e"},
		{"pkg", "get", "name"},
		{"pkg", "set", "version=1.0.1"},
	}
	everyday := map[int]bool{25: true, 26: true, 27: true, 28: true, 29: true}
	var mu sync.Mutex
	triggered, escapes := 0, 0
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, v := range variants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ran, argv := runNpmVariant(t, npm, v)
			rej := checkNpm(argv, ctx)
			mu.Lock()
			defer mu.Unlock()
			if everyday[i] && rej != nil {
				t.Errorf("everyday %q refused: %s", argv, rej.Message)
			}
			if ran {
				triggered++
				if rej == nil {
					escapes++
					t.Errorf("escape: %q ran the canary, but checkNpm allowed it", argv)
				}
			}
		}()
	}
	wg.Wait()
	t.Logf("npm oracle: %d variants, %d ran the canary, %d escapes", len(variants), triggered, escapes)
	if triggered < 10 {
		t.Errorf("only %d variants ran the canary: the oracle is not exercising npm", triggered)
	}
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
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
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
