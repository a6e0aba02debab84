package git

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSafeDirectoriesEntries: the list starts with the reset, names each
// allowed directory (exactly and as "D/*") and the call's directory with
// its parents up to its allowed directory, nothing outside them, and never
// "*".
func TestSafeDirectoriesEntries(t *testing.T) {
	for _, tc := range []struct {
		dir     string
		allowed []string
		want    []string
	}{
		{"/w/a/b/c", []string{"/x", "/w/a"}, []string{"", "/x", "/x/*", "/w/a", "/w/a/*", "/w/a/b/c", "/w/a/b"}},
		{"/w/a", []string{"/w/a"}, []string{"", "/w/a", "/w/a/*"}},
		{"/elsewhere/r", []string{"/w/a"}, []string{"", "/w/a", "/w/a/*"}},
		{"/srv/p", []string{"/"}, []string{"", "/", "/*", "/srv/p", "/srv"}},
		{"", nil, []string{""}},
	} {
		var got []string
		for _, kv := range safeDirectories(tc.dir, tc.allowed) {
			if kv[0] != "safe.directory" || kv[1] == "*" {
				t.Errorf("%s: entry %q", tc.dir, kv)
			}
			got = append(got, kv[1])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("safeDirectories(%q, %q) = %q, want %q", tc.dir, tc.allowed, got, tc.want)
		}
	}
}

// TestSafeDirectoryOpensAllowedReposOnly runs the installed git on
// repositories another uid owns (as a container's uid meets a host bind
// mount): without ChildConfig's list git refuses them ("dubious
// ownership"); with it git status works in a repository inside an allowed
// directory, from its top or a subdirectory, and still refuses one outside
// the allowed directories, or one whose top lies above the allowed
// directory, even when the user's ~/.gitconfig says safe.directory=*.
func TestSafeDirectoryOpensAllowedReposOnly(t *testing.T) {
	gitPath := realGit(t)
	if os.Geteuid() != 0 {
		t.Skip("needs root to give the repositories to another uid")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := func(rel string) string { return filepath.Join(root, rel) }
	for _, r := range []string{"allowed/proj", "toprepo", "outside", "parent"} {
		gitInit(t, gitPath, p(r))
	}
	for _, d := range []string{"allowed/proj/sub/deeper", "outside/sub", "parent/inner", "home-plain", "home-star"} {
		if err := os.MkdirAll(p(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(p("home-star/.gitconfig"), []byte("[safe]\n\tdirectory = *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const otherUID = 4242
	for _, r := range []string{"allowed", "toprepo", "outside", "parent"} {
		chownTree(t, p(r), otherUID)
	}
	allowed := []string{p("allowed"), p("toprepo"), p("parent/inner")}
	tests := []struct {
		name, home, cwd, callDir string
		hardened, wantOK         bool
	}{
		{"no ChildConfig: the repository is dubious", "home-plain", "allowed/proj/sub", "", false, false},
		{"ChildConfig without a workspace", "home-plain", "allowed/proj/sub", "", true, false},
		{"repository below an allowed directory, from a subdirectory", "home-plain", "allowed/proj/sub/deeper", "allowed/proj/sub/deeper", true, true},
		{"repository below an allowed directory, from its top", "home-plain", "allowed/proj", "allowed/proj", true, true},
		{"repository that is an allowed directory", "home-plain", "toprepo", "toprepo", true, true},
		{"repository outside, with the list of a call inside", "home-plain", "outside/sub", "allowed/proj", true, false},
		{"repository whose top is above the allowed directory", "home-plain", "parent/inner", "parent/inner", true, false},
		{"safe.directory=* in ~/.gitconfig opens everything", "home-star", "outside/sub", "", false, true},
		{"ChildConfig resets safe.directory=*", "home-star", "outside/sub", "allowed/proj", true, false},
		{"ChildConfig with safe.directory=*, inside", "home-star", "allowed/proj/sub", "allowed/proj/sub", true, true},
	}
	for _, tc := range tests {
		env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + p(tc.home), "XDG_CONFIG_HOME=" + p(tc.home), "GIT_CONFIG_NOSYSTEM=1", "LANG=C"}
		if tc.hardened {
			callDir := ""
			if tc.callDir != "" {
				callDir = p(tc.callDir)
			}
			env = append(env, ChildConfig(callDir, allowed)...)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, gitPath, "status")
		cmd.Dir, cmd.Env = p(tc.cwd), env
		out, err := cmd.CombinedOutput()
		cancel()
		// A repository above the allowed directories is not even found
		// (ChildConfig's GIT_CEILING_DIRECTORIES); one elsewhere is dubious.
		dubious := strings.Contains(string(out), "dubious ownership") ||
			tc.hardened && strings.Contains(string(out), "not a git repository")
		switch {
		case tc.wantOK && (err != nil || !strings.Contains(string(out), "On branch")):
			t.Errorf("%s: git status in %s failed: %v\n%s", tc.name, tc.cwd, err, out)
		case !tc.wantOK && (err == nil || !dubious):
			t.Errorf("%s: git status in %s: err %v, want a dubious-ownership refusal\n%s", tc.name, tc.cwd, err, out)
		}
	}
}

func gitInit(t *testing.T, gitPath, dir string) {
	t.Helper()
	if out, err := exec.Command(gitPath, "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init %s: %v\n%s", dir, err, out)
	}
}

// chownTree gives everything beneath dir to uid.
func chownTree(t *testing.T, dir string, uid int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, uid, uid)
	})
	if err != nil {
		t.Fatal(err)
	}
}
