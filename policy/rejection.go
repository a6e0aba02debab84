package policy

import "fmt"

// Reason codes of the rejections this package makes itself. Recognizer
// rejections carry the recognizer's own codes ("tar.exec-option", ...).
const (
	CodeEmpty          = "argv.empty"
	CodeNUL            = "argv.nul"
	CodeShellOperator  = "argv.shell-operator"
	CodePipeline       = "pipeline.empty-stage"
	CodeUnsafeName     = "name.unsafe"
	CodeRefusedProgram = "name.refused"
	CodeNoAllowlist    = "allowlist.empty"
	CodeNotAllowed     = "allowlist.not-allowed"
	CodeRedirect       = "redirect.syntax"
	CodeRedirectStage  = "redirect.stage"
)

// Rejection is a refusal made before any process is created. Code is
// machine-readable; Message is one sentence naming the offending argument
// Arg, found at Index in the request argv (-1 when none).
type Rejection struct {
	Code    string
	Arg     string
	Index   int
	Message string
}

func (r *Rejection) Error() string { return r.Message }

func reject(code string, index int, arg, format string, args ...any) *Rejection {
	return &Rejection{Code: code, Arg: arg, Index: index, Message: fmt.Sprintf(format, args...)}
}
