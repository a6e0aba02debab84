package config

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// addToolchains puts the toolchains installed outside the system program
// directories (childenv.Toolchains: the Go tarball, go install's bin,
// rustup, nvm) on the child PATH when MCP_SHELL_SAFE_PATH is unset, and
// their trees among the sandbox's read directories when
// MCP_SHELL_SANDBOX_READ_DIRS is unset, so that an allowlisted go or
// cargo is found and runs as it does in the user's shell. A directory a
// stage could write (beneath an allowed directory, the sandbox's cache
// root or a delegated cache variable such as GOPATH) is never added: a
// program planted there would run by name. What was added and what was
// left out is in Toolchains and ToolchainsSkipped, for the start-up line.
func (cfg *Config) addToolchains(lookup func(string) (string, bool), safeSet, readSet bool) {
	if safeSet {
		return
	}
	writable := cfg.writableTrees(lookup)
	path := filepath.SplitList(cfg.SafePath)
	for _, tc := range childenv.Toolchains(cfg.ChildHome) {
		if slices.Contains(path, tc.Bin) {
			continue
		}
		if w := slices.IndexFunc(writable, func(d string) bool { return workdir.Within(tc.Bin, d) }); w >= 0 {
			cfg.ToolchainsSkipped = append(cfg.ToolchainsSkipped, tc.Bin+" (writable by stages: beneath "+writable[w]+")")
			continue
		}
		path = append(path, tc.Bin)
		cfg.Toolchains = append(cfg.Toolchains, tc)
		if readSet || !cfg.Launch {
			continue
		}
		for _, r := range tc.Reads {
			if !slices.ContainsFunc(cfg.Sandbox.ReadDirs, func(d string) bool { return workdir.Within(r, d) }) {
				cfg.Sandbox.ReadDirs = append(cfg.Sandbox.ReadDirs, r)
			}
		}
	}
	cfg.SafePath = strings.Join(path, string(filepath.ListSeparator))
}

// writableTrees are the trees outside which a toolchain's bin must lie:
// the allowed directories, the sandbox's cache root (configured, or the
// default beneath ~/.cache) and every family cache variable the
// children inherit with an absolute value (GOPATH, CARGO_HOME ...).
func (cfg *Config) writableTrees(lookup func(string) (string, bool)) []string {
	out := slices.Clone(cfg.AllowedDirs)
	root := cfg.Sandbox.CacheDir
	if home, _ := lookup("HOME"); root == "" && filepath.IsAbs(home) {
		root = filepath.Join(home, ".cache", "mcp-shell-server") // sandbox.DefaultCacheDir without XDG_CACHE_HOME
	}
	if root != "" {
		out = append(out, root)
	}
	for _, f := range argvrules.All() {
		for _, c := range f.Caches {
			if !slices.Contains(cfg.ChildEnvAllowlist, c.Env) {
				continue
			}
			if v, ok := lookup(c.Env); ok && filepath.IsAbs(v) {
				out = append(out, filepath.Clean(v))
			}
		}
	}
	return out
}
