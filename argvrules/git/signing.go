package git

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/internal/fsview"
)

// signingKeys name the files git's signing reads (git-config(1):
// user.signingKey is a key id, or with gpg.format=ssh the path of a public
// or private key, "key::" a literal key; gpg.ssh.allowedSignersFile and
// gpg.ssh.revocationFile are read by verify-commit and log
// --show-signature).
var signingKeys = []string{"user.signingkey", "gpg.ssh.allowedsignersfile", "gpg.ssh.revocationfile"}

// SigningFiles returns the files the user's own global git configuration
// (~/.gitconfig and ~/.config/git/config beneath home) names for signing:
// the signing key file when it is a public key, and the allowed-signers
// and revocation files. A private key is never among them: the sandbox
// grants reads to the whole git stage, and every git subcommand can print
// a file it may read (git diff --no-index, commit -F), so signing with a
// key that is not in ssh-agent or gpg-agent fails in the sandbox rather
// than exposing the key (ssh-keygen -Y sign -f KEY.pub asks the agent). Only the operator's files
// count, never a repository's .git/config, which a call can write. Include
// directives are not followed. Missing files are returned too (the
// sandbox skips them). The answer is cached per file state.
func SigningFiles(home string) []string {
	if home == "" || !filepath.IsAbs(home) {
		return nil
	}
	files := []string{filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config")}
	key := home
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			key += fmt.Sprintf("\x00%s %d %d", f, fi.ModTime().UnixNano(), fi.Size())
		}
	}
	if v, ok := signingCache.Load(key); ok {
		return v.([]string)
	}
	var out []string
	for _, f := range files {
		for _, v := range configValues(f, signingKeys) {
			out = append(out, signingPaths(v, home)...)
		}
	}
	signingCache.Store(key, out)
	return out
}

var signingCache sync.Map // cache key → []string

// signingPaths are the files one configured value names.
func signingPaths(v, home string) []string {
	switch {
	case strings.HasPrefix(v, "key::"), v == "":
		return nil
	case strings.HasPrefix(v, "~/"):
		v = filepath.Join(home, v[2:])
	case !filepath.IsAbs(v):
		return nil // a key id, or a path relative to wherever git runs
	}
	v = filepath.Clean(v)
	if privateKey(v) {
		return nil
	}
	return []string{v}
}

// privateKey reports whether file holds a private key (OpenSSH and PEM
// armour: "-----BEGIN ... PRIVATE KEY-----"), or cannot be read to tell.
// A missing file is no key: the sandbox skips it.
func privateKey(file string) bool {
	f, err := fsview.OpenPath(file)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		return true
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte("PRIVATE KEY"))
}

// configValues reads the values of keys ("section.name" or
// "section.subsection.name", lower case but for the subsection) from one
// git configuration file: enough of git-config(1) CONFIGURATION FILE
// syntax for plain assignments ([section "sub"], name = value, quotes,
// comments). A missing or unreadable file has none.
func configValues(file string, keys []string) []string {
	f, err := fsview.OpenPath(file)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			section = sectionName(line[1:end])
			line = strings.TrimSpace(line[end+1:])
			if line == "" {
				continue
			}
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		full := section + "." + strings.ToLower(strings.TrimSpace(name))
		for _, k := range keys {
			if full == k {
				out = append(out, configValue(value))
			}
		}
	}
	return out
}

// sectionName is "section" or "section.subsection" of a header's inside
// (`gpg "ssh"`, or the deprecated `gpg.ssh`).
func sectionName(h string) string {
	name, sub, ok := strings.Cut(h, " ")
	if !ok {
		return strings.ToLower(strings.TrimSpace(h))
	}
	return strings.ToLower(name) + "." + strings.Trim(strings.TrimSpace(sub), `"`)
}

// configValue unquotes a value and drops a trailing comment.
func configValue(v string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(v):
			i++
			b.WriteByte(v[i])
		case !quoted && (c == '#' || c == ';'):
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}
