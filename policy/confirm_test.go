package policy

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// confirmTier builds a Confirm from command entries and pattern sources,
// as the configuration does.
func confirmTier(commands []string, patterns ...string) Confirm {
	c := Confirm{Commands: commands}
	for _, src := range patterns {
		c.Patterns = append(c.Patterns, regexp.MustCompile(`^(?:`+src+`)$`))
		c.PatternSources = append(c.PatternSources, src)
	}
	return c
}

// TestConfirmations: the confirm tier marks every stage that matches, by
// the program's name, path or any file it leads to, the program a
// wrapper runs, or a pattern over the joined argv; it never changes what
// is allowed.
func TestConfirmations(t *testing.T) {
	dir := fixture(t)
	bin := fakeBin(t, "rm", "git", "ls", "timeout", "nice")
	if err := os.Symlink(filepath.Join(bin, "rm"), filepath.Join(bin, "del")); err != nil {
		t.Fatal(err)
	}
	rm := filepath.Join(bin, "rm")
	if err := os.Link(rm, filepath.Join(bin, "rmh")); err != nil {
		t.Fatal(err)
	}
	allow := []string{"rm", "git", "ls", "timeout", "nice", "del", rm, filepath.Join(bin, "git")}
	type want = []plan.Confirmation
	for _, tt := range []struct {
		name string
		tier Confirm
		argv []string
		want want
	}{
		{"empty tier", Confirm{}, []string{"rm", "x"}, nil},
		{"name", confirmTier([]string{"rm"}), []string{"rm", "x"}, want{{Stage: 0, Rule: "confirm.command:rm"}}},
		{"name, case and image extension", confirmTier([]string{"RM.exe"}), []string{"rm", "x"}, want{{Stage: 0, Rule: "confirm.command:RM.exe"}}},
		{"absolute argv0", confirmTier([]string{"rm"}), []string{rm, "x"}, want{{Stage: 0, Rule: "confirm.command:rm"}}},
		{"path entry", confirmTier([]string{rm}), []string{"rm", "x"}, want{{Stage: 0, Rule: "confirm.command:" + rm}}},
		{"symlink to it", confirmTier([]string{"rm"}), []string{"del", "x"}, want{{Stage: 0, Rule: "confirm.command:rm"}}},
		{"other program", confirmTier([]string{"rm"}), []string{"ls", "-l"}, nil},
		{"wrapped", confirmTier([]string{"rm"}), []string{"timeout", "5", "rm", "x"}, want{{Stage: 0, Rule: "confirm.command:rm"}}},
		{"wrapped twice", confirmTier([]string{"rm"}), []string{"nice", "timeout", "5", "rm", "x"}, want{{Stage: 0, Rule: "confirm.command:rm"}}},
		{"pipeline stage", confirmTier([]string{"rm"}), []string{"ls", "|", "rm", "x"}, want{{Stage: 1, Rule: "confirm.command:rm"}}},
		{"pattern", confirmTier(nil, "git push.*"), []string{"git", "push", "origin"}, want{{Stage: 0, Rule: "confirm.pattern:git push.*"}}},
		{"pattern is a full match", confirmTier(nil, "git push"), []string{"git", "push", "origin"}, nil},
		{"pattern, absolute argv0", confirmTier(nil, "git push.*"), []string{filepath.Join(bin, "git"), "push"}, want{{Stage: 0, Rule: "confirm.pattern:git push.*"}}},
		{"pattern, wrapped", confirmTier(nil, "git push.*"), []string{"timeout", "9", "git", "push"}, want{{Stage: 0, Rule: "confirm.pattern:git push.*"}}},
		{"pattern, other subcommand", confirmTier(nil, "git push.*"), []string{"git", "status"}, nil},
		{"pattern, git's global options", confirmTier(nil, "git push.*"), []string{"git", "-C", ".", "--no-pager", "-P", "push", "origin"}, want{{Stage: 0, Rule: "confirm.pattern:git push.*"}}},
		{"pattern, git's global options, other subcommand", confirmTier(nil, "git push.*"), []string{"git", "-C", ".", "status"}, nil},
		{"entry leads to the stage's program", confirmTier([]string{"del"}), []string{"rm", "x"}, want{{Stage: 0, Rule: "confirm.command:del"}}},
		{"entry is a hard link of it", confirmTier([]string{"rmh"}), []string{"rm", "x"}, want{{Stage: 0, Rule: "confirm.command:rmh"}}},
		{"both stages, commands first", confirmTier([]string{"ls"}, "ls.*", "rm .*"), []string{"ls", "|", "rm", "x"}, want{{Stage: 0, Rule: "confirm.command:ls"}, {Stage: 1, Rule: "confirm.pattern:rm .*"}}},
		{"redirections are not in the text", confirmTier(nil, "ls"), []string{"ls", ">", "out.txt"}, want{{Stage: 0, Rule: "confirm.pattern:ls"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := New(Config{Commands: allow, Recognize: argvrules.Check, ChildEnv: childenv.Config{SafePath: bin}, Getenv: noEnv, Confirm: tt.tier})
			call, err := decideIn(t, p, tt.argv, dir)
			if err != nil {
				t.Fatalf("%q refused: %v", tt.argv, err)
			}
			if !slices.Equal(call.Confirm, tt.want) {
				t.Errorf("%q: confirm %v, want %v", tt.argv, call.Confirm, tt.want)
			}
		})
	}
}

// TestConfirmOnlyNarrows: a program the allowlist does not admit stays
// refused whatever the confirm tier names, and a refused call carries no
// confirmation.
func TestConfirmOnlyNarrows(t *testing.T) {
	dir := fixture(t)
	bin := fakeBin(t, "rm", "ls")
	p := New(Config{Commands: []string{"ls"}, Recognize: argvrules.Check, ChildEnv: childenv.Config{SafePath: bin}, Getenv: noEnv,
		Confirm: confirmTier([]string{"rm", "ls"}, ".*")})
	call, err := decideIn(t, p, []string{"rm", "x"}, dir)
	if err == nil || len(call.Confirm) != 0 {
		t.Fatalf("rm under a confirm tier naming it: %v, confirm %v; want refused", err, call.Confirm)
	}
}
