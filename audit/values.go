package audit

import (
	"net/url"
	"strings"
)

// The value rules: what makes a client value, or a part of one, a
// credential by its own form, whatever program it is given to. None of
// them looks for a word inside a value: "grep password", "cat
// .git-credentials" and "src/auth/handler.go" are kept whole. Each is a
// scan of the bytes, without regular expressions: the record of every
// call runs them over every argv element.

// valueRules masks, in s: URL userinfo, secret query parameters and
// fragments; the values of secret-named assignments (NAME=VALUE) and
// headers (Authorization: ...); HTTP credentials after Bearer or Basic;
// and credential shapes (token prefixes, JSON Web Tokens, PEM keys, AWS
// key ids, high-entropy strings). It returns s itself when nothing is
// masked.
func valueRules(s string) string {
	if plain(s) {
		return s
	}
	s = maskURLs(s)
	s = maskAssignments(s)
	s = maskHeader(s)
	s = maskAuthSchemes(s, false)
	return maskShapes(s)
}

// minShape is the shortest run of token characters a credential shape
// can have (a Slack "xoxb-" and 8): shorter values skip the shape scan.
const minShape = 12

// plain reports a value no rule can change: no "=", ":" or "@", no run
// of token characters as long as a credential, and no "Bearer " or
// "Basic ".
func plain(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '=' || c == ':' || c == '@':
			return false
		case tokenByte(c):
			if run++; run >= minShape {
				return false
			}
		default:
			if (c == ' ' || c == '\t') && (run == 6 && strings.EqualFold(s[i-6:i], "bearer") || run == 5 && strings.EqualFold(s[i-5:i], "basic")) {
				return false
			}
			run = 0
		}
	}
	return true
}

// tokenByte reports the characters of credential tokens: base64 and
// base64url, and the separators of JWTs and prefixed tokens.
func tokenByte(c byte) bool {
	return alnum(c) || c == '_' || c == '-' || c == '+' || c == '/' || c == '=' || c == '.' || c == '~'
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }

func lower(c byte) bool { return c >= 'a' && c <= 'z' }
func upper(c byte) bool { return c >= 'A' && c <= 'Z' }
func digit(c byte) bool { return c >= '0' && c <= '9' }

// space reports the bytes that end a URL or a token in free text.
func space(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`'
}

// isURL reports a value that is one URL: scheme "://" authority, no white
// space.
func isURL(s string) bool {
	i := strings.Index(s, "://")
	if i <= 0 || !schemeOK(s[:i]) {
		return false
	}
	for j := 0; j < len(s); j++ {
		if space(s[j]) && s[j] != '"' && s[j] != '\'' {
			return false
		}
	}
	return true
}

func schemeOK(scheme string) bool {
	if scheme == "" || !(lower(scheme[0]) || upper(scheme[0])) {
		return false
	}
	for i := 1; i < len(scheme); i++ {
		c := scheme[i]
		if !alnum(c) && c != '+' && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// querySecrets are query parameter names whose values are credentials
// though the names carry no marker word (lower case): presigned S3 and
// Google Cloud Storage URLs, Azure SAS tokens (sig), signed URLs.
var querySecrets = map[string]bool{
	"sig": true, "signature": true, "x-amz-signature": true, "x-amz-credential": true, "x-amz-security-token": true,
	"x-goog-signature": true, "x-goog-credential": true, "hmac": true, "jwt": true, "session": true, "sessionid": true,
}

// maskURLs masks every URL in s (scheme "://"): its userinfo (user and
// password, or a token given as the user; to the last "@" of the
// authority, and a password holding "/" to the "@" after it), the values
// of secret query parameters (secret-named, or querySecrets) and the
// fragment (#access_token=... of OAuth's implicit flow).
func maskURLs(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	var b strings.Builder
	last, from := 0, 0
	for {
		k := strings.Index(s[from:], "://")
		if k < 0 {
			break
		}
		k += from
		start := k
		for start > 0 && (alnum(s[start-1]) || s[start-1] == '+' || s[start-1] == '.' || s[start-1] == '-') {
			start--
		}
		if !schemeOK(s[start:k]) {
			from = k + 3
			continue
		}
		end := k + 3
		for end < len(s) && !space(s[end]) {
			end++
		}
		b.WriteString(s[last : k+3])
		b.WriteString(maskURLRest(s[k+3 : end]))
		last, from = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// maskURLRest masks u, a URL after its "scheme://".
func maskURLRest(u string) string {
	auth := len(u)
	for i := 0; i < len(u); i++ {
		if u[i] == '/' || u[i] == '?' || u[i] == '#' {
			auth = i
			break
		}
	}
	var out strings.Builder
	rest := u
	if at := strings.LastIndexByte(u[:auth], '@'); at >= 0 {
		out.WriteString(Redacted)
		rest = u[at:]
		auth -= at
	} else if colon := strings.IndexByte(u[:auth], ':'); colon >= 0 && !allDigits(u[colon+1:auth]) && auth < len(u) && u[auth] == '/' {
		// "user:pa/ss@host": the password's "/" ended the authority; a
		// port ("host:443/@scope/pkg") does not make a password.
		if at := strings.IndexByte(u[auth:], '@'); at >= 0 && !strings.ContainsAny(u[auth:auth+at], "?#") {
			out.WriteString(Redacted)
			rest = u[auth+at:]
			auth = 0
			for auth < len(rest) && rest[auth] != '/' && rest[auth] != '?' && rest[auth] != '#' {
				auth++
			}
		}
	}
	path, frag, hasFrag := strings.Cut(rest, "#")
	if q := strings.IndexByte(path, '?'); q >= 0 && q >= auth {
		out.WriteString(path[:q+1])
		out.WriteString(maskQuery(path[q+1:]))
	} else {
		out.WriteString(path)
	}
	if hasFrag {
		out.WriteByte('#')
		if frag != "" {
			out.WriteString(Redacted)
		}
	}
	return out.String()
}

// maskQuery masks the values of secret parameters in a query string.
func maskQuery(q string) string {
	parts := strings.Split(q, "&")
	changed := false
	for i, p := range parts {
		name, _, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if querySecrets[strings.ToLower(name)] || SecretLike(name) {
			parts[i] = p[:strings.IndexByte(p, '=')+1] + Redacted
			changed = true
		}
	}
	if !changed {
		return q
	}
	return strings.Join(parts, "&")
}

// assignSep ends an assignment's value inside a longer value, and may
// precede a name: white space, and the separators of query strings,
// cookies, connection strings and option lists (mount -o a=b,c=d).
func assignSep(c byte) bool { return space(c) || c == '&' || c == ';' || c == ',' }

// nameByte are the characters of a setting's name: identifiers, dotted
// keys (user.password), npm's "//registry/:_authToken".
func nameByte(c byte) bool {
	return alnum(c) || c == '_' || c == '.' || c == '-' || c == '/' || c == ':'
}

// maskAssignments masks the value of every NAME=VALUE in s whose name is
// secret-like (PASSWORD=..., db.password=..., AccountKey=... in a
// connection string, password=... in a libpq conninfo or a form body):
// the rest of s when the assignment starts s, else up to the next
// separator. An option word ("--token=V") is not an assignment: its
// program's grammar or the generic option rule judges it.
func maskAssignments(s string) string {
	if strings.IndexByte(s, '=') < 0 || strings.HasPrefix(s, "-") {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '=' {
			continue
		}
		start := i
		for start > last && nameByte(s[start-1]) {
			start--
		}
		if start == i || (start > 0 && !assignSep(s[start-1]) && s[start-1] != '?' && s[start-1] != '"') {
			continue
		}
		name := s[start:i]
		if len(name) > maxName || !SecretLike(name) {
			continue
		}
		end := len(s)
		if start > 0 {
			for end = i + 1; end < len(s) && !assignSep(s[end]); end++ {
			}
		}
		if end == i+1 || s[i+1:end] == Redacted {
			continue
		}
		b.WriteString(s[last : i+1])
		b.WriteString(Redacted)
		last, i = end, end-1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// maskHeader masks the value of a header given as "Name: value" whose
// name is secret-like (Authorization, Proxy-Authorization, Cookie,
// X-Api-Key, Private-Token).
func maskHeader(s string) string {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || colon > maxName {
		return s
	}
	for i := 0; i < colon; i++ {
		if !alnum(s[i]) && s[i] != '-' && s[i] != '_' {
			return s
		}
	}
	v := strings.TrimLeft(s[colon+1:], " \t")
	if v == "" || v == Redacted || !SecretLike(s[:colon]) {
		return s
	}
	return s[:len(s)-len(v)] + Redacted
}

// maskAuthSchemes masks HTTP credentials: "Bearer X", "Basic X", the
// scheme word followed by at least eight credential characters; in the
// server's own sentences (prose) only with a digit or a symbol among
// them, so its "bearer token" and "basic authentication" stay.
func maskAuthSchemes(s string, prose bool) string {
	var b strings.Builder
	last := 0
	for i := 0; i+6 < len(s); i++ {
		if s[i]|0x20 != 'b' {
			continue
		}
		n := 0
		switch {
		case strings.EqualFold(s[i:i+6], "bearer"):
			n = 6
		case strings.EqualFold(s[i:i+5], "basic"):
			n = 5
		default:
			continue
		}
		if i > 0 && alnum(s[i-1]) {
			continue
		}
		j := i + n
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j == i+n {
			continue
		}
		k := j
		symbol := false
		for k < len(s) && (alnum(s[k]) || strings.IndexByte("._~+/=-", s[k]) >= 0) {
			symbol = symbol || !lower(s[k]) && !upper(s[k])
			k++
		}
		if k-j < 8 || (prose && !symbol) || s[j:k] == Redacted {
			continue
		}
		b.WriteString(s[last:j])
		b.WriteString(Redacted)
		last, i = k, k-1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// tokenPrefixes are credentials recognisable by their start, with the
// least number of characters that follow: GitHub (classic, fine-grained),
// GitLab, Slack, OpenAI and Anthropic style "sk-", Stripe, npm, PyPI,
// Hugging Face, AWS access key ids, Google API keys.
var tokenPrefixes = []struct {
	prefix string
	min    int
}{
	{"ghp_", 16}, {"gho_", 16}, {"ghu_", 16}, {"ghs_", 16}, {"ghr_", 16}, {"github_pat_", 16},
	{"glpat-", 16}, {"gldt-", 16}, {"glrt-", 16},
	{"xoxb-", 8}, {"xoxa-", 8}, {"xoxp-", 8}, {"xoxr-", 8}, {"xoxs-", 8},
	{"sk-", 20}, {"sk_live_", 16}, {"sk_test_", 16}, {"rk_live_", 16},
	{"npm_", 30}, {"pypi-", 40}, {"hf_", 30},
	{"AKIA", 16}, {"ASIA", 16}, {"AIza", 30},
}

// prefixesBy are tokenPrefixes by their first byte; prefixStart the
// first bytes that may start a shape (a JWT's "e" too).
var (
	prefixesBy  [256][]int
	prefixStart [256]bool
)

func init() {
	for i, p := range tokenPrefixes {
		prefixesBy[p.prefix[0]] = append(prefixesBy[p.prefix[0]], i)
		prefixStart[p.prefix[0]] = true
	}
	prefixStart['e'] = true
}

// maskShapes masks the credential shapes in s: a token prefix (the token
// to the end of its run), a JSON Web Token, a PEM private key (to its
// END line), and a high-entropy string (highEntropy).
func maskShapes(s string) string {
	if i := strings.Index(s, "-----BEGIN "); i >= 0 && strings.Contains(s[i:], "PRIVATE KEY-----") {
		end := len(s)
		if e := strings.Index(s[i:], "-----END "); e >= 0 {
			if f := strings.Index(s[i+e+9:], "-----"); f >= 0 {
				end = i + e + 9 + f + 5
			}
		}
		return maskShapes(s[:i]) + Redacted + maskShapes(s[end:])
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !tokenByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && tokenByte(s[j]) {
			j++
		}
		if j-i >= minShape {
			if from, to, ok := shapeIn(s[i:j]); ok {
				b.WriteString(s[last : i+from])
				b.WriteString(Redacted)
				last = i + to
			}
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// shapeIn finds a credential in run, a run of token characters: where it
// starts and ends.
func shapeIn(run string) (from, to int, ok bool) {
	for k := 0; k < len(run); k++ {
		if !prefixStart[run[k]] || (k > 0 && alnum(run[k-1])) {
			continue
		}
		rest := run[k:]
		for _, pi := range prefixesBy[run[k]] {
			if p := tokenPrefixes[pi]; strings.HasPrefix(rest, p.prefix) {
				n := len(p.prefix)
				for n < len(rest) && (alnum(rest[n]) || rest[n] == '_' || rest[n] == '-') {
					n++
				}
				if n-len(p.prefix) >= p.min {
					return k, len(run), true
				}
			}
		}
		if strings.HasPrefix(rest, "eyJ") && jwt(rest) {
			return k, len(run), true
		}
	}
	if len(run) >= minEntropy {
		from, to, ok = entropyIn(run)
	}
	return from, to, ok
}

// jwt reports "eyJ..." followed by two more dot-separated base64url parts
// (the header, the payload, the signature).
func jwt(s string) bool {
	parts := strings.SplitN(s, ".", 4)
	if len(parts) < 3 || len(parts[0]) < 8 || len(parts[1]) < 6 {
		return false
	}
	for _, p := range parts[:2] {
		for i := 0; i < len(p); i++ {
			if !alnum(p[i]) && p[i] != '_' && p[i] != '-' {
				return false
			}
		}
	}
	return true
}

// pathExts are the extensions that make a run a file name: a path is
// never a secret, whatever it contains.
var pathExts = []string{".go", ".py", ".js", ".ts", ".json", ".yaml", ".yml", ".toml", ".txt", ".md", ".pem", ".key", ".crt",
	".cer", ".der", ".p12", ".pfx", ".jks", ".pub", ".gpg", ".asc", ".env", ".conf", ".cfg", ".ini", ".sh", ".log", ".csv",
	".xml", ".html", ".c", ".h", ".rs", ".java", ".rb", ".lock", ".sum", ".mod", ".tar", ".gz", ".zip", ".sql"}

// pathLike reports a value that names a file: a "/", "./", "../" or
// "~/" start, or a known extension.
func pathLike(s string) bool {
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "~/") {
		return true
	}
	for _, e := range pathExts {
		if len(s) > len(e) && strings.HasSuffix(s, e) {
			return true
		}
	}
	return false
}

// entropyIn finds a high-entropy part of run: the whole run (a base64
// secret may hold "/"), or each of its path segments when run names a
// file; split at "." and "=" (not trailing padding).
func entropyIn(run string) (from, to int, ok bool) {
	seps := ".="
	if pathLike(run) {
		seps = "./="
	}
	start := 0
	for i := 0; i <= len(run); i++ {
		if i == len(run) || (strings.IndexByte(seps, run[i]) >= 0 && strings.Trim(run[i:], "=") != "") {
			if i-start >= minEntropy && highEntropy(run[start:i]) {
				return start, i, true
			}
			start = i + 1
		}
	}
	return 0, 0, false
}

// minEntropy is the shortest string judged by its entropy: random
// credentials are 20 characters and more (AWS secret keys 40, API keys
// 32); identifiers that long are words.
const minEntropy = 20

// highEntropy reports a string that looks random rather than written,
// judged on its letters and digits: upper case, lower case and digits all
// present, a change of class (upper, lower, digit) between at least 40%
// of neighbours, and less than half of it in words (a run of three
// lower-case letters or capitals, or a capital and two lower-case
// letters); hexadecimal strings (commit ids, digests, UUIDs) are kept.
// Measured (20,000 random base62 strings of each length, and the
// 10,084 mixed-case words of 20 characters and more in the Go tree's
// sources): it takes 62-66% of random strings of 20 to 40 characters,
// and 1.4% of those words, mostly SIMD operation names with many digit
// groups (OpBroadcast1To16Int16x8) and random test data.
func highEntropy(s string) bool {
	n := 0
	var buf [256]byte
	for i := 0; i < len(s) && n < len(buf); i++ {
		if c := s[i]; alnum(c) {
			buf[n] = c
			n++
		}
	}
	if n < minEntropy {
		return false
	}
	a := buf[:n]
	class := func(c byte) byte {
		switch {
		case upper(c):
			return 1
		case lower(c):
			return 2
		}
		return 3
	}
	var seen [4]bool
	hex := true
	changes := 0
	for i, c := range a {
		seen[class(c)] = true
		if !(digit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			hex = false
		}
		if i > 0 && class(c) != class(a[i-1]) {
			changes++
		}
	}
	if hex || !seen[1] || !seen[2] || !seen[3] || changes*100 < 40*(n-1) {
		return false
	}
	inWords := 0
	for i := 0; i < n; {
		j := i
		for j < n && class(a[j]) == class(a[i]) {
			j++
		}
		switch c := class(a[i]); {
		case c != 3 && j-i >= 3:
			inWords += j - i
		case c == 2 && j-i == 2 && i > 0 && class(a[i-1]) == 1:
			inWords += 3
		}
		i = j
	}
	return inWords*2 < n
}
