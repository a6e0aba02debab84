package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Redacted replaces a secret.
const Redacted = "[REDACTED]"

// maxPlain is the longest client value, in bytes, recorded as is (a path,
// a URL, a sentence); a longer one keeps its head and a digest of the
// whole (Capped).
const maxPlain = 256

// maxName is the longest variable or option name recorded as is; names are
// never rewritten, but a "name" that long is data, not a name.
const maxName = 64

// markerWords are the secret markers, as whole words (lower case): the
// spec's SECRET, TOKEN, PASSWORD, PASSWD, API_KEY, ACCESS_KEY, PRIVATE_KEY,
// KEY, CREDENTIAL and AUTH, the reference's PASS, and the spellings the
// issue found in clear (pw, cookie, bearer, otp). A word is a run of
// letters or of digits; camelCase splits ("apiKey" is "api", "key"), so
// "compass", "monkey" and "author" contain no marker while "MY_PASS",
// "X-Auth-Token" and "apiKey" do.
var markerWords = map[string]bool{
	"secret": true, "secrets": true, "token": true, "tokens": true,
	"password": true, "passwords": true, "passwd": true, "pass": true, "passphrase": true, "pw": true,
	"key": true, "keys": true, "apikey": true, "accesskey": true, "privatekey": true,
	"credential": true, "credentials": true, "creds": true,
	"auth": true, "authorization": true, "oauth": true, "bearer": true,
	"cookie": true, "cookies": true, "otp": true,
}

// suffixMarkers make a word a marker when it ends with one of them:
// concatenated spellings such as "dbpassword", "tlspassword", "authtoken".
// Only long markers: "pass" would catch "compass".
var suffixMarkers = []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "credential", "credentials"}

// words calls f with each word of s, lower-cased, until f returns true:
// runs of letters (split again before an upper-case letter that follows a
// lower-case one, or that starts a capitalised word after capitals:
// "APIKey" is "api", "key") and runs of digits. ASCII names are split
// without allocating; others go through runes.
func words(s string, f func(w string) bool) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return wordsRunes(s, f)
		}
	}
	var buf [maxName]byte
	start := -1
	emit := func(end int) bool {
		if start < 0 {
			return false
		}
		w := s[start:end]
		start = -1
		if len(w) > len(buf) {
			return f(strings.ToLower(w))
		}
		b := buf[:len(w)]
		for k := range len(w) {
			c := w[k]
			if upper(c) {
				c += 'a' - 'A'
			}
			b[k] = c
		}
		return f(string(b))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter, dig := lower(c) || upper(c), digit(c)
		if !letter && !dig {
			if emit(i) {
				return true
			}
			continue
		}
		if start >= 0 {
			prev := s[i-1]
			prevLetter := lower(prev) || upper(prev)
			switch {
			case prevLetter != letter, upper(c) && lower(prev),
				upper(prev) && upper(c) && i+1 < len(s) && lower(s[i+1]):
				if emit(i) {
					return true
				}
			}
		}
		if start < 0 {
			start = i
		}
	}
	return emit(len(s))
}

// wordsRunes is words for non-ASCII names.
func wordsRunes(s string, f func(w string) bool) bool {
	rs := []rune(s)
	start := -1
	emit := func(i int) bool {
		if start < 0 {
			return false
		}
		w := strings.ToLower(string(rs[start:i]))
		start = -1
		return f(w)
	}
	for i, r := range rs {
		letter, dig := unicode.IsLetter(r), unicode.IsDigit(r)
		if !letter && !dig {
			if emit(i) {
				return true
			}
			continue
		}
		if start >= 0 {
			prev := rs[i-1]
			switch {
			case unicode.IsLetter(prev) != letter, unicode.IsUpper(r) && unicode.IsLower(prev),
				unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				if emit(i) {
					return true
				}
			}
		}
		if start < 0 {
			start = i
		}
	}
	return emit(len(rs))
}

// SecretLike reports whether s, a name (of an option, a variable, a
// header, a query parameter, a setting), contains a secret marker as a
// word. Values are never judged by their words.
func SecretLike(s string) bool {
	return words(s, func(w string) bool {
		if markerWords[w] {
			return true
		}
		for _, m := range suffixMarkers {
			if strings.HasSuffix(w, m) {
				return true
			}
		}
		return false
	})
}

// lastWord is the last word of a name, lower-cased ("" for none).
func lastWord(s string) (last string) {
	words(s, func(w string) bool { last = w; return false })
	return last
}

// firstWord is the first word of a name, lower-cased.
func firstWord(s string) (first string) {
	words(s, func(w string) bool { first = w; return true })
	return first
}

// digest is the short SHA-256 form of a value too long to record.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "[sha256:" + hex.EncodeToString(sum[:4]) + "]"
}

// Scalar redacts one client value without context: the value rules
// (values.go: URL credentials, secret-named assignments and headers,
// credential shapes), then the length cap (a longer value keeps its head
// and a digest of the whole).
func Scalar(s string) string {
	return Capped(valueRules(s), maxPlain)
}

// Arg redacts one argv element without context: an option word whose
// name is secret-like has its attached value redacted ("--token=V",
// unless V names a file), and everything is a Scalar.
func Arg(s string) string {
	if off, ok := genericAttached(s); ok {
		return Capped(s[:off]+Redacted, maxPlain)
	}
	return Scalar(s)
}

// Env redacts per-call environment entries: names are kept (a value that
// is not a plausible name is redacted as data); values are kept, as
// Scalars, only for names on the safe list (safeEnv), and are
// "[REDACTED]" for every other name.
func Env(env map[string]string) map[string]string {
	if len(env) == 0 {
		return nil
	}
	out := make(map[string]string, len(env))
	for k, v := range env {
		out[envName(k)] = EnvValue(k, v)
	}
	return out
}

// EnvValue redacts the value of the environment variable name.
func EnvValue(name, value string) string {
	if SafeEnv(name) {
		return Scalar(value)
	}
	return Redacted
}

// envName is a variable's name as recorded: kept, unless it is not a
// plausible name (then a Scalar) or is itself a credential (a token
// pasted as a name).
func envName(k string) string {
	if len(k) > maxName || !envNameOK(k) {
		return Capped(Scalar(k), maxName)
	}
	if maskShapes(k) != k {
		return Redacted
	}
	return k
}

func envNameOK(k string) bool {
	if k == "" || digit(k[0]) {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !alnum(k[i]) && k[i] != '_' {
			return false
		}
	}
	return true
}

// safeEnv are the variables whose values are recorded: locale, terminal
// and time settings that select formats, never credentials. Any other
// variable's value is "[REDACTED]".
var safeEnv = []string{"LANG", "LANGUAGE", "TZ", "TERM", "COLORTERM", "NO_COLOR", "CLICOLOR", "COLUMNS", "LINES", "TMPDIR", "PATH", "HOME", "PWD", "SHELL", "USER", "LOGNAME"}

// SafeEnv reports whether name's values are recorded (safeEnv, and every
// LC_ locale category).
func SafeEnv(name string) bool {
	return slices.Contains(safeEnv, name) || strings.HasPrefix(name, "LC_")
}

// Quote is a client value and its redacted form: wherever free text (a
// reason) quotes Value, Reason writes Redacted instead.
type Quote struct{ Value, Redacted string }

// Quotes pairs every argv element and env value with its redacted form,
// keeping only those that redaction changes.
func Quotes(argv []string, env map[string]string) []Quote {
	return quotesOf(argv, Argv(argv), env)
}

// quotesOf is Quotes with argv already redacted (as redArgv).
func quotesOf(argv, redArgv []string, env map[string]string) []Quote {
	var q []Quote
	for i, red := range redArgv {
		q = appendQuote(q, argv[i], red)
	}
	for k, v := range env {
		q = appendQuote(q, k, envName(k))
		q = appendQuote(q, v, EnvValue(k, v))
	}
	return q
}

func appendQuote(q []Quote, value, red string) []Quote {
	if value == "" || value == red {
		return q
	}
	return append(q, Quote{value, red})
}

// Reason redacts free text the server wrote (a refusal or error message)
// that may quote client values: each quoted value is replaced by its
// redacted form where it stands as a whole (not inside a longer word),
// longest first; credential shapes, "Bearer ..."/"Basic ..." credentials
// and URL userinfo are masked; the result is capped at maxReason bytes.
// The server's own words are never rewritten: "passed", "token" or "key"
// in a sentence stay. A message too large to search within the work
// budget is recorded as a digest.
func Reason(message string, quotes []Quote) string {
	out, ok := substitute(message, quotes)
	if !ok {
		return "reason not recorded (too long to redact): " + digest(message)
	}
	if len(out) > maskScan {
		// Only the start survives the cap: mask that much. Dropping the
		// cut-off last word keeps a credential that straddles the cut
		// from showing its first half (every masked form is one run of
		// non-space characters, or a scheme word and one such run).
		head := out[:maskScan]
		if sp := strings.LastIndexAny(head, " \t\r\n"); sp >= 0 {
			head = head[:sp+1]
		}
		out = head + "..." + digest(out)
	}
	return Capped(maskText(out), maxReason)
}

// maskScan is how much of a long reason is masked and kept before the cap:
// several times maxReason, so masking (which shortens credentials) cannot
// pull text from beyond it into the recorded part.
const maskScan = 8 * maxReason

// maskText masks, anywhere in s, what is a credential by its form alone:
// URL credentials, HTTP credentials, credential shapes.
func maskText(s string) string {
	return maskShapes(maskAuthSchemes(maskURLs(s), true))
}

// substituteBudget bounds the byte comparisons substitute makes: far
// beyond any real reason, small enough that a hostile request (thousands
// of similar argv elements quoted in a 16 MiB message) cannot hold the
// audit encoder for long.
const substituteBudget = 64 << 20

// substitute replaces the whole occurrences of the quotes in s in one
// pass: at each position where a quote may begin (not inside a word), the
// longest quote that matches there and ends at a word boundary is
// replaced. It reports false when the work budget ran out.
func substitute(s string, quotes []Quote) (string, bool) {
	// Index the quotes by their first (up to) four bytes, longest first.
	const keyLen = 4
	index := map[string][]Quote{}
	seen := map[string]bool{}
	for _, q := range quotes {
		if q.Value == "" || q.Value == q.Redacted || seen[q.Value] {
			continue
		}
		seen[q.Value] = true
		k := q.Value[:min(keyLen, len(q.Value))]
		index[k] = append(index[k], q)
	}
	if len(index) == 0 {
		return s, true
	}
	for _, qs := range index {
		slices.SortFunc(qs, func(a, b Quote) int { return len(b.Value) - len(a.Value) })
	}
	budget := substituteBudget
	var b strings.Builder
	last := 0
	prevWord := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		word := wordRune(r)
		if !(prevWord && word) { // a quote may begin here
			if q, ok := matchAt(s, i, prevWord, index, &budget); ok {
				b.WriteString(s[last:i])
				b.WriteString(q.Redacted)
				i += len(q.Value)
				last = i
				prevWord = wordRune(lastRune(q.Value))
				continue
			}
			if budget < 0 {
				return "", false
			}
		}
		prevWord = word
		i += size
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// matchAt returns the longest quote that occurs at s[i:] as a whole.
func matchAt(s string, i int, prevWord bool, index map[string][]Quote, budget *int) (Quote, bool) {
	for k := min(4, len(s)-i); k >= 1; k-- {
		for _, q := range index[s[i:i+k]] {
			if len(q.Value) < k || (k < 4 && len(q.Value) > k) {
				continue // indexed under a longer key
			}
			*budget -= len(q.Value)
			if *budget < 0 {
				return Quote{}, false
			}
			if !strings.HasPrefix(s[i:], q.Value) {
				continue
			}
			if prevWord && wordRune(rune(q.Value[0])) {
				continue
			}
			end := i + len(q.Value)
			if end < len(s) {
				after, _ := utf8.DecodeRuneInString(s[end:])
				if wordRune(after) && wordRune(lastRune(q.Value)) {
					continue
				}
			}
			return q, true
		}
	}
	return Quote{}, false
}

// maxReason caps a reason: a refusal sentence with its quoted argument
// fits; a message carrying a request's worth of data does not.
const maxReason = 1024

func wordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func lastRune(s string) rune { r, _ := utf8.DecodeLastRuneInString(s); return r }

// Capped returns s when it is at most n bytes, otherwise its first bytes
// (cut at a character boundary) followed by the digest and size of the
// whole: every string field of a record is bounded.
func Capped(s string, n int) string {
	if len(s) <= n {
		return s
	}
	tail := fmt.Sprintf("...%s %d bytes", digest(s), len(s))
	cut := max(n-len(tail), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + tail
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
