package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Redacted replaces a secret.
const Redacted = "[REDACTED]"

// maxPlain is the longest client value, in characters, recorded as is
// (the reference server's rule); a longer one that is not all digits
// becomes a digest.
const maxPlain = 32

// maxURL is the longest URL recorded readable once its credentials are
// masked: long enough for a repository or API address, short enough that a
// URL cannot carry a record's worth of data.
const maxURL = 256

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

// tokenShapes are credentials recognisable by their shape alone, redacted
// wherever they occur (values and free text): GitHub, GitLab, Slack,
// OpenAI-style and AWS access keys, JSON Web Tokens, PEM private keys.
var tokenShapes = regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,}|glpat-[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{8,}|sk-[A-Za-z0-9_-]{20,}|A[KS]IA[0-9A-Z]{16}|eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*)|-----BEGIN [A-Z ]*PRIVATE KEY-----`)

// authScheme is an HTTP credential in free text ("Bearer abc.d3f",
// "Basic dXNlcjpwdw=="): the scheme word followed by at least eight
// credential characters; maskAuth also wants a digit or a symbol among
// them, so the server's own "bearer token" or "basic authentication" stay.
var authScheme = regexp.MustCompile(`(?i)\b(bearer|basic)(\s+)([A-Za-z0-9._~+/=-]{8,})`)

// urlAuthority is a URL's scheme and authority in free text; maskURLs
// rewrites the userinfo inside it.
var urlAuthority = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s/?#"'<>]*`)

// slashPassword is "scheme://user:pass@" whose password holds a "/", which
// ends the authority for urlAuthority; tools such as curl still read it as
// a password.
var slashPassword = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^\s/@:]*:[^\s@]*@`)

// words splits s into its words: runs of letters (split again before an
// upper-case letter that follows a lower-case one, or that starts a
// capitalised word after capitals: "APIKey" is "API", "Key") and runs of
// digits.
func words(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	flush := func(i int) {
		if start >= 0 {
			out = append(out, string(rs[start:i]))
		}
		start = -1
	}
	for i, r := range rs {
		letter, digit := unicode.IsLetter(r), unicode.IsDigit(r)
		if !letter && !digit {
			flush(i)
			continue
		}
		if start >= 0 {
			prev := rs[i-1]
			switch {
			case unicode.IsLetter(prev) != letter: // letters to digits or back
				flush(i)
			case unicode.IsUpper(r) && unicode.IsLower(prev): // camelCase
				flush(i)
			case unicode.IsUpper(prev) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]): // APIKey
				flush(i)
			}
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(rs))
	return out
}

// SecretLike reports whether s contains a secret marker as a word.
func SecretLike(s string) bool {
	for _, w := range words(s) {
		w = strings.ToLower(w)
		if markerWords[w] {
			return true
		}
		for _, m := range suffixMarkers {
			if strings.HasSuffix(w, m) {
				return true
			}
		}
	}
	return false
}

// digest is the short SHA-256 form of a value too long to record.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "[sha256:" + hex.EncodeToString(sum[:4]) + "]"
}

// Scalar redacts one client value without context: a URL keeps its
// readable parts with userinfo and secret query values masked; a value
// with a secret marker or a credential shape becomes "[REDACTED]"; a value
// longer than 32 characters that is not all digits becomes a digest;
// anything else is kept.
func Scalar(s string) string {
	if isURL(s) {
		m := tokenShapes.ReplaceAllString(maskURL(s), Redacted)
		if utf8.RuneCountInString(m) > maxURL {
			return digest(s)
		}
		return m
	}
	if SecretLike(s) || tokenShapes.MatchString(s) {
		return Redacted
	}
	if m := maskText(s); m != s {
		return Scalar(m)
	}
	if utf8.RuneCountInString(s) > maxPlain && !allDigits(s) {
		return digest(s)
	}
	return s
}

// isURL reports a value that is one URL: scheme "://" authority, no
// white space.
func isURL(s string) bool {
	loc := urlAuthority.FindStringIndex(s)
	return loc != nil && loc[0] == 0 && !strings.ContainsAny(s, " \t\r\n")
}

// maskURL masks a URL's userinfo (user, password, or a token given as the
// user) and the values of query parameters whose names are secret-like.
func maskURL(s string) string {
	s = maskURLs(s)
	q := strings.IndexByte(s, '?')
	if q < 0 {
		return s
	}
	query, frag, _ := strings.Cut(s[q+1:], "#")
	parts := strings.Split(query, "&")
	for i, p := range parts {
		name, _, ok := strings.Cut(p, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if ok && SecretLike(name) {
			parts[i] = p[:strings.IndexByte(p, '=')+1] + Redacted
		}
	}
	out := s[:q+1] + strings.Join(parts, "&")
	if frag != "" || strings.HasSuffix(s, "#") {
		out += "#" + frag
	}
	return out
}

// maskURLs replaces the userinfo of every URL in s with "[REDACTED]". The
// userinfo runs to the last "@" of the authority, so a password that
// contains "@" is masked whole.
func maskURLs(s string) string {
	s = urlAuthority.ReplaceAllStringFunc(s, func(u string) string {
		at := strings.LastIndexByte(u, '@')
		if at < 0 {
			return u
		}
		scheme := strings.Index(u, "://") + 3
		return u[:scheme] + Redacted + u[at:]
	})
	return slashPassword.ReplaceAllString(s, "${1}"+Redacted+"@")
}

// optionWord matches an option without a value ("-v", "--password",
// "-storepass"): its name is not a secret and is recorded as is.
var optionWord = regexp.MustCompile(`^--?[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// assignName matches the name side of "NAME=value" and "--opt=value".
var assignName = regexp.MustCompile(`^-{0,2}[A-Za-z0-9_][A-Za-z0-9_.-]*$`)

// Arg redacts one argv element without context: "--opt=value" and
// "NAME=value" keep the name and redact the value ("[REDACTED]" when the
// name is secret-like, else by Scalar); an option word is kept; anything
// else is a Scalar.
func Arg(s string) string {
	if name, value, ok := strings.Cut(s, "="); ok && len(name) <= maxName && assignName.MatchString(name) && !isURL(s) {
		if SecretLike(strings.TrimLeft(name, "-")) {
			return name + "=" + Redacted
		}
		return name + "=" + Scalar(value)
	}
	if len(s) <= maxName && optionWord.MatchString(s) && !tokenShapes.MatchString(s) {
		return s
	}
	return Scalar(s)
}

// Argv redacts a request argv into a new slice. Beyond Arg, it knows where
// a value follows its option: the element after a secret-like option
// ("--password VALUE", "-token VALUE"), after an option the program uses
// for credentials ("curl -u", "mysql -p", "smbclient -U", ...;
// secretopts.go), and the rest of a short-option cluster that holds such
// an option ("-pVALUE", "-vu VALUE") are "[REDACTED]". Every stage's
// program counts ("a | curl -u x"), and so does every program of the
// argv, so an element that is data ("|" in execute_command) cannot hide a
// credential option.
func Argv(argv []string) []string {
	if argv == nil {
		return nil
	}
	progs := programs(argv)
	out := make([]string, len(argv))
	for i, a := range argv {
		switch {
		case i > 0 && progs.valueFollows(argv[i-1]):
			out[i] = Redacted
		default:
			if red, ok := progs.attached(a); ok {
				out[i] = red
			} else {
				out[i] = Arg(a)
			}
		}
	}
	return out
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

var envNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func envName(k string) string {
	if len(k) <= maxName && envNameRE.MatchString(k) {
		return k
	}
	return Scalar(k)
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
// token shapes, HTTP credentials, URL userinfo.
func maskText(s string) string {
	s = tokenShapes.ReplaceAllString(s, Redacted)
	s = authScheme.ReplaceAllStringFunc(s, func(m string) string {
		sub := authScheme.FindStringSubmatch(m)
		if !strings.ContainsAny(sub[3], "0123456789._~+/=-") {
			return m
		}
		return sub[1] + sub[2] + Redacted
	})
	return maskURLs(s)
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

// programs is the set of programs an argv runs or may run: the basename of
// argv[0] and of every element that follows a "|".
type programSet []string

func programs(argv []string) programSet {
	var p programSet
	for i, a := range argv {
		if i == 0 || argv[i-1] == "|" {
			p = append(p, path.Base(a))
		}
	}
	return p
}

// valueFollows reports whether the element after opt is a secret value:
// opt is a secret-like long option without "=", one of the programs'
// credential options, or a short cluster ending in a credential letter.
func (p programSet) valueFollows(opt string) bool {
	if !strings.HasPrefix(opt, "-") || strings.Contains(opt, "=") || opt == "-" || opt == "--" {
		return false
	}
	name := strings.TrimLeft(opt, "-")
	if SecretLike(name) {
		return true
	}
	for _, prog := range p {
		o := secretOptions[prog]
		if slices.Contains(o.words, opt) {
			return true
		}
		if cluster(opt) && strings.ContainsRune(o.shorts, rune(opt[len(opt)-1])) {
			return true
		}
	}
	return false
}

// attached redacts the value attached to a credential short option in a
// cluster ("-pVALUE" for mysql, "-vuuser:pw" for curl): the letters up to
// the option are kept, the rest is "[REDACTED]".
func (p programSet) attached(a string) (string, bool) {
	if !cluster(a) {
		return "", false
	}
	for _, prog := range p {
		o := secretOptions[prog]
		if slices.Contains(o.words, a) {
			return "", false
		}
		for i := 1; i < len(a)-1; i++ {
			if strings.IndexByte(o.shorts, a[i]) >= 0 {
				return a[:i+1] + Redacted, true
			}
		}
	}
	return "", false
}

// cluster reports a single-dash short-option word ("-p", "-vpX").
func cluster(a string) bool {
	return len(a) >= 2 && a[0] == '-' && a[1] != '-'
}
