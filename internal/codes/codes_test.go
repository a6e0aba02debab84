package codes

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCatalogues: every reason code of the module is declared once, in a
// codes.go, with a comment saying what it means; no code is spelled as a
// literal anywhere else.
func TestCatalogues(t *testing.T) {
	root := filepath.Join("..", "..")
	all, err := Catalogue(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 60 {
		t.Fatalf("only %d codes found: the catalogue parser lost some", len(all))
	}
	seen := map[string]string{}
	for _, e := range all {
		where := e.File + ":" + e.Name
		if e.Code == "" {
			t.Errorf("%s: empty code", where)
		}
		if len(e.Doc) < 10 {
			t.Errorf("%s (%s): no doc comment saying what the code means", where, e.Code)
		}
		key := e.Code
		if e.Kind {
			key = "kind " + key
		}
		if prev, dup := seen[key]; dup {
			t.Errorf("%s: code %q also declared at %s", where, e.Code, prev)
		}
		seen[key] = where
	}
	literal := regexp.MustCompile(`(refusal\.Code\("|Code: +")`)
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || filepath.Base(p) == "codes.go" || filepath.Base(p) == "doc.go" {
			return err
		}
		b, _ := os.ReadFile(p)
		for _, m := range literal.FindAllIndex(b, -1) {
			t.Errorf("%s: a code spelled outside codes.go near %q", p, b[m[0]:min(len(b), m[1]+30)])
		}
		return nil
	})
}
