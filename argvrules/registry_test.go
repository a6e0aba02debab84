package argvrules

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/codes"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// recOf is the recognizer of the family named name.
func recOf(name string) Recognizer {
	if f := familyNamed(name); f != nil {
		return f.Recognize
	}
	return nil
}

// famName is FamilyOf(base)'s name, or "".
func famName(base string) string {
	if f := FamilyOf(base); f != nil {
		return f.Name
	}
	return ""
}

func TestFamilyOf(t *testing.T) {
	for base, want := range map[string]string{
		"find": "find", "gfind": "find", "bfind": "find", "awk": "awk", "gawk": "awk",
		"mawk": "awk", "nawk": "awk", "sort": "sort", "gsort": "sort", "tar": "tar",
		"gtar": "tar", "bsdtar": "tar", "git": "git", "git-upload-pack": "git", "Tar": "",
		"rg": "rg", "gmake": "make", "pip3": "pip", "pip3.12": "pip", "pip2": "pip",
		"pipx": "", "yarnpkg": "yarn", "pnpx": "npx", "ripgrep": "", "Make": "", "grep": "",
		"": "", "pip.": "pip", "go1.22.3": "go", "go1.23rc1": "go", "gofmt": "", "go1": "go", "goimports": "",
	} {
		if got := famName(base); got != want {
			t.Errorf("FamilyOf(%q) = %q, want %q", base, got, want)
		}
	}
}

// TestRegistryRows: every row is complete, names are unique and name no
// program twice (the registry's init panics on the latter).
func TestRegistryRows(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range registry {
		if f.Name == "" || len(f.Programs) == 0 || f.Recognize == nil || f.Source == "" {
			t.Errorf("incomplete row %+v", f)
		}
		if seen[f.Name] {
			t.Errorf("family %q registered twice", f.Name)
		}
		seen[f.Name] = true
		for _, p := range f.Programs {
			if FamilyOf(p) != familyNamed(f.Name) {
				t.Errorf("FamilyOf(%q) is not %s", p, f.Name)
			}
		}
	}
}

func TestRecognizersTolerateEmptyArgv(t *testing.T) {
	for _, f := range registry {
		name := f.Programs[0]
		for _, argv := range [][]string{nil, {}, {""}, {name}, {name, ""}, {name, "-"}, {name, "--"}} {
			_ = f.Recognize(argv, Context{})
		}
		if r := f.Recognize(nil, Context{}); r != nil && (r.Code == "" || r.Message == "") {
			t.Errorf("%s(nil) = malformed %+v", f.Name, r)
		}
	}
}

func TestCheckJudgesPathArgv0(t *testing.T) {
	if r := Check([]string{"/usr/bin/gtar", "-I", "sh"}, Context{}); r == nil || !strings.Contains(r.Message, "-I") {
		t.Errorf("path argv[0] not handled: %+v", r)
	}
	if r := Check([]string{"/usr/bin/true", "--exec"}, Context{}); r != nil {
		t.Errorf("a program of no family was judged: %+v", r)
	}
}

// TestRulesDocNamesEveryFamily: docs/rules.md, where a user reads what
// each program's rules refuse, has a section for every registered family
// (internal/docgen writes them; this test names the family that is
// missing, for a contributor who ran only this package's tests).
func TestRulesDocNamesEveryFamily(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range Names() {
		if !regexp.MustCompile(`(?m)^### ` + regexp.QuoteMeta(name) + `$`).Match(b) {
			t.Errorf("docs/rules.md has no section for the %s family: run go run ./internal/docgen", name)
		}
	}
}

// declared is every code and kind the catalogues declare (codes.go files).
var declared = sync.OnceValue(func() map[string]bool {
	all, err := codes.Catalogue("..")
	if err != nil {
		panic(err)
	}
	m := map[string]bool{}
	for _, e := range all {
		if e.Kind {
			m["kind "+e.Code] = true
		} else {
			m[e.Code] = true
		}
	}
	return m
})

// checkDeclared fails t when code is neither a declared code nor
// "<registered family>.<declared kind>": the audit log's rule values are
// exactly the catalogue's.
func checkDeclared(t testing.TB, code refusal.Code) {
	t.Helper()
	c := string(code)
	if declared()[c] {
		return
	}
	if fam, kind, ok := strings.Cut(c, "."); ok && familyNamed(fam) != nil && declared()["kind "+kind] {
		return
	}
	t.Errorf("reason code %q is in no codes.go", c)
}
