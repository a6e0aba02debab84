package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/codes"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
)

// catalogue is every declared code, with its meaning: the doc comment
// without its leading "code:" or "Identifier:".
func catalogue(root string) ([]codes.Entry, error) {
	all, err := codes.Catalogue(root)
	if err != nil {
		return nil, err
	}
	for i, e := range all {
		doc := strings.Join(strings.Fields(e.Doc), " ")
		for _, prefix := range []string{e.Code + ":", e.Name + ":"} {
			doc = strings.TrimSpace(strings.TrimPrefix(doc, prefix))
		}
		all[i].Doc = doc
		all[i].File, _ = filepath.Rel(root, e.File)
		all[i].File = filepath.ToSlash(all[i].File)
	}
	return all, nil
}

// codeTable writes a table of entries, sorted by code.
func codeTable(b *strings.Builder, entries []codes.Entry) {
	sort.Slice(entries, func(i, j int) bool { return entries[i].Code < entries[j].Code })
	b.WriteString("| code | refused |\n|---|---|\n")
	for _, e := range entries {
		fmt.Fprintf(b, "| %s | %s |\n", code(e.Code), cell(e.Doc))
	}
}

// requestCodes are the codes of the checks before and around the
// families' recognizers (policy, redirect, workdir, server), by file.
func requestCodes(root string) (string, error) {
	all, err := catalogue(root)
	if err != nil {
		return "", err
	}
	byFile := map[string][]codes.Entry{}
	var files []string
	for _, e := range all {
		if e.Kind || strings.HasPrefix(e.File, "argvrules/") {
			continue
		}
		if _, ok := byFile[e.File]; !ok {
			files = append(files, e.File)
		}
		byFile[e.File] = append(byFile[e.File], e)
	}
	sort.Strings(files)
	var b strings.Builder
	b.WriteString("| code | refused | declared in |\n|---|---|---|\n")
	for _, f := range files {
		entries := byFile[f]
		sort.Slice(entries, func(i, j int) bool { return entries[i].Code < entries[j].Code })
		for _, e := range entries {
			fmt.Fprintf(&b, "| %s | %s | [%s](../%s) |\n", code(e.Code), cell(e.Doc), f, f)
		}
	}
	return b.String(), nil
}

// kinds are the "<family>.<kind>" refusals any family may make.
func kinds(root string) (string, error) {
	all, err := catalogue(root)
	if err != nil {
		return "", err
	}
	var ks []codes.Entry
	for _, e := range all {
		if e.Kind {
			ks = append(ks, e)
		}
	}
	var b strings.Builder
	b.WriteString("| kind | refused |\n|---|---|\n")
	sort.Slice(ks, func(i, j int) bool { return ks[i].Code < ks[j].Code })
	for _, e := range ks {
		fmt.Fprintf(&b, "| %s | %s |\n", code("<family>."+e.Code), cell(e.Doc))
	}
	return b.String(), nil
}

// families is one section per registry row: the programs it covers, the
// source its grammar follows, and the codes of its own rules.
func families(root string) (string, error) {
	all, err := catalogue(root)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, f := range argvrules.Registry() {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "### %s\n\n", f.Name)
		progs := make([]string, len(f.Programs))
		for i, p := range f.Programs {
			progs[i] = code(p)
		}
		fmt.Fprintf(&b, "Programs: %s%s. Grammar: %s.\n\n", strings.Join(progs, ", "), alsoNote(f.Name), f.Source)
		var own []codes.Entry
		for _, e := range all {
			if !e.Kind && strings.HasPrefix(e.Code, f.Name+".") {
				own = append(own, e)
			}
		}
		if len(own) == 0 {
			b.WriteString("Refusals: the kinds above only.\n")
			continue
		}
		codeTable(&b, own)
	}
	return b.String(), nil
}

// alsoNote says which further names a family covers by shape (the
// registry's Also functions are code, so their shapes are named here;
// TestAlsoNotesMatchTheRegistry keeps the two in step).
func alsoNote(family string) string {
	if n, ok := alsoShapes[family]; ok {
		return ", and " + n
	}
	return ""
}

// alsoShapes are examples of the names the Also of a family covers.
var alsoShapes = map[string]string{
	"git": "`git-NAME` (git-upload-pack ...)",
	"go":  "go release wrappers (`go1.22.3`, `go1.23rc1`)",
	"pip": "`pip` with a Python version (`pip3.12`, `pip2`)",
	"cc":  "compiler drivers with a target triplet or a version (`gcc-12`, `x86_64-linux-gnu-g++-12`, `clang-18`)",
}

// refusedPrograms is the categorical refusal list, one row per group.
func refusedPrograms(string) (string, error) {
	var b strings.Builder
	b.WriteString("| category | programs | source |\n|---|---|---|\n")
	for _, g := range policy.RefusedGroups() {
		names := strings.Join(g.Names, ", ")
		category := g.Category
		if g.WindowsOnly {
			category += " (on Windows; elsewhere only with a Windows extension such as `.exe`)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", cell(category), cell(names), cell(g.Source))
	}
	return b.String(), nil
}
