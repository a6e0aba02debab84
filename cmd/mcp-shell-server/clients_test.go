package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// desktopEntry is one server of a desktop snippet of docs/clients.md.
type desktopEntry struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// clientSnippets returns the ```json desktop-NAME blocks of
// docs/clients.md by NAME.
func clientSnippets(t *testing.T) map[string]desktopEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "clients.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]desktopEntry{}
	for _, m := range regexp.MustCompile("(?s)```json desktop-([a-z]+)\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		var cfg struct {
			MCPServers map[string]desktopEntry `json:"mcpServers"`
		}
		if err := json.Unmarshal([]byte(m[2]), &cfg); err != nil {
			t.Fatalf("desktop-%s snippet is not valid JSON: %v", m[1], err)
		}
		if len(cfg.MCPServers) != 1 {
			t.Fatalf("desktop-%s: %d servers, want 1", m[1], len(cfg.MCPServers))
		}
		for _, e := range cfg.MCPServers {
			out[m[1]] = e
		}
	}
	return out
}

// snippetPlatform is what the test knows of one desktop snippet: the
// binary path it must name, and how its paths map onto this machine (the
// allowed directory onto a temporary one, Windows lists onto Linux ones).
type snippetPlatform struct {
	binary string
	// isAbs judges the command the way the snippet's platform does.
	isAbs func(string) bool
	// paths are (snippet path, local path) pairs, applied in order to
	// args and env values; "DIR" stands for the temporary directory.
	paths []string
}

// windowsAbs reports whether p is an absolute Windows path (C:\...).
func windowsAbs(p string) bool {
	return len(p) > 3 && p[1] == ':' && p[2] == '\\' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// snippetPlatforms are the desktop snippets docs/clients.md must have.
var snippetPlatforms = map[string]snippetPlatform{
	"release": {binary: "/usr/local/bin/mcp-shell-server", isAbs: filepath.IsAbs, paths: []string{"/home/me/projects/demo", "DIR"}},
	"npx":     {binary: "npx", paths: []string{"/home/me/projects/demo", "DIR"}},
	"linux":   {binary: "/home/me/go/bin/mcp-shell-server", isAbs: filepath.IsAbs, paths: []string{"/home/me/projects/demo", "DIR"}},
	"macos":   {binary: "/Users/me/go/bin/mcp-shell-server", isAbs: filepath.IsAbs, paths: []string{"/Users/me/projects/demo", "DIR"}},
	"docker":  {binary: "docker", paths: []string{"/home/me/projects/demo", "DIR"}},
	"windows": {binary: `C:\Users\me\go\bin\mcp-shell-server.exe`, isAbs: windowsAbs, paths: []string{
		`C:\Users\me\projects\demo`, "DIR",
		`C:\Program Files\Git\cmd`, "/usr/bin",
		`C:\Program Files\Git\usr\bin`, "/bin",
		";", string(filepath.ListSeparator),
	}},
}

// TestClientSnippets starts each desktop snippet of docs/clients.md the
// way a desktop client does (command, args and env exactly as written,
// the example paths substituted, no shell PATH) and lists the tools. The
// macOS and Windows snippets start here too, their paths mapped: what is
// checked is that the JSON parses, names the documented absolute binary
// path, and that the server accepts its arguments and environment. The
// npx snippet names the npm package of npm/ (.ci/npm-package starts it
// from the snapshot build), and the Docker one runs where an engine does.
func TestClientSnippets(t *testing.T) {
	snippets := clientSnippets(t)
	for name := range snippetPlatforms {
		if _, ok := snippets[name]; !ok {
			t.Errorf("docs/clients.md has no desktop-%s snippet", name)
		}
	}
	dir := t.TempDir()
	for name, e := range snippets {
		t.Run(name, func(t *testing.T) {
			plat, ok := snippetPlatforms[name]
			if !ok {
				t.Fatalf("desktop-%s: no platform known to this test", name)
			}
			pairs := slices.Clone(plat.paths)
			for i := range pairs {
				if pairs[i] == "DIR" {
					pairs[i] = dir
				}
			}
			if runtime.GOOS == "windows" {
				if name != "windows" {
					t.Skip("a Unix snippet: its paths mean nothing on Windows")
				}
				pairs = pairs[:2] // the snippet's other paths are this platform's own
			}
			subst := strings.NewReplacer(pairs...).Replace
			switch {
			case name == "npx":
				if pkg := npmPackageName(t); !slices.Equal(e.Args[:2], []string{"-y", pkg}) {
					t.Errorf("npx snippet args %q, want -y %s (npm/package.json) first", e.Args, pkg)
				}
				t.Skip("the npm package is started from the snapshot build by .ci/npm-package")
			case name == "docker":
				for _, want := range []string{"-i", "--rm", "--user", "HOME=/tmp", "--read-only"} {
					if !slices.Contains(e.Args, want) {
						t.Errorf("docker snippet lacks %s: %q", want, e.Args)
					}
				}
				if exec.Command("docker", "info").Run() != nil {
					t.Skip("no Docker engine here: the docker snippet was only parsed")
				}
			case !plat.isAbs(e.Command):
				t.Fatalf("command %q is not an absolute path: desktop apps do not inherit PATH", e.Command)
			case e.Command != plat.binary:
				t.Fatalf("command %q, want the documented %q", e.Command, plat.binary)
			default:
				e.Command = binary
			}
			cmd := exec.Command(e.Command)
			for _, a := range e.Args {
				cmd.Args = append(cmd.Args, subst(a))
			}
			for k, v := range e.Env {
				cmd.Env = append(cmd.Env, k+"="+subst(v))
			}
			if name == "docker" {
				cmd.Env = append(cmd.Env, "PATH="+os.Getenv("PATH"))
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "readme", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("starting %q: %v\n%s", cmd.Args, err, stderr.String())
			}
			defer cs.Close()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) == 0 {
				t.Fatalf("tools/list: %v %v\n%s", tools, err, stderr.String())
			}
		})
	}
}

// npmPackageName is the name of the npm package in npm/package.json.
func npmPackageName(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "npm", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct{ Name string }
	if err := json.Unmarshal(b, &pkg); err != nil || pkg.Name == "" {
		t.Fatalf("npm/package.json: %v %q", err, pkg.Name)
	}
	return pkg.Name
}
