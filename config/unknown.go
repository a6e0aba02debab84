package config

import (
	"slices"
	"strings"
)

// prefix is the namespace of the server's own variables: a name in it
// that Env does not declare is a misspelling or another server's setting
// (seed 002's MCP_SHELL_ALLOWED_WORKDIRS, the reference's
// MCP_SHELL_ENV_ALLOWLIST) that would otherwise be ignored without a word.
const prefix = "MCP_SHELL_"

// testPrefix names the switches of the project's own tests and CI
// (MCP_SHELL_TEST_HEAVY ...), which the server never reads.
const testPrefix = "MCP_SHELL_TEST_"

// maxUnprefixedDistance is how far a name outside the namespace may be
// from one of Env's unprefixed names (ALLOW_COMMANDS, ALLOW_PATTERNS ...)
// to count as its misspelling: ALLOWED_PATTERNS and ALLOW_COMMAND are,
// ALLOW_ROOT of another program is not.
const maxUnprefixedDistance = 2

// Unknown is a variable of the environment that looks like a setting of
// this server but is none, with the declared variable nearest to it.
type Unknown struct {
	Name, Nearest string
}

// UnknownVariables lists, in environ's order, the names among environ
// ("NAME=VALUE" entries, as os.Environ returns them) that Env does not
// declare although they look like its variables: every MCP_SHELL_* name
// but the tests' MCP_SHELL_TEST_* switches, and a name within
// maxUnprefixedDistance edits of an unprefixed one. The known names are
// Env's tags, so a variable added to Env is known at once.
func UnknownVariables(environ []string) []Unknown {
	known := make([]string, 0, len(variables()))
	for _, v := range variables() {
		known = append(known, v.name)
	}
	var out []Unknown
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name == "" || slices.Contains(known, name) || strings.HasPrefix(name, testPrefix) {
			continue
		}
		if strings.HasPrefix(name, prefix) {
			nearest, _ := nearestName(name, known)
			out = append(out, Unknown{Name: name, Nearest: nearest})
			continue
		}
		// Outside the namespace only a near spelling of an unprefixed
		// name counts: other programs own the rest.
		for _, k := range known {
			// The distance is at least the difference in length: most of
			// the environment is ruled out without computing it.
			if !strings.HasPrefix(k, prefix) && abs(len(name)-len(k)) <= maxUnprefixedDistance && editDistance(name, k) <= maxUnprefixedDistance {
				out = append(out, Unknown{Name: name, Nearest: k})
				break
			}
		}
	}
	return out
}

// nearestName is the known name closest to name (in the namespace) and
// its distance: fewest
// edits between the two once the namespace prefix is set aside, ties
// broken by the most words (between underscores) in common, so that
// MCP_SHELL_OUTPUT_LIMIT finds MCP_SHELL_OUTPUT_LIMIT_BYTES and
// MCP_SHELL_ENV_ALLOWLIST finds MCP_SHELL_CHILD_ENV_ALLOWLIST.
func nearestName(name string, known []string) (string, int) {
	best, bestD, bestW := "", -1, -1
	for _, k := range known {
		d := editDistance(strings.TrimPrefix(name, prefix), strings.TrimPrefix(k, prefix))
		if !strings.HasPrefix(k, prefix) {
			d += len(prefix)
		}
		// A name that holds every word of k, or whose words k holds, is a
		// longer or shorter spelling of it: nearer than any edit count says.
		w := sharedWords(name, k)
		if w == words(name) || w == words(k) {
			d = min(d, 1+abs(len(name)-len(k))/4)
		}
		if bestD < 0 || d < bestD || d == bestD && w > bestW {
			best, bestD, bestW = k, d, w
		}
	}
	return best, bestD
}

func abs(n int) int { return max(n, -n) }

// words counts a name's words between underscores, the prefix's aside.
func words(name string) int {
	return len(strings.FieldsFunc(strings.TrimPrefix(name, prefix), isUnderscore))
}

// sharedWords counts the words of a that b also has, the prefix's aside.
func sharedWords(a, b string) int {
	bw := strings.FieldsFunc(strings.TrimPrefix(b, prefix), isUnderscore)
	n := 0
	for _, w := range strings.FieldsFunc(strings.TrimPrefix(a, prefix), isUnderscore) {
		if slices.Contains(bw, w) {
			n++
		}
	}
	return n
}

func isUnderscore(r rune) bool { return r == '_' }

// editDistance is the Levenshtein distance between a and b (bytes: the
// names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
