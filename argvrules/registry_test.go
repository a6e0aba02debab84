package argvrules

import (
	"errors"
	"io/fs"
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

// TestDocsNameEveryFamily: the README's summary of what each program's
// rules refuse, or docs/rules.md where it exists, names every registered
// family as code (the first word of a code span, or one of a leading
// "a/b/c" list: `docker/podman/kubectl write commands`) or as a table
// cell. A word anywhere does not count: "zip" inside `rg --search-zip`
// names ripgrep's option, not the zip family.
func TestDocsNameEveryFamily(t *testing.T) {
	named := map[string]bool{}
	read := 0
	for _, doc := range []string{"README.md", filepath.Join("docs", "rules.md")} {
		b, err := os.ReadFile(filepath.Join("..", doc))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		read++
		for name := range docNames(string(b)) {
			named[name] = true
		}
	}
	if read == 0 {
		t.Fatal("neither README.md nor docs/rules.md found")
	}
	for _, name := range Names() {
		if !named[name] {
			t.Errorf("neither README.md nor docs/rules.md names the %s family as `%s ...` or in a table cell", name, name)
		}
	}
}

// codeSpan and tableCell find the places a document names a family.
var (
	codeSpan  = regexp.MustCompile("`([^`]+)`")
	tableCell = regexp.MustCompile(`(?m)^\|(.*)\|\s*$`)
)

// docNames returns the names a Markdown document gives as code or in
// table cells: the leading word of each code span, and each cell that is
// one word (backquotes removed), split at "/".
func docNames(doc string) map[string]bool {
	out := map[string]bool{}
	add := func(word string) {
		for w := range strings.SplitSeq(word, "/") {
			out[w] = true
		}
	}
	for _, m := range codeSpan.FindAllStringSubmatch(strings.ReplaceAll(doc, "\n", " "), -1) {
		lead, _, _ := strings.Cut(strings.TrimSpace(m[1]), " ")
		add(lead)
	}
	for _, m := range tableCell.FindAllStringSubmatch(doc, -1) {
		for cell := range strings.SplitSeq(m[1], "|") {
			if w := strings.Trim(strings.TrimSpace(cell), "`"); w != "" && !strings.ContainsAny(w, " \t") {
				add(w)
			}
		}
	}
	return out
}

func TestDocNames(t *testing.T) {
	got := docNames("Refused: `rg --search-zip`, `docker/podman/kubectl` writes, `npx`,\n`make\n--eval`.\n\n| family | rules |\n|---|---|\n| `zip` | -T |\n| file | -z |\n")
	for _, name := range []string{"rg", "docker", "podman", "kubectl", "npx", "make", "zip", "file"} {
		if !got[name] {
			t.Errorf("docNames misses %q: %v", name, got)
		}
	}
	for _, word := range []string{"search-zip", "--search-zip", "--eval", "writes", "Refused:"} {
		if got[word] {
			t.Errorf("docNames takes %q, which neither leads a code span nor fills a cell: %v", word, got)
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
