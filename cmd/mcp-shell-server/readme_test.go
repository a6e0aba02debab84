package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// desktopEntry is one server of a README desktop snippet.
type desktopEntry struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// readmeSnippets returns the README's ```json desktop-NAME blocks by NAME.
func readmeSnippets(t *testing.T) map[string]desktopEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
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

// TestREADMEDesktopSnippets starts each desktop snippet the way a desktop
// client does (command, args and env exactly as written, the example paths
// substituted, no shell PATH) and lists the tools.
func TestREADMEDesktopSnippets(t *testing.T) {
	snippets := readmeSnippets(t)
	for _, name := range []string{"linux", "docker"} {
		if _, ok := snippets[name]; !ok {
			t.Errorf("README has no desktop-%s snippet", name)
		}
	}
	dir := t.TempDir()
	subst := func(s string) string { return strings.ReplaceAll(s, "/home/me/projects/demo", dir) }
	for name, e := range snippets {
		t.Run(name, func(t *testing.T) {
			switch {
			case name == "docker":
				if !slices.Contains(e.Args, "-i") || !slices.Contains(e.Args, "--rm") {
					t.Errorf("docker snippet lacks -i or --rm: %q", e.Args)
				}
				if exec.Command("docker", "info").Run() != nil {
					t.Skip("no Docker engine here: the docker snippet was only parsed")
				}
			case !filepath.IsAbs(e.Command):
				t.Fatalf("command %q is not an absolute path: desktop apps do not inherit PATH", e.Command)
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
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "readme", Version: "0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("starting %q: %v", cmd.Args, err)
			}
			defer cs.Close()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) == 0 {
				t.Fatalf("tools/list: %v %v", tools, err)
			}
		})
	}
}
