package policy

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// stageWords is a stage's argv with redirections removed; offsets[i] is
// the request-argv index of argv[i].
type stageWords struct {
	argv    []string
	offsets []int
	start   int // the request-argv index of the stage's first element
}

func isRedirectOp(s string) bool { return s == "<" || s == ">" || s == ">>" }

// unsafeTarget matches characters refused in a redirection target: shell
// metacharacters and control characters. A target containing them is far
// more likely a smuggled command line than a file name.
var unsafeTarget = lazyre.New("[;&|<>`]|\\p{Cc}")

// parseRedirects removes "<", ">" and ">>" with their targets from a stage
// and records them in call. "<" is allowed only on the first stage and
// ">"/">>" only on the last: elsewhere they could not apply.
func parseRedirects(st stage, first, last bool, call *plan.Call) (stageWords, error) {
	w := stageWords{start: st.offset}
	for i := 0; i < len(st.words); i++ {
		op := st.words[i]
		at := st.offset + i
		if !isRedirectOp(op) {
			w.argv = append(w.argv, op)
			w.offsets = append(w.offsets, at)
			continue
		}
		target, err := redirectTarget(st.words, i, at)
		if err != nil {
			return w, err
		}
		if err := checkPlacement(op, first, last, at); err != nil {
			return w, err
		}
		if err := checkTarget(target, at+1); err != nil {
			return w, err
		}
		if op == "<" {
			call.StdinFile = target
		} else {
			call.StdoutFile, call.StdoutAppend = target, op == ">>"
		}
		i++
	}
	return w, nil
}

func redirectTarget(words []string, i, at int) (string, error) {
	op := words[i]
	if i+1 >= len(words) {
		if op == "<" {
			return "", reject(CodeRedirect, at, op, "Missing path for input redirection after %q (argument %d)", op, at)
		}
		return "", reject(CodeRedirect, at, op, "Missing path for output redirection after %q (argument %d)", op, at)
	}
	next := words[i+1]
	if isRedirectOp(next) {
		if op == "<" {
			return "", reject(CodeRedirect, at+1, next, "Invalid redirection syntax: consecutive operators %q %q (argument %d)", op, next, at+1)
		}
		return "", reject(CodeRedirect, at+1, next, "Invalid redirection target: operator found: %q follows %q (argument %d)", next, op, at+1)
	}
	return next, nil
}

func checkPlacement(op string, first, last bool, at int) error {
	if op == "<" && !first {
		return reject(CodeRedirectStage, at, op, "Input redirection %q (argument %d) is only allowed on the first pipeline stage: the others read the stage before them", op, at)
	}
	if op != "<" && !last {
		return reject(CodeRedirectStage, at, op, "Output redirection %q (argument %d) is only allowed on the last pipeline stage: its output would go to the file and the next stage would read nothing; redirect the last stage, or add [\"|\", \"tee\", \"file\"] where tee is allowed", op, at)
	}
	return nil
}

func checkTarget(target string, at int) error {
	if err := redirect.Check(target); err != nil {
		return fromRedirect(err, target, at)
	}
	if unsafeTarget.MatchString(target) {
		return reject(CodeRedirect, at, target, "Redirection target %q contains a shell metacharacter or control character", target)
	}
	for part := range strings.SplitSeq(target, "/") {
		if strings.EqualFold(part, ".git") {
			return reject(CodeRedirect, at, target, "Redirection target %q is inside a .git directory: repository configuration and hooks there make git run programs", target)
		}
	}
	return nil
}

// probeRedirects checks the effective targets against the file system
// without creating, truncating or blocking on anything.
func probeRedirects(call *plan.Call) error {
	if call.StdinFile != "" {
		if err := redirect.Probe(call.Dir, call.StdinFile, false); err != nil {
			return fromRedirect(err, call.StdinFile, -1)
		}
	}
	if call.StdoutFile != "" {
		if err := redirect.Probe(call.Dir, call.StdoutFile, true); err != nil {
			return fromRedirect(err, call.StdoutFile, -1)
		}
	}
	return nil
}

// fromRedirect places a redirect refusal of target at argv index at.
func fromRedirect(err error, target string, at int) error {
	if re := refusal.As(err); re != nil {
		c := *re
		c.Arg, c.Index = target, at
		return &c
	}
	r := reject(CodeRedirect, at, target, "%s", err.Error())
	r.Err = err
	return r
}
