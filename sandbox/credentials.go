package sandbox

import (
	"bytes"
	"regexp"
	"strings"
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
