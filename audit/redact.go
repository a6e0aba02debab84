package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode/utf8"
)

// markers are the secret markers; a string containing one, in any case, is
// secret-like.
var markers = []string{"SECRET", "TOKEN", "PASSWORD", "PASS", "PASSWD", "API_KEY", "ACCESS_KEY", "PRIVATE_KEY", "KEY", "CREDENTIAL", "AUTH"}

// urlPassword and bearerToken match a password in URL userinfo ("https://user:pw@host")
// and a bearer token; Scalar masks them and keeps the rest readable.
var (
	urlPassword = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://[^/@:\s]*:)[^/@\s]+(@)`)
	bearerToken = regexp.MustCompile(`((?i:bearer)\s+)\S+()`)
)

// maxPlain is the longest non-numeric value, in characters, recorded as is.
const maxPlain = 32

// SecretLike reports whether s contains a secret marker (case-insensitive).
func SecretLike(s string) bool {
	u := strings.ToUpper(s)
	for _, m := range markers {
		if strings.Contains(u, m) {
			return true
		}
	}
	return false
}

// Scalar redacts one value: "[REDACTED]" if secret-like, a short SHA-256
// digest "[sha256:xxxxxxxx]" if longer than 32 characters and not all
// digits, otherwise the value itself.
func Scalar(s string) string {
	if SecretLike(s) {
		return "[REDACTED]"
	}
	masked := urlPassword.ReplaceAllString(s, "$1***$2")
	if masked = bearerToken.ReplaceAllString(masked, "$1***$2"); masked != s {
		return masked
	}
	if utf8.RuneCountInString(s) > maxPlain && !allDigits(s) {
		sum := sha256.Sum256([]byte(s))
		return "[sha256:" + hex.EncodeToString(sum[:4]) + "]"
	}
	return s
}

// Arg redacts one argv element. "NAME=value" keeps NAME unless it is
// secret-like (then both sides become "[REDACTED]") and redacts value as a
// Scalar.
func Arg(s string) string {
	name, value, ok := strings.Cut(s, "=")
	if !ok {
		return Scalar(s)
	}
	if SecretLike(name) {
		return "[REDACTED]=[REDACTED]"
	}
	return name + "=" + Scalar(value)
}

// Argv redacts every element of argv into a new slice. An element that
// follows a secret-like option without an attached value ("--password
// VALUE", "--token VALUE") is that option's value and is redacted whole.
func Argv(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		if i > 0 && secretOption(argv[i-1]) {
			out[i] = "[REDACTED]"
			continue
		}
		out[i] = Arg(a)
	}
	return out
}

// secretOption reports an option word ("-x", "--name") that is
// secret-like and carries no attached "=value".
func secretOption(a string) bool {
	return strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && SecretLike(a)
}

// Text redacts free text such as an error message word by word, so that
// values quoted in it (schema errors quote the offending value) are
// redacted like arguments.
func Text(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = Arg(w)
	}
	return strings.Join(words, " ")
}

// Env redacts per-call environment overrides: a secret-like name hides
// both name and value; other values are redacted as Scalars.
func Env(env map[string]string) map[string]string {
	if len(env) == 0 {
		return nil
	}
	out := make(map[string]string, len(env))
	for k, v := range env {
		if SecretLike(k) {
			out["[REDACTED]"] = "[REDACTED]"
			continue
		}
		out[k] = Scalar(v)
	}
	return out
}

// Reason redacts a rejection or error message that may quote the
// offending argument arg: occurrences of arg are replaced by its redacted
// form, then every word is redacted like an argument (long quoted values
// become digests), so a secret in the request does not reach the log.
func Reason(message, arg string) string {
	if arg != "" {
		if red := Arg(arg); red != arg {
			message = strings.ReplaceAll(message, arg, red)
		}
	}
	return Text(message)
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
