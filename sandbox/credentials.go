package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
)

// A configDialect is the syntax of a credential-bearing configuration
// file, for sanitize.
type configDialect int

const (
	// dialectNpmrc is npm's ini: "key = value" lines, ";" and "#"
	// comments, "[section]" headers; keys may be quoted and end in "[]"
	// (npm 9–11 @npmcli/config, the ini package). pnpm and yarn 1 read
	// ~/.npmrc with the same syntax.
	dialectNpmrc configDialect = iota
	// dialectPip is Python's configparser (pip 23–24
	// pip/_internal/configuration.py): "key = value" or "key: value",
	// indented continuation lines, whole-line comments; pip treats "_"
	// and "-" in a name alike.
	dialectPip
	// dialectYarn covers yarn 1's .yarnrc ("key value" lines) and berry's
	// .yarnrc.yml (YAML: "key: value", nested by indentation); only
	// looked at to decide whether it holds a credential.
	dialectYarn
)

// credentialKeys are, per dialect, the settings that are credentials,
// lower case and with "_" for "-". npm: its config docs ("Auth related
// configuration": _auth, _authToken, _password, username, certfile,
// keyfile; the legacy password, cert and key; the one-time otp). pip:
// client-cert, a client certificate with its key (cert is a CA bundle,
// kept). yarn: npm's, and berry's npmAuthToken and npmAuthIdent.
var credentialKeys = map[configDialect]map[string]bool{
	dialectNpmrc: npmCredentials,
	dialectPip:   {"client_cert": true},
	dialectYarn:  union(npmCredentials, map[string]bool{"npmauthtoken": true, "npmauthident": true}),
}

var npmCredentials = map[string]bool{
	"_auth": true, "_authtoken": true, "_password": true, "username": true, "password": true,
	"certfile": true, "keyfile": true, "cert": true, "key": true, "otp": true,
}

func union(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, m := range []map[string]bool{a, b} {
		for k := range m {
			out[k] = true
		}
	}
	return out
}

// userinfo matches the user:password@ of a URL's authority.
var userinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\s"']*@`)

// sanitize returns the configuration b without its credentials: every
// credential key (credentialKeys, after any ":" scope, and every npm key
// scoped to a registry, "//host/path/:…") is dropped with its
// continuation lines, and the user:password of every URL in a value is
// removed; every other line is kept as it is, so the registry, scopes
// and the rest of the settings stay what the user configured.
func sanitize(d configDialect, b []byte) []byte {
	var out bytes.Buffer
	dropping := false
	for line := range bytes.Lines(b) {
		text := string(line)
		trimmed := strings.TrimSpace(text)
		if d == dialectPip && trimmed != "" && (text[0] == ' ' || text[0] == '\t') && !isComment(trimmed) {
			// A continuation line belongs to the key above it.
			if !dropping {
				out.WriteString(userinfo.ReplaceAllString(text, "$1"))
			}
			continue
		}
		dropping = false
		if trimmed == "" || isComment(trimmed) || strings.HasPrefix(trimmed, "[") {
			out.WriteString(text)
			continue
		}
		if isCredentialKey(d, configKey(d, trimmed)) {
			dropping = true
			continue
		}
		out.WriteString(userinfo.ReplaceAllString(text, "$1"))
	}
	return out.Bytes()
}

// holdsCredential reports whether sanitize would change b.
func holdsCredential(d configDialect, b []byte) bool {
	return !bytes.Equal(sanitize(d, b), b)
}

func isComment(trimmed string) bool {
	return trimmed[0] == ';' || trimmed[0] == '#'
}

// configKey returns the name a setting line sets.
func configKey(d configDialect, trimmed string) string {
	seps := "="
	switch d {
	case dialectPip:
		seps = "=:"
	case dialectYarn:
		seps = "=: \t"
	}
	key := trimmed
	if d != dialectPip && len(key) > 0 && (key[0] == '"' || key[0] == '\'') {
		// A quoted key runs to its closing quote.
		if end := strings.IndexByte(key[1:], key[0]); end >= 0 {
			return key[1 : end+1]
		}
	}
	if i := strings.IndexAny(key, seps); i >= 0 {
		if d == dialectYarn && key[i] == ':' && strings.HasPrefix(key, "//") {
			// "//host/:_authToken value": the scope's colon is no separator.
			if j := strings.IndexAny(key[i+1:], "= \t"); j >= 0 {
				i += 1 + j
			} else {
				i = len(key)
			}
		}
		key = key[:i]
	}
	return strings.Trim(strings.TrimSpace(key), `"'`)
}

// isCredentialKey reports whether key names a credential.
func isCredentialKey(d configDialect, key string) bool {
	key = strings.TrimSuffix(key, "[]")
	if d != dialectPip && strings.HasPrefix(key, "//") {
		return true // npm's registry-scoped settings are all its auth
	}
	if d != dialectPip {
		if i := strings.LastIndexByte(key, ':'); i >= 0 {
			key = key[i+1:]
		}
	}
	k := strings.ReplaceAll(strings.ToLower(key), "-", "_")
	return credentialKeys[d][k]
}

// A configCopy is how a family that is not granted its credential-bearing
// configuration still gets its settings: a copy without the credentials
// (sanitize) in the call's private directory, and the variable that
// points the program at it instead of the file beneath HOME.
type configCopy struct {
	// sources are beneath HOME, in the order the program reads them
	// (a later file's settings win).
	sources []string
	name    string // the copy's file name
	env     string
	dialect configDialect
}

// configCopies are keyed by the HomeConfig entry they replace. npm 9–11
// reads the user config from npm_config_userconfig (@npmcli/config
// definitions "userconfig"), and pnpm and yarn 1 read ~/.npmrc through
// the same variable; pip reads PIP_CONFIG_FILE instead of the user's
// files when it exists (pip/_internal/configuration.py
// _iter_config_files: legacy ~/.pip/pip.conf, then
// ~/.config/pip/pip.conf).
var configCopies = map[string]configCopy{
	".npmrc":      {sources: []string{".npmrc"}, name: "npmrc", env: "npm_config_userconfig", dialect: dialectNpmrc},
	".pip":        pipCopy,
	".config/pip": pipCopy,
}

var pipCopy = configCopy{sources: []string{".pip/pip.conf", ".config/pip/pip.conf"}, name: "pip.conf", env: "PIP_CONFIG_FILE", dialect: dialectPip}

// grantedIfClean are the credential-bearing entries no variable can
// replace (yarn 1 and berry look for their rc by name; pnpm's rc lives
// in its config directory): granted as they are when the file holds no
// credential, withheld otherwise.
var grantedIfClean = map[string]struct {
	file    string
	dialect configDialect
}{
	".yarnrc":      {".yarnrc", dialectYarn},
	".yarnrc.yml":  {".yarnrc.yml", dialectYarn},
	".config/pnpm": {".config/pnpm/rc", dialectNpmrc},
}

// copiesDir holds the copies beneath the call's private directory.
const copiesDir = ".config-copies"

// maxConfigBytes bounds the configuration read for a copy: rc files are
// a few lines; a larger one is cut there.
const maxConfigBytes = 1 << 20

// CredentialFamilies are the families Config.Credentials may name: those
// reading a credential-bearing configuration beneath HOME.
func CredentialFamilies() []string {
	var out []string
	for _, fam := range argvrules.All() {
		if slices.ContainsFunc(fam.HomeConfig, func(rel string) bool { return credentialConfig[rel] }) {
			out = append(out, fam.Name)
		}
	}
	return out
}

// credentialsGranted reports whether fam's stages read the user's real
// credential-bearing configuration.
func (r *Rules) credentialsGranted(fam *argvrules.Family) bool {
	return fam != nil && (slices.Contains(r.cfg.Credentials, CredentialsAll) || slices.Contains(r.cfg.Credentials, fam.Name))
}

// withheldConfig returns the entries of fam's HomeConfig beneath home
// that the stage may still read as they are (grantedIfClean without a
// credential), and the environment entries pointing the program at the
// copies it writes into dir (configCopies) for the others. With dir ""
// or a variable env already names (the operator's own), no copy.
func withheldConfig(fam *argvrules.Family, home, dir string, env []string) (reads, add []string) {
	done := map[string]bool{}
	for _, rel := range fam.HomeConfig {
		if g, ok := grantedIfClean[rel]; ok {
			if b, err := readConfig(filepath.Join(home, g.file)); errors.Is(err, fs.ErrNotExist) || err == nil && !holdsCredential(g.dialect, b) {
				reads = append(reads, filepath.Join(home, rel))
			}
			continue
		}
		cp, ok := configCopies[rel]
		if _, named := childenv.Lookup(env, cp.env); !ok || named || dir == "" || done[cp.env] {
			continue
		}
		done[cp.env] = true
		if path, ok := writeCopy(cp, home, dir); ok {
			add = append(add, cp.env+"="+path)
		}
	}
	return reads, add
}

// writeCopy writes cp's sanitized sources into dir (mode 0600) and
// returns its path; none when no source exists or the copy cannot be
// written (the program then reads no user configuration).
func writeCopy(cp configCopy, home, dir string) (string, bool) {
	var merged []byte
	found := false
	for _, rel := range cp.sources {
		b, err := readConfig(filepath.Join(home, rel))
		if err != nil {
			continue
		}
		found = true
		merged = mergeConfig(cp.dialect, merged, sanitize(cp.dialect, b))
	}
	if !found {
		return "", false
	}
	sub := filepath.Join(dir, copiesDir)
	if err := os.Mkdir(sub, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", false
	}
	path := filepath.Join(sub, cp.name)
	if err := os.WriteFile(path, merged, 0o600); err != nil {
		return "", false
	}
	return path, true
}

func readConfig(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fs.ErrInvalid
	}
	return io.ReadAll(io.LimitReader(f, maxConfigBytes))
}

// mergeConfig appends b's settings to a's. An npmrc is one file; pip's
// two files become one configparser file whose sections must not repeat
// (strict parsing refuses duplicates), so b's sections follow under a
// fresh header only where a lacks them, and a key b sets again replaces
// a's.
func mergeConfig(d configDialect, a, b []byte) []byte {
	if len(a) == 0 || d != dialectPip {
		return append(a, b...)
	}
	sa, sb := pipSections(a), pipSections(b)
	for _, name := range sb.order {
		for _, k := range sb.keys[name] {
			sa.set(name, k, sb.lines[name][k])
		}
	}
	return sa.bytes()
}

// pipConfig is a configparser file as sections of keyed line groups (a
// key's line and its continuations; comments travel with the next key).
type pipConfig struct {
	order []string
	keys  map[string][]string
	lines map[string]map[string]string
}

func pipSections(b []byte) *pipConfig {
	c := &pipConfig{keys: map[string][]string{}, lines: map[string]map[string]string{}}
	section, key, pending := "", "", ""
	for line := range bytes.Lines(b) {
		text := string(line)
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		trimmed := strings.TrimSpace(text)
		switch {
		case trimmed == "" || isComment(trimmed):
			pending += text
		case text[0] == ' ' || text[0] == '\t':
			if key != "" {
				c.lines[section][key] += pending + text
				pending = ""
			}
		case strings.HasPrefix(trimmed, "["):
			section, key = strings.ToLower(strings.Trim(trimmed, "[] \t")), ""
			c.section(section)
		default:
			key = strings.ReplaceAll(strings.ToLower(configKey(dialectPip, trimmed)), "_", "-")
			c.set(section, key, pending+text)
			pending = ""
		}
	}
	return c
}

func (c *pipConfig) section(name string) {
	if _, ok := c.lines[name]; !ok {
		c.order = append(c.order, name)
		c.lines[name] = map[string]string{}
	}
}

func (c *pipConfig) set(section, key, text string) {
	c.section(section)
	if _, ok := c.lines[section][key]; !ok {
		c.keys[section] = append(c.keys[section], key)
	}
	c.lines[section][key] = text
}

func (c *pipConfig) bytes() []byte {
	var out bytes.Buffer
	for _, name := range c.order {
		if name != "" {
			fmt.Fprintf(&out, "[%s]\n", name)
		}
		for _, k := range c.keys[name] {
			out.WriteString(c.lines[name][k])
		}
	}
	return out.Bytes()
}
