package git

import (
	"os"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// testDir is a working directory, empty, shared by the package's
// tests (made and removed by TestMain).
var testDir *workdir.Dir

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "git-test-")
	if err != nil {
		panic(err)
	}
	d, err := workdir.Open(dir, []string{"/"})
	if err != nil {
		panic(err)
	}
	testDir = d
	code := m.Run()
	d.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

// split turns "git grep -n foo" into argv; "\x1f" stands for an empty
// element and "␠" for a space inside one element.
func split(s string) []string {
	f := strings.Fields(s)
	for i := range f {
		f[i] = strings.ReplaceAll(f[i], "␠", " ")
		if f[i] == "\x1f" {
			f[i] = ""
		}
	}
	return f
}

func TestCheckTable(t *testing.T) {
	allow := []string{
		// everyday commands from the brief
		"git status", "git log -p", "git log --stat", "git log --oneline",
		"git log --author=alice", "git log main..HEAD", "git log --oneline -- a/b.go",
		"git diff", "git show", "git grep -n foo", "git blame -L 10,20 main.go",
		"git branch", "git add .", "git commit -m msg", "git commit -m --exec",
		"git commit -m --upload-pack=x", "git commit -am --exec", "git checkout -b x",
		"git switch main", "git switch -c feature", "git stash", "git stash push -m --exec",
		"git tag v1", "git tag -m --exec -a v1", "git fetch", "git fetch -u origin",
		"git pull", "git pull --ff-only", "git push origin main", "git push -u origin main",
		"git remote -v", "git rev-parse HEAD", "git ls-files", "git merge main",
		"git merge -m --exec main", "git reset --hard HEAD", "git restore a", "git cherry-pick abc",
		"git cherry-pick -x abc", "git revert abc", "git describe --tags", "git shortlog -sn",
		"git reflog", "git worktree list", "git init", "git init -b main",
		"git clone https://example.invalid/r.git", "git clone file:///tmp/r dst",
		"git clone -b main --single-branch repo dst", "git clone -o up repo",
		"git config --get user.name", "git config --list", "git config -l", "git config user.name",
		"git config list", "git config get user.name", "git config --get-regexp ^user",
		"git config --show-origin --list", "git config --file x --get a.b",
		"git -C repo status", "git --no-pager log", "git -P diff", "git --version", "git version",
		"git --exec-path", "git --html-path", "git", "git help", "git --help", "git help -a",
		"git help -g", "git help --config", "git -C config status", "git show HEAD:config",
		"git log -c", "git show -c HEAD", "git commit -c HEAD",
		// value consumption
		"git grep -e -O data", "git grep -e --open-files-in-pager", "git grep -f -O",
		"git grep -n -- -O", "git grep foo -O", "git grep -C -O x", "git grep ( -e a )",
		"git rebase --onto --exec main", "git rebase -s --exec main", "git rebase -X --exec main",
		"git rebase -i main", "git rebase --interactive HEAD~3", "git rebase main -- --exec",
		"git rebase --no-exec main", "git rebase -sx main", "git rebase -C -x main",
		// output confinement
		"git log --output=out.txt", "git diff --output sub/out.txt", "git format-patch -o patches HEAD~2",
		"git format-patch -opatches HEAD~2", "git format-patch --output-directory=p HEAD~1",
		"git archive -o a.tar HEAD", "git -C sub log --output=x",
		// globals consuming values
		"git --git-dir .git status", "git --work-tree . status", "git --namespace ns log",
		"git --attr-source HEAD status", "git --attr-source=HEAD status",
		"git -C --exec-path status",
		// send-email
		"git send-email --smtp-server=smtp.example.invalid a.patch",
		"git send-email --smtp-server localhost a.patch", "git send-email --smtp-server=[::1] a",
		"git send-email --smtp-server=127.0.0.1 a", "git send-email -h", "git send-email --dump-aliases",
		"git send-email --dry-run a", "git send-email --subject --sendmail-cmd=DATA a",
		"git send-email --identity --sendmail-cmd=DATA a", "git send-email -- --sendmail-cmd=x",
		"git send-email --smtp-server-port 25 a", "git send-email --smtp-server-option=x a",
		"git send-email --to --to-cmd a", "git send-email --no-header-cmd a",
		"git send-email --i --sendmail-cmd=x a",
		// other subcommands
		"git bisect start", "git bisect good", "git bisect view", "git submodule status",
		"git submodule update --init",
		"git maintenance run",
		"git remote add origin https://example.invalid/r.git", "git notes add -m --exec",
		"git grep -n ext", "git log --grep=next::thing",
		"git-status", "/usr/bin/git status", "git apply p.diff", "git apply -p1 --check p.diff",
		"git apply --build-fake-ancestor=tmp.idx p.diff", "git apply --directory=sub p.diff", "git init-db",
	}
	for _, s := range allow {
		if rej := Check(split(s), testDir, nil); rej != nil {
			t.Errorf("%q: want allow, got %s: %s", s, rej.Code, rej.Message)
		}
	}
	reject := []string{
		// globals
		"git -c a=b status", "git -ca=b status", "git --config-env a=B log",
		"git --config-env=a=B log", "git --exec-path=/tmp x", "git --exec-path=. x",
		"git -p log", "git --paginate log", "git -p help", "git --frobnicate status",
		"git --no-pager -c a=b log", "git --work-tree . -c a=b status",
		"git -C x -c a=b status", "git --attr-source HEAD config --list",
		"git --attr-source HEAD clone -c a=b repo", "git --super-prefix x/ -c a=b status",
		// help viewers
		"git help config", "git help -m", "git help -w log", "git help --web log", "git help --man",
		"git branch --help config", "git log --help", "git --help log", "git -h log",
		// config writes
		"git config core.fsmonitor x", "git config --global alias.pwn !sh", "git config -e",
		"git config --edit", "git config --add a.b c", "git config --unset a.b",
		"git config --unset-all a.b", "git config --rename-section a b", "git config --remove-section a",
		"git config --replace-all a.b c", "git config set a.b c", "git config unset a.b",
		"git config edit", "git config --un a.b", "git config --rep a.b c", "git config --ed",
		"git config --file x a.b c", "git --no-pager config -l", "git --git-dir=.git config -l",
		"git --git-dir .git config -l",
		// grep pager
		"git grep -O foo", "git grep -Ovi foo", "git grep -nOP foo", "git grep -1OP foo",
		"git grep --open-files-in-pager foo", "git grep --op foo", "git grep --o=P foo",
		"git grep --open-files-in-pager=vi foo", "git grep -n -O foo", "git grep -e a -O b",
		"git grep -nQ foo",
		// rebase exec
		"git rebase -x sh main", "git rebase -xsh main", "git rebase -qxP main",
		"git rebase --exec sh main", "git rebase --exec=sh main", "git rebase --ex=sh main",
		"git rebase --e=sh main", "git rebase main --exec sh", "git rebase main -x sh",
		"git rebase -i main -x sh", "git rebase -iq -xsh main",
		// filter-branch, bisect run, others
		"git filter-branch", "git filter-branch --help", "git bisect run make",
		"git bisect view gitk", "git bisect visualize git -c a=b log",
		"git submodule foreach ls", "git submodule --quiet foreach ls",
		"git instaweb", "git web--browse x", "git daemon", "git credential fill",
		"git credential-store get", "git upload-pack .", "git receive-pack .", "git shell",
		"git remote-ext x y", "git fsmonitor--daemon start", "git hook run pre-commit",
		"git for-each-repo --config=x log", "git merge-index sh -a", "git maintenance start",
		"git whatchanged", "git frobnicate", "git-filter-branch",
		// transport program selectors
		"git --upload-pack=sh fetch", "git fetch --upload-pack sh origin",
		"git fetch --upload-pack=sh origin", "git fetch --upl=sh origin", "git fetch origin --u=sh",
		"git pull --upload-pack=sh", "git pull --upl sh", "git ls-remote --upload-pack=sh o",
		"git ls-remote --exec=sh o", "git ls-remote --u=sh o", "git push --receive-pack=sh o",
		"git push --rece=sh o", "git push --exec=sh o", "git push --e=sh o", "git push --ex sh o",
		"git archive --remote=r --exec=x HEAD", "git archive --exec x HEAD",
		"git send-pack --receive-pack=x r", "git fetch-pack --upload-pack=x r",
		"git clone -u sh repo", "git clone -qu sh repo", "git clone -usu repo", "git clone --u=sh repo",
		"git clone --upl=sh repo", "git clone --upload-pack sh repo", "git clone -c a=b repo",
		"git clone -ca=b repo", "git clone -qca=b repo", "git clone --config a=b repo",
		"git clone --config=a=b repo", "git clone --con a=b repo", "git clone --co=a=b repo",
		"git clone --template=/tmp/t repo", "git clone --te=/tmp/t repo", "git init --template=/t",
		"git init --templ /t", "git clone repo -c a=b", "git commit --exec", "git status --e",
		"git log --exec=x",
		// remote helper URLs
		"git clone ext::sh", "git fetch ext::sh", "git push ext::sh main", "git clone fd::3",
		"git remote add x ext::sh", "git submodule add ext::sh m", "git fetch --url=ext::sh",
		"git clone EXT::sh", "git -C ext::x status",
		// output confinement
		"git log --output=/tmp/x", "git log --output /tmp/x", "git log --output=../x",
		"git diff --output=a/../../x", "git show --output=/etc/passwd", "git log HEAD --output=/x",
		"git format-patch -o /tmp HEAD~1", "git format-patch -o/tmp HEAD~1",
		"git format-patch --output-directory=/tmp HEAD~1", "git format-patch --output-dir /tmp HEAD",
		"git format-patch --output=/tmp/x HEAD", "git archive -o /tmp/a.tar HEAD",
		"git archive --output=../a.tar HEAD", "git -C /tmp log --output=x",
		"git --work-tree=/ log --output=x", "git log --output=", "git log --out --output=/x",
		"git apply --unsafe-paths p.diff", "git apply --uns p.diff", "git apply --build-fake-ancestor=/tmp/i p",
		"git apply --directory=/tmp p.diff", "git apply --directory ../x p.diff", "git apply --dir=a/../../x p.diff",
		"git pack-objects /tmp/x", "git bundle create /tmp/b HEAD", "git checkout-index --prefix=/tmp/ -a",
		// difftool / mergetool
		"git difftool -x sh", "git difftool --extcmd=sh", "git difftool --extc sh", "git difftool -t vi",
		"git difftool --tool=vi", "git difftool --to=vi", "git difftool -yxsh",
		"git mergetool -t vi", "git mergetool --tool=vi", "git mergetool --tool vi", "git mergetool --to=vi",
		// send-email selectors
		"git send-email --sendmail-cmd=sh a", "git send-email --sendmail-cmd sh a",
		"git send-email --sendm=sh a", "git send-email --SENDMAIL-CMD=sh a",
		"git send-email -sendmail-cmd=sh a", "git send-email +sendmail-cmd=sh a",
		"git send-email --to-cmd=sh a", "git send-email --cc-cmd=sh a",
		"git send-email --header-cmd=sh a", "git send-email --header-cmd=sh --no-header-cmd a",
		"git send-email --sendmail-cmd= a", "git send-email a --sendmail-cmd",
		"git send-email --dry-run --sendmail-cmd=sh a", "git send-email --send=x a",
		"git send-email --cc-c=x a", "git send-email --to-c=x a", "git send-email --smtp-serv=x a",
		"git send-email --smtp-server=/bin/sh a", "git send-email --smtp-server /bin/sh a",
		"git send-email --smtp-server=\\x a", "git send-email --smtp-server=C:x a",
		"git send-email --smtp-server= a", "git send-email a --smtp-server",
		"git send-email a --sendmail-cmd=sh", "git send-email --end-of-options --sendmail-cmd=sh",
		"git send-email --smtp-pass +identity --sendmail-cmd=x a",
		"git send-email --he=x a", "git send-email --batch-size --sendmail-cmd=x a",
	}
	for _, s := range reject {
		if rej := Check(split(s), testDir, nil); rej == nil {
			t.Errorf("%q: want reject, got allow", s)
		} else if rej.Message == "" || rej.Code == "" || !strings.HasPrefix(rej.Message, "Command rejected by default security policy: git") {
			t.Errorf("%q: malformed rejection %+v", s, rej)
		}
	}
}

func TestAllowSubcommands(t *testing.T) {
	rec := func(argv []string, dir *workdir.Dir) *refusal.Rejection {
		return Check(argv, dir, []string{"st", "filter-branch"})
	}
	if rej := rec(split("git st"), testDir); rej != nil {
		t.Errorf("allowlisted alias refused: %s", rej.Message)
	}
	if rej := rec(split("git st --exec=x"), testDir); rej == nil {
		t.Errorf("allowlisted alias must still refuse --exec")
	}
	if rej := rec(split("git st ext::sh"), testDir); rej == nil {
		t.Errorf("allowlisted alias must still refuse ext::")
	}
	if rej := rec(split("git filter-branch"), testDir); rej == nil {
		t.Errorf("categorical refusal must not be allowlistable")
	}
	if rej := Check(split("git st"), testDir, nil); rej == nil || rej.Code != ruleUnknownSub.Code {
		t.Errorf("Check must refuse unknown subcommands, got %+v", rej)
	}
}

func TestRejectionFields(t *testing.T) {
	rej := Check([]string{"git", "log", "--oneline", "--output=/tmp/x"}, testDir, nil)
	if rej == nil || rej.Code != ruleOutput.Code || rej.Index != 3 || rej.Arg != "--output=/tmp/x" {
		t.Fatalf("got %+v", rej)
	}
	rej = Check([]string{"git", "grep", "-nOP", "x"}, testDir, nil)
	if rej == nil || rej.Index != 2 || !strings.Contains(rej.Message, "-nOP") {
		t.Fatalf("got %+v", rej)
	}
	rej = Check([]string{"git", "status", "a\x00b"}, testDir, nil)
	if rej == nil || rej.Code != ruleBadInput.Code {
		t.Fatalf("NUL byte: got %+v", rej)
	}
	rej = Check([]string{"git", "status", "\xff"}, testDir, nil)
	if rej == nil || rej.Code != ruleBadInput.Code {
		t.Fatalf("invalid UTF-8: got %+v", rej)
	}
}

func TestChildConfig(t *testing.T) {
	env := ChildConfig("", nil)
	got := map[string]string{}
	for _, e := range env {
		k, v, ok := strings.Cut(e, "=")
		if !ok {
			t.Fatalf("entry %q has no '='", e)
		}
		got[k] = v
	}
	if got["GIT_CONFIG_COUNT"] == "" || got["GIT_TERMINAL_PROMPT"] != "0" {
		t.Fatalf("missing entries: %v", env)
	}
	keys := map[string]string{}
	for k, v := range got {
		if n, ok := strings.CutPrefix(k, "GIT_CONFIG_KEY_"); ok {
			keys[v] = got["GIT_CONFIG_VALUE_"+n]
		}
	}
	for k, v := range map[string]string{"core.hooksPath": "/dev/null", "core.fsmonitor": "false",
		"protocol.ext.allow": "never"} {
		if keys[k] != v {
			t.Errorf("%s = %q, want %q", k, keys[k], v)
		}
	}
}
