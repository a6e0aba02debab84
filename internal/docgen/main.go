// Command docgen writes the parts of the documentation that restate a
// table of the code, from that table, so the two cannot disagree:
//
//   - docs/configuration.md and deploy/example.env from package config's
//     table of variables (the one --help prints);
//   - docs/rules.md from the argvrules registry, every package's codes.go
//     and the policy's categorical refusal list;
//   - docs/audit.md from the records package audit writes and its closed
//     vocabularies (result.go, job.go);
//   - docs/sandbox.md's table of what each family gets, from the
//     registry's sandbox facts.
//
// A Markdown file is written by hand except for its regions between
// "<!-- docgen:begin NAME" and "<!-- docgen:end NAME -->", which docgen
// replaces; deploy/example.env is generated whole. Run it from anywhere in
// the module:
//
//	go run ./internal/docgen          rewrite the generated parts
//	go run ./internal/docgen -check   list what is stale, write nothing (exit 1)
//
// TestGeneratedDocsAreCurrent runs the check within go test ./..., so a
// change to a table that leaves its document behind fails CI.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// module is the module path docgen expects at the root it finds.
const module = "github.com/seed-b63acb1b/mcp-shell-server"

func main() {
	check := flag.Bool("check", false, "list the files whose generated parts are stale and exit 1; write nothing")
	flag.Parse()
	os.Exit(run(*check, os.Stdout, os.Stderr))
}

func run(check bool, stdout, stderr io.Writer) int {
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(stderr, "docgen:", err)
		return 2
	}
	files, err := generate(root)
	if err != nil {
		fmt.Fprintln(stderr, "docgen:", err)
		return 2
	}
	stale := 0
	for _, f := range files {
		if bytes.Equal(f.old, f.new) {
			continue
		}
		stale++
		if check {
			fmt.Fprintf(stdout, "%s is stale: run go run ./internal/docgen\n", f.path)
			continue
		}
		if err := os.WriteFile(filepath.Join(root, f.path), f.new, 0o644); err != nil {
			fmt.Fprintln(stderr, "docgen:", err)
			return 2
		}
		fmt.Fprintf(stdout, "wrote %s\n", f.path)
	}
	if check && stale > 0 {
		return 1
	}
	return 0
}

// moduleRoot finds the directory of the module's go.mod at or above the
// working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(b), "module "+module+"\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside module " + module)
		}
		dir = parent
	}
}

// file is one generated file: its path below the root, its content on
// disk and as generated.
type file struct {
	path     string
	old, new []byte
}

// regionFile is a hand-written Markdown file with generated regions.
type regionFile struct {
	path    string
	regions map[string]func(root string) (string, error)
}

// wholeFile is a file generated whole.
type wholeFile struct {
	path   string
	render func(root string) (string, error)
}

var regionFiles = []regionFile{
	{"docs/configuration.md", map[string]func(string) (string, error){"variables": configTable, "builtin-profile": builtinProfile}},
	{"docs/rules.md", map[string]func(string) (string, error){"request-codes": requestCodes, "kinds": kinds, "families": families, "refused-programs": refusedPrograms}},
	{"docs/audit.md", map[string]func(string) (string, error){"fields": auditFields, "vocabularies": auditVocabularies}},
	{"docs/sandbox.md", map[string]func(string) (string, error){"families": sandboxFamilies}},
}

var wholeFiles = []wholeFile{
	{"deploy/example.env", exampleEnv},
}

// generate returns every generated file, as it is and as it should be.
func generate(root string) ([]file, error) {
	var out []file
	for _, rf := range regionFiles {
		old, err := os.ReadFile(filepath.Join(root, rf.path))
		if err != nil {
			return nil, err
		}
		updated, err := fillRegions(root, rf, string(old))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rf.path, err)
		}
		out = append(out, file{rf.path, old, []byte(updated)})
	}
	for _, wf := range wholeFiles {
		old, err := os.ReadFile(filepath.Join(root, wf.path))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		s, err := wf.render(root)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", wf.path, err)
		}
		out = append(out, file{wf.path, old, []byte(s)})
	}
	return out, nil
}

const (
	beginMarker = "<!-- docgen:begin "
	endMarker   = "<!-- docgen:end "
)

// fillRegions replaces the content of every region of doc with what its
// generator makes. Every region rf declares must be present once, and
// doc may hold no other.
func fillRegions(root string, rf regionFile, doc string) (string, error) {
	var b strings.Builder
	seen := map[string]bool{}
	rest := doc
	for {
		i := strings.Index(rest, beginMarker)
		if i < 0 {
			break
		}
		name, _, _ := strings.Cut(rest[i+len(beginMarker):], " ")
		gen, ok := rf.regions[name]
		if !ok {
			return "", fmt.Errorf("unknown region %q", name)
		}
		if seen[name] {
			return "", fmt.Errorf("region %q twice", name)
		}
		seen[name] = true
		lineEnd := strings.IndexByte(rest[i:], '\n')
		end := strings.Index(rest[i:], endMarker+name+" -->")
		if lineEnd < 0 || end < 0 {
			return "", fmt.Errorf("region %q is not closed by %s%s -->", name, endMarker, name)
		}
		content, err := gen(root)
		if err != nil {
			return "", fmt.Errorf("region %q: %w", name, err)
		}
		b.WriteString(rest[:i+lineEnd+1])
		b.WriteString(strings.TrimRight(content, "\n"))
		b.WriteString("\n")
		rest = rest[i+end:]
	}
	b.WriteString(rest)
	for name := range rf.regions {
		if !seen[name] {
			return "", fmt.Errorf("region %q is missing: add %s%s -->...%s%s --> lines", name, beginMarker, name, endMarker, name)
		}
	}
	return b.String(), nil
}

// cell escapes s for a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// code is s as Markdown code, for a table cell.
func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + cell(s) + "`"
}
