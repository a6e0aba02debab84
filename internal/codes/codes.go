// Package codes reads the reason-code catalogues (every package's codes.go)
// for tests: which codes exist, whether each is documented, and where
// codes are spelled outside a catalogue. It is test support and is never
// linked into the server.
package codes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Entry is one declared code.
type Entry struct {
	Code string // e.g. "tar.exec-option" or, for kinds, "exec-option"
	Name string // the Go identifier
	File string
	Doc  string // the comment above the declaration
	Kind bool   // a "<family>.<kind>" kind, not a full code
}

// Catalogue parses every codes.go below root (the module directory).
func Catalogue(root string) ([]Entry, error) {
	var out []Entry
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.Name() != "codes.go" {
			return nil
		}
		es, err := parseFile(p)
		out = append(out, es...)
		return err
	})
	return out, err
}

func parseFile(path string) ([]Entry, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || (g.Tok != token.CONST && g.Tok != token.VAR) {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if i >= len(vs.Values) {
					continue
				}
				if e, ok := entry(vs, vs.Values[i], name.Name); ok {
					e.File = path
					out = append(out, e)
				}
			}
		}
	}
	return out, nil
}

// entry recognises `Name refusal.Code = "x"`, `kindX = "x"` and
// `ruleX = refusal.Rule{Code: "x", ...}`.
func entry(vs *ast.ValueSpec, v ast.Expr, name string) (Entry, bool) {
	e := Entry{Name: name, Doc: strings.TrimSpace(vs.Doc.Text())}
	switch v := v.(type) {
	case *ast.BasicLit:
		if v.Kind != token.STRING {
			return e, false
		}
		e.Code, _ = strconv.Unquote(v.Value)
		e.Kind = strings.HasPrefix(name, "kind")
		return e, e.Kind || isCodeType(vs.Type)
	case *ast.CompositeLit:
		for _, el := range v.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Code" {
				if lit, ok := kv.Value.(*ast.BasicLit); ok {
					e.Code, _ = strconv.Unquote(lit.Value)
					return e, true
				}
			}
		}
	}
	return e, false
}

func isCodeType(t ast.Expr) bool {
	sel, ok := t.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Code"
}
