package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// peerPackage is the npm peer: a Node MCP shell server whose shell_execute
// takes a shell string.
const peerPackage = "@mako10k/mcp-shell-server"

// installPeer installs the peer with npm into the scratch directory (or
// uses -peer-dir) and sets b.peerCmd. A failure is not a breakage of our
// server: it is recorded in b.peerErr and reported, and the run goes on.
func (b *bench) installPeer(ctx context.Context) error {
	prefix := b.o.peerDir
	p := b.newPart("Peer installation")
	if prefix == "" {
		prefix = filepath.Join(b.tmp, "peer")
		if err := os.Mkdir(prefix, 0o755); err != nil {
			return err
		}
		ictx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		defer cancel()
		spec := peerPackage + "@" + b.o.peerVersion
		cmd := exec.CommandContext(ictx, "npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", "--no-save", spec)
		cmd.Env = append(os.Environ(), "npm_config_update_notifier=false")
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.peerErr = fmt.Errorf("npm install %s failed: %v: %s", spec, err, lastLines(string(out), 5))
			p.printf("The peer could not be installed, so its rows are missing: %v\n", b.peerErr)
			return nil
		}
		p.printf("`npm install %s` into a temporary directory took %.1f s (not committed, removed at exit).\n", spec, time.Since(start).Seconds())
	} else {
		p.printf("The peer was taken from `-peer-dir %s`.\n", prefix)
	}
	entry := filepath.Join(prefix, "node_modules", filepath.FromSlash(peerPackage), "dist", "index.js")
	if _, err := os.Stat(entry); err != nil {
		b.peerErr = fmt.Errorf("peer entry point missing: %v", err)
		p.printf("The peer's entry point is missing, so its rows are missing: %v\n", b.peerErr)
		return nil
	}
	b.peerCmd = []string{"node", entry}
	p.printf("Started as `node %s` with `MCP_SHELL_ENHANCED_MODE=false`, `MCP_SHELL_DEFAULT_WORKDIR` and `MCP_SHELL_ALLOWED_WORKDIRS` set to the benchmark's temporary working directory, `BACKOFFICE_ENABLED=false` and `HOME` in the temporary directory; its tool is called with `execution_mode: \"foreground\"`.\n", filepath.Join("node_modules", peerPackage, "dist", "index.js"))
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

// peerStore is where the peer keeps every command's output (hard-coded in
// its FileManager).
const peerStore = "/tmp/mcp-shell-files"

// peerFiles lists the files in the peer's store.
func peerFiles() map[string]bool {
	files := map[string]bool{}
	for _, sub := range []string{"output", "log", "temp"} {
		ents, _ := os.ReadDir(filepath.Join(peerStore, sub))
		for _, e := range ents {
			files[filepath.Join(peerStore, sub, e.Name())] = true
		}
	}
	return files
}

// cleanPeerStore removes the files the peer created during this run: new
// since before (the listing taken before the peer first started) and
// modified after the run began.
func (b *bench) cleanPeerStore(before map[string]bool) {
	n := 0
	for f := range peerFiles() {
		if before[f] {
			continue
		}
		if st, err := os.Stat(f); err == nil && !st.ModTime().Before(b.began) && os.Remove(f) == nil {
			n++
		}
	}
	if n > 0 {
		b.logf("removed %d output files the peer left in %s", n, peerStore)
	}
}
