package git

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// The differential harness runs variants of every dangerous git option
// family, in every spelling git accepts, against the installed git inside a
// throw-away sandbox, and checks one implication: whenever git ran the
// canary program (or wrote outside the working directory, or changed the
// repository configuration), Check refused that argv. Git 2.39 is what CI
// installs; the rules follow 2.53, so a variant that 2.39 rejects as a
// usage error is simply not a counter-example.

// oracleVariant is one git invocation, with setup commands run first
// (their outcome is not judged).
type oracleVariant struct {
	setup [][]string
	args  []string // without the leading "git"
}

// Placeholders replaced per sandbox.
const (
	phCanary = "CANARY" // path of the canary script
	phOut    = "OUTDIR" // a directory outside the working directory
	phRoot   = "ROOTDIR"
)

func oracleVariants() []oracleVariant {
	var vs []oracleVariant
	add := func(spellings ...string) {
		for _, s := range spellings {
			vs = append(vs, oracleVariant{args: strings.Fields(s)})
		}
	}
	withSetup := func(setup []string, spellings ...string) {
		var st [][]string
		for _, s := range setup {
			st = append(st, strings.Fields(s))
		}
		for _, s := range spellings {
			vs = append(vs, oracleVariant{setup: st, args: strings.Fields(s)})
		}
	}
	// grep -O / --open-files-in-pager: attached, clustered, abbreviated,
	// after operands, as data.
	add("grep -OCANARY foo", "grep -nOCANARY foo", "grep -1OCANARY foo", "grep -iOCANARY foo",
		"grep -n1OCANARY foo", "grep --open-files-in-pager=CANARY foo", "grep --op=CANARY foo",
		"grep --open=CANARY foo", "grep --open-files=CANARY foo", "grep --o=CANARY foo",
		"grep -e foo -OCANARY", "grep foo -OCANARY", "grep -- -OCANARY", "grep -e -OCANARY",
		"grep -e foo --open-files-in-pager=CANARY", "grep -C1 -OCANARY foo",
		"grep -C -OCANARY foo", "grep --no-open-files-in-pager foo",
		"grep --end-of-options -OCANARY foo", "grep ( -e foo ) -OCANARY")
	// rebase -x / --exec.
	add("rebase -x CANARY HEAD~1", "rebase -xCANARY HEAD~1", "rebase -qxCANARY HEAD~1",
		"rebase -fx CANARY HEAD~1", "rebase --exec CANARY HEAD~1", "rebase --exec=CANARY HEAD~1",
		"rebase --exe=CANARY HEAD~1", "rebase --ex=CANARY HEAD~1", "rebase --e=CANARY HEAD~1",
		"rebase HEAD~1 --exec CANARY", "rebase HEAD~1 -x CANARY", "rebase HEAD~1 -xCANARY",
		"rebase -s ort -x CANARY HEAD~1", "rebase -i -x CANARY HEAD~1",
		"rebase --onto HEAD~1 -x CANARY HEAD~1", "rebase -x CANARY --no-exec HEAD~1",
		"rebase --no-exec -x CANARY HEAD~1", "rebase -sx HEAD~1", "rebase -X -x HEAD~1",
		"rebase -- -x CANARY", "rebase --root -x CANARY", "rebase --exec CANARY -i HEAD~1")
	// filter-branch and bisect run.
	add("filter-branch -f --tree-filter CANARY HEAD", "filter-branch -f --msg-filter CANARY HEAD")
	withSetup([]string{"bisect start HEAD HEAD~2"}, "bisect run CANARY", "bisect view gitk",
		"bisect visualize gitk")
	// Transport program selectors (local transport runs them).
	add("clone -u CANARY ../remote.git ../dst", "clone -uCANARY ../remote.git ../dst",
		"clone -qu CANARY ../remote.git ../dst", "clone --upload-pack=CANARY ../remote.git ../dst",
		"clone --upload-pack CANARY ../remote.git ../dst", "clone --upl=CANARY ../remote.git ../dst",
		"clone --u=CANARY ../remote.git ../dst", "clone --up=CANARY ../remote.git ../dst",
		"clone ../remote.git ../dst -u CANARY", "clone --no-local -u CANARY ../remote.git ../dst",
		"clone --template=ROOTDIR/tpl ../remote.git ../dst", "clone --templ=ROOTDIR/tpl ../remote.git ../dst",
		"clone -c core.hooksPath=ROOTDIR/hooks ../remote.git ../dst",
		"clone -ccore.hooksPath=ROOTDIR/hooks ../remote.git ../dst",
		"clone --config=core.hooksPath=ROOTDIR/hooks ../remote.git ../dst",
		"clone --con=core.hooksPath=ROOTDIR/hooks ../remote.git ../dst",
		"clone --co=core.hooksPath=ROOTDIR/hooks ../remote.git ../dst",
		"clone -b main -c core.hooksPath=ROOTDIR/hooks ../remote.git ../dst",
		"clone ../remote.git ../dst --config core.hooksPath=ROOTDIR/hooks")
	add("fetch --upload-pack=CANARY ../remote.git", "fetch --upload-pack CANARY ../remote.git",
		"fetch --upl=CANARY ../remote.git", "fetch --u=CANARY ../remote.git",
		"fetch ../remote.git --upload-pack=CANARY", "fetch -u ../remote.git",
		"pull --upload-pack=CANARY ../remote.git main", "pull --upl=CANARY ../remote.git main",
		"pull --ff-only --upload-pack CANARY ../remote.git main",
		"ls-remote --upload-pack=CANARY ../remote.git", "ls-remote --exec=CANARY ../remote.git",
		"ls-remote --u=CANARY ../remote.git", "ls-remote --e=CANARY ../remote.git",
		"ls-remote ../remote.git --upload-pack CANARY",
		"push --receive-pack=CANARY ../remote.git main", "push --exec=CANARY ../remote.git main",
		"push --rece=CANARY ../remote.git main", "push --re=CANARY ../remote.git main",
		"push --e=CANARY ../remote.git main", "push ../remote.git main --receive-pack=CANARY",
		"archive --remote=../remote.git --exec=CANARY HEAD",
		"archive --remote=../remote.git --exec CANARY HEAD",
		"archive --remote=../remote.git --e=CANARY HEAD",
		"send-pack --receive-pack=CANARY ../remote.git main",
		"fetch-pack --upload-pack=CANARY ../remote.git main")
	// Global options.
	add("-c alias.zz=!CANARY zz", "-calias.zz=!CANARY zz", "--config-env=alias.zz=ZZ_ALIAS zz",
		"--config-env alias.zz=ZZ_ALIAS zz", "--exec-path=ROOTDIR/execdir x", "-c core.pager=CANARY -p log",
		"-p log", "--paginate log", "-C . -c alias.zz=!CANARY zz", "--git-dir=.git -c alias.zz=!CANARY zz",
		"--no-pager -c alias.zz=!CANARY zz")
	// Help viewers (man, info and browsers are canaries on PATH).
	add("help log", "help -m log", "help -i log", "help -w log", "help --web log", "help --man log",
		"log --help", "branch --help config", "--help log", "-h log", "help config", "help -a",
		"help -g", "help")
	// Configuration writes (detected through .git/config) and the editor.
	add("config a.b c", "config --add a.b c", "config --ad a.b c", "config --replace-all a.b c",
		"config --rep a.b c", "config --unset user.name", "config --uns user.name",
		"config --unset-all user.name", "config --rename-section user u", "config --ren user u",
		"config --remove-section user", "config --rem user", "config -e", "config --edit",
		"config --ed", "config set a.b c", "config unset user.name", "config edit",
		"config --file .git/config a.b c", "config -f .git/config a.b c", "config --global a.b c",
		"config --get user.name", "config --list", "config -l", "config user.name",
		"config --get-all user.name", "config --get-regexp user", "config -l --show-origin")
	// diff tools.
	add("difftool -y -x CANARY HEAD~1 HEAD", "difftool -y --extcmd=CANARY HEAD~1 HEAD",
		"difftool -y --extc=CANARY HEAD~1 HEAD", "difftool -yxCANARY HEAD~1 HEAD",
		"difftool -y -t vimdiff HEAD~1 HEAD", "difftool -y --tool=vimdiff HEAD~1 HEAD",
		"difftool -y --to=vimdiff HEAD~1 HEAD", "difftool -yt vimdiff HEAD~1 HEAD")
	// Output files outside the working directory.
	add("log --output=OUTDIR/x", "log --output OUTDIR/x", "log -1 -p --output=OUTDIR/x",
		"log HEAD --output=OUTDIR/x", "log --outp=OUTDIR/x", "diff HEAD~1 --output=OUTDIR/x",
		"show --output=OUTDIR/x", "log --output=../outside-rel", "diff --output=sub/../../outside-rel2 HEAD~1",
		"format-patch -o OUTDIR HEAD~1", "format-patch -oOUTDIR HEAD~1",
		"format-patch --output-directory=OUTDIR HEAD~1", "format-patch --output-directory OUTDIR HEAD~1",
		"format-patch --output-dir=OUTDIR HEAD~1", "format-patch -ko OUTDIR HEAD~1",
		"format-patch --output=OUTDIR/p HEAD~1", "archive -o OUTDIR/a.tar HEAD",
		"archive --output=OUTDIR/a.tar HEAD", "archive -oOUTDIR/a.tar HEAD",
		"archive --out=OUTDIR/a.tar HEAD", "-C OUTDIR log --output=x",
		"log --output=inside.txt", "format-patch -o patches HEAD~1",
		"log --out --output=OUTDIR/x", "log --grep --output=OUTDIR/x", "log -n --output=OUTDIR/x",
		"log -S --output=OUTDIR/x", "diff -O --output=OUTDIR/x HEAD~1",
		"format-patch --output-directory -o OUTDIR HEAD~1", "format-patch -v -o OUTDIR HEAD~1",
		"format-patch -vo OUTDIR HEAD~1", "format-patch --stdout --output=OUTDIR/p HEAD~1")
	// Remote helpers: ext:: is disabled by default; these must be refused anyway.
	add("clone ext::CANARY ../dst", "fetch ext::CANARY", "ls-remote ext::CANARY")
	return vs
}

// oracleSandbox builds the template sandbox once: a repository with three
// commits, a bare remote, a hooks directory and a template directory whose
// post-checkout hook is the canary, an exec-path with git-x, and a bin
// directory where man, info, browsers, gitk and vimdiff are the canary.
func oracleSandbox(t *testing.T, gitPath string) string {
	t.Helper()
	root := t.TempDir()
	canary := "#!/bin/sh\necho \"$0 $*\" >> \"$CANARY_MARKER\"\nexit 0\n"
	mk := func(rel, content string, mode fs.FileMode) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	mk("canary.sh", canary, 0o755)
	mk("hooks/post-checkout", canary, 0o755)
	mk("tpl/hooks/post-checkout", canary, 0o755)
	mk("execdir/git-x", canary, 0o755)
	for _, n := range []string{"man", "info", "gitk", "vimdiff", "vim", "vi", "less", "more",
		"w3m", "lynx", "links", "firefox", "xdg-open", "sensible-browser", "www-browser",
		"x-www-browser", "elinks", "chromium", "google-chrome", "open", "pager", "editor"} {
		mk("bin/"+n, canary, 0o755)
	}
	mk("home/.keep", "", 0o644)
	mk("xdg/.keep", "", 0o644)
	run := func(dir string, args ...string) {
		cmd := exec.Command(gitPath, args...)
		cmd.Dir = dir
		cmd.Env = oracleEnv(root, "/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("setup git %v: %v\n%s", args, err, out)
		}
	}
	repo := filepath.Join(root, "repo")
	run(root, "init", "-q", "-b", "main", "repo")
	run(repo, "config", "user.email", "oracle@example.invalid")
	run(repo, "config", "user.name", "Oracle")
	for i := 1; i <= 3; i++ {
		mk(fmt.Sprintf("repo/f%d.txt", i), fmt.Sprintf("foo %d\n", i), 0o644)
		run(repo, "add", ".")
		run(repo, "commit", "-q", "-m", fmt.Sprintf("commit %d", i))
	}
	run(root, "clone", "-q", "--bare", "repo", "remote.git")
	return root
}

// oracleEnv is the environment of every oracle run: no system or user
// configuration outside the sandbox, no prompts, editors that accept the
// proposed text, canaries first on PATH.
func oracleEnv(root, marker string) []string {
	return []string{
		"PATH=" + filepath.Join(root, "bin") + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + filepath.Join(root, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_EDITOR=" + filepath.Join(root, "canary.sh"),
		"GIT_SEQUENCE_EDITOR=true",
		"FILTER_BRANCH_SQUELCH_WARNING=1",
		"ZZ_ALIAS=!" + filepath.Join(root, "canary.sh"),
		"CANARY_MARKER=" + marker,
		"LANG=C",
	}
}

// oracleOutcome is what one variant did.
type oracleOutcome struct {
	ran, wroteOutside, configChanged bool
}

func (o oracleOutcome) dangerous() bool { return o.ran || o.wroteOutside || o.configChanged }

func runOracleVariant(t *testing.T, gitPath, template string, v oracleVariant) (oracleOutcome, []string) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(template)); err != nil {
		t.Fatalf("copy sandbox: %v", err)
	}
	for _, p := range []string{"canary.sh", "hooks/post-checkout", "tpl/hooks/post-checkout", "execdir/git-x"} {
		os.Chmod(filepath.Join(root, p), 0o755)
	}
	filepath.WalkDir(filepath.Join(root, "bin"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	outDir := filepath.Join(root, "outside")
	os.MkdirAll(outDir, 0o755)
	marker := filepath.Join(root, "marker")
	repo := filepath.Join(root, "repo")
	subst := func(args []string) []string {
		out := make([]string, len(args))
		for i, a := range args {
			a = strings.ReplaceAll(a, phCanary, filepath.Join(root, "canary.sh"))
			a = strings.ReplaceAll(a, phOut, outDir)
			out[i] = strings.ReplaceAll(a, phRoot, root)
		}
		return out
	}
	exe := func(args []string) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, gitPath, args...)
		cmd.Dir = repo
		cmd.Env = oracleEnv(root, marker)
		cmd.Stdin = nil // /dev/null
		cmd.WaitDelay = time.Second
		cmd.Run() // the exit status is not judged
	}
	for _, s := range v.setup {
		exe(subst(s))
	}
	os.Remove(marker)
	cfgBefore, _ := os.ReadFile(filepath.Join(repo, ".git", "config"))
	args := subst(v.args)
	exe(args)
	var o oracleOutcome
	if _, err := os.Stat(marker); err == nil {
		o.ran = true
	}
	if ents, _ := os.ReadDir(outDir); len(ents) > 0 {
		o.wroteOutside = true
	}
	for _, rel := range []string{"outside-rel", "outside-rel2"} {
		if _, err := os.Stat(filepath.Join(root, rel)); err == nil {
			o.wroteOutside = true
		}
	}
	cfgAfter, _ := os.ReadFile(filepath.Join(repo, ".git", "config"))
	if !bytes.Equal(cfgBefore, cfgAfter) {
		o.configChanged = true
	}
	return o, args
}

// TestOracleDifferential runs oracleVariants (a fixed sample without
// testenv.Heavy) with the real git.
func TestOracleDifferential(t *testing.T) {
	t.Parallel()
	gitPath := realGit(t)
	ver, _ := exec.Command(gitPath, "--version").Output()
	t.Logf("oracle: %s", strings.TrimSpace(string(ver)))
	template := oracleSandbox(t, gitPath)
	variants := testenv.Sample(oracleVariants())

	type result struct {
		v    oracleVariant
		o    oracleOutcome
		args []string
	}
	results := make([]result, len(variants))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ { // bounded parallelism: the machine has 2 shared cores
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				o, args := runOracleVariant(t, gitPath, template, variants[i])
				results[i] = result{variants[i], o, args}
			}
		}()
	}
	for i := range variants {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	var dangerous, refused int
	for _, r := range results {
		argv := append([]string{"git"}, r.args...)
		rej := Check(argv, testDir, nil)
		if rej != nil {
			refused++
		}
		if os.Getenv("GIT_ORACLE_VERBOSE") != "" {
			t.Logf("danger=%-5v refused=%-5v git %s", r.o.dangerous(), rej != nil, strings.Join(r.v.args, " "))
		}
		if !r.o.dangerous() {
			continue
		}
		dangerous++
		if rej == nil {
			t.Errorf("git %s: git acted (ran=%v wroteOutside=%v configChanged=%v) but Check allowed it",
				strings.Join(r.v.args, " "), r.o.ran, r.o.wroteOutside, r.o.configChanged)
		}
	}
	t.Logf("%d variants refused by Check", refused)
	// Dangerous: git ran the canary, wrote outside or changed the configuration.
	testenv.Saw(t, "git options", len(results), dangerous, 20)
}
