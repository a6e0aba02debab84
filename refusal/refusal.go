package refusal

import (
	"errors"
	"fmt"
)

// Code is a stable, machine-readable reason such as "argv.nul",
// "redirect.escape" or "tar.exec-option". It is what the audit record's
// "rule" field carries for a refused call.
type Code string

// Rejection is a refusal made before any process is created.
//
// Index is the position of Arg in the request argv (argv[0] is 0; -1 when
// no single element is to blame). Message is one sentence naming Arg.
// Err is the underlying cause, if any (a file-system error of a probe).
type Rejection struct {
	Code    Code
	Index   int
	Arg     string
	Message string
	Err     error
}

// Error returns Message.
func (r *Rejection) Error() string { return r.Message }

// Unwrap returns the underlying cause.
func (r *Rejection) Unwrap() error { return r.Err }

// New builds a Rejection whose Message is formatted from format and args.
func New(code Code, index int, arg, format string, args ...any) *Rejection {
	return &Rejection{Code: code, Index: index, Arg: arg, Message: fmt.Sprintf(format, args...)}
}

// As returns the *Rejection in err's chain, or nil.
func As(err error) *Rejection {
	var r *Rejection
	if errors.As(err, &r) {
		return r
	}
	return nil
}

// Shifted returns a copy of r whose Index is mapped through offsets (the
// positions of a stage's words in the request argv); an Index outside
// offsets is kept. A nil r stays nil.
func (r *Rejection) Shifted(offsets []int) *Rejection {
	if r == nil {
		return nil
	}
	c := *r
	if c.Index >= 0 && c.Index < len(offsets) {
		c.Index = offsets[c.Index]
	}
	return &c
}

// catalogue is the reference server's opening for refusals of its default
// security policy (tumf/mcp-shell-server 1.1.8, behaviour notes §1.4).
const catalogue = "Command rejected by default security policy"

// Rule pairs a code with the catalogue phrase every refusal of that code
// uses: Reject formats "Command rejected by default security policy:
// <Phrase>: <detail>".
type Rule struct {
	Code   Code
	Phrase string
}

// Reject builds the rule's Rejection of argument arg at index, the detail
// formatted from format and args.
func (r Rule) Reject(index int, arg, format string, args ...any) *Rejection {
	return &Rejection{
		Code: r.Code, Index: index, Arg: arg,
		Message: fmt.Sprintf("%s: %s: %s", catalogue, r.Phrase, fmt.Sprintf(format, args...)),
	}
}
