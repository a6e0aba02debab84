package config

import (
	"fmt"
	"math"
	"strings"
)

// minTokenLen is the shortest bearer token accepted, in bytes.
const minTokenLen = 16

// minTokenBits is the least entropy a bearer token must show, as
// tokenBits estimates it. Tokens made as the documentation says
// (head -c 32 /dev/urandom | base64) estimate above 150; the
// shortest random tokens people make (openssl rand -hex 8, 16 hex
// digits) estimate 40 or more in 999 of 1000 draws; typed strings such
// as 0000000000000000, abcdefghijklmnop or 1234567890abcdef estimate
// under 16.
const minTokenBits = 40

// placeholderWords are the words of template values that an operator
// forgot to replace (our own manifests once shipped
// REPLACE-WITH-AT-LEAST-16-RANDOM-CHARACTERS), compared on the token
// lower-cased with everything but letters and digits removed. Six random
// base64 characters spell one of them by chance with odds of about one in
// a billion, so a generated token is not refused. "token" is not among
// them: a prefix such as ci-token- in front of random bytes is a real
// token.
var placeholderWords = []string{
	"replace", "changeme", "placeholder", "example", "yourtoken", "yoursecret",
	"insert", "dummy", "sample", "secret", "password", "passwd", "fixme", "xxxxxx",
}

// checkToken returns why token is not acceptable as a bearer token, or
// "".
func checkToken(token string) string {
	const advice = "generate one, for example with head -c 32 /dev/urandom | base64"
	if len(token) < minTokenLen {
		return fmt.Sprintf("too short: use at least %d characters; %s", minTokenLen, advice)
	}
	if w := placeholderWord(token); w != "" {
		return fmt.Sprintf("looks like a placeholder (it contains %q), not a secret; %s", w, advice)
	}
	if p := period(token); p > 0 {
		return fmt.Sprintf("repeats its first %d characters, so it has too little entropy; %s", p, advice)
	}
	if bits := tokenBits(token); bits < minTokenBits {
		return fmt.Sprintf("has too little entropy (about %.0f bits estimated, at least %d needed: runs such as aaaa or 1234 count as one character); %s", bits, minTokenBits, advice)
	}
	return ""
}

// placeholderWord returns the placeholder word token contains, or "".
func placeholderWord(token string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(token) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	for _, w := range placeholderWords {
		if strings.Contains(b.String(), w) {
			return w
		}
	}
	return ""
}

// period returns the length of the shortest string whose repetition
// spells token, when it is at most half of token (changemechangeme);
// 0 otherwise.
func period(token string) int {
	for p := 1; p <= len(token)/2; p++ {
		if token[p:] == token[:len(token)-p] {
			return p
		}
	}
	return 0
}

// tokenBits estimates a token's entropy in bits: the number of its
// characters that do not continue a run (a character equal to, or one
// after or before, the previous one adds nothing: aaaa, abcd, 4321), times
// log2 of the alphabet its character classes span (lower case 26, upper
// case 26, digits 10, anything else 32). It is a crude upper bound for
// typed strings and close to the truth for random ones, which is what a
// start-up check needs: refuse the obviously guessable, never a
// generated token.
func tokenBits(token string) float64 {
	var classes [4]bool
	sizes := [4]int{26, 26, 10, 32}
	counted := 0
	for i := 0; i < len(token); i++ {
		c := token[i]
		switch {
		case c >= 'a' && c <= 'z':
			classes[0] = true
		case c >= 'A' && c <= 'Z':
			classes[1] = true
		case c >= '0' && c <= '9':
			classes[2] = true
		default:
			classes[3] = true
		}
		if i > 0 {
			if p := token[i-1]; c == p || c == p+1 || c+1 == p {
				continue
			}
		}
		counted++
	}
	alphabet := 0
	for i, in := range classes {
		if in {
			alphabet += sizes[i]
		}
	}
	return float64(counted) * math.Log2(float64(alphabet))
}
