//go:build darwin || linux

package childenv

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestInterpretersFollowRewrites: a program's interpreters and whether it
// is a script are what the file says now, however often it was read
// before and however it changed in between (rewritten in place, replaced
// by a rename, its symlink repointed).
func TestInterpretersFollowRewrites(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"sh", "python3", "env"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("binary"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	prog := filepath.Join(dir, "prog")
	link := filepath.Join(dir, "link")
	write := func(path, content string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	replace := func(path, content string) {
		t.Helper()
		tmp := path + ".new"
		write(tmp, content)
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
	}
	repoint := func(target string) {
		t.Helper()
		os.Remove(link)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	other := filepath.Join(dir, "other")
	write(other, "#!"+filepath.Join(bin, "python3")+"\n")
	tests := []struct {
		name   string
		change func()
		path   string
		want   []string
		script bool
	}{
		{"a script", func() { write(prog, "#!"+filepath.Join(bin, "sh")+"\necho\n") }, prog, []string{filepath.Join(bin, "sh")}, true},
		{"read again", func() {}, prog, []string{filepath.Join(bin, "sh")}, true},
		{"rewritten in place, same size", func() { write(prog, "#!"+filepath.Join(bin, "ab")+"\necho\n") }, prog, []string{filepath.Join(bin, "ab")}, true},
		{"rewritten through env", func() { write(prog, "#!"+filepath.Join(bin, "env")+" python3\n") }, prog, []string{filepath.Join(bin, "env"), filepath.Join(bin, "python3")}, true},
		{"replaced by a rename", func() { replace(prog, "plain data") }, prog, nil, false},
		{"a symlink", func() { repoint(prog) }, link, nil, false},
		{"the symlink repointed", func() { repoint(other) }, link, []string{filepath.Join(bin, "python3")}, true},
		{"removed", func() { os.Remove(other) }, link, nil, false},
	}
	for _, tt := range tests {
		tt.change()
		got := Interpreters(tt.path, bin)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: Interpreters(%s) = %q, want %q", tt.name, tt.path, got, tt.want)
		}
		if s := headOf(tt.path, nil).script; s != tt.script {
			t.Errorf("%s: script = %v, want %v", tt.name, s, tt.script)
		}
	}
}

// TestHeadsBounded: past maxHeads files the table starts over rather
// than grow.
func TestHeadsBounded(t *testing.T) {
	dir := t.TempDir()
	for i := range maxHeads + 10 {
		p := filepath.Join(dir, "f"+itoa(i))
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if !headOf(p, nil).script {
			t.Fatalf("%s: not a script", p)
		}
	}
	heads.mu.Lock()
	n := len(heads.m)
	heads.mu.Unlock()
	if n > maxHeads {
		t.Fatalf("%d files remembered, bound %d", n, maxHeads)
	}
}

func itoa(i int) string {
	return string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
}

// BenchmarkResolve is the per-call resolution of a program (sh, an ELF
// with a dynamic loader on most systems) with the file heads remembered
// (the server's case) and read every time (cold: the table emptied).
func BenchmarkResolve(b *testing.B) {
	for _, bc := range []struct {
		name string
		cold bool
	}{{"warm", false}, {"cold", true}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if bc.cold {
					heads.mu.Lock()
					heads.m = nil
					heads.mu.Unlock()
				}
				if _, err := Resolve("sh", DefaultPath, "/"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
