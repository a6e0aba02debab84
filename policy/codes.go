package policy

import "github.com/seed-b63acb1b/mcp-shell-server/refusal"

// Reason codes of the refusals this package makes itself. Recognizer and
// redirection refusals carry their own packages' codes (argvrules,
// redirect).
const (
	// CodeEmpty: the argv, or one pipeline stage's program name, is empty.
	CodeEmpty refusal.Code = "argv.empty"
	// CodeProgram: execute_command's program is empty or blank.
	CodeProgram refusal.Code = "request.program"
	// CodeRequestNUL: the directory or an envs name or value contains a NUL
	// byte.
	CodeRequestNUL refusal.Code = "request.nul"
	// CodeEnv: an envs entry names a variable the operator does not
	// delegate (MCP_SHELL_CHILD_ENV_ALLOWLIST).
	CodeEnv refusal.Code = "request.env"
	// CodeEnvSteering: an envs entry names a variable that steers which
	// program or code a child runs, what configuration it reads or where it
	// writes (childenv.Steering); never accepted per call.
	CodeEnvSteering refusal.Code = "request.env-steering"
	// CodeEnvReserved: an envs entry names a variable reserved for the
	// server itself (MCPGODEBUG).
	CodeEnvReserved refusal.Code = "request.env-reserved"
	// CodeEnvName: an envs name is not a valid variable name.
	CodeEnvName refusal.Code = "request.env-name"
	// CodeTempDir: the call's private temporary directory could not be
	// created (a full or read-only temporary directory).
	CodeTempDir refusal.Code = "request.temp-dir"
	// CodeNUL: an argument contains a NUL byte, which no program can receive.
	CodeNUL refusal.Code = "argv.nul"
	// CodeShellOperator: an element is exactly ";", "&&" or "||": a shell
	// habit that would silently mean something else without a shell.
	CodeShellOperator refusal.Code = "argv.shell-operator"
	// CodePipeline: a "|" element leaves a stage empty (leading, doubled or
	// trailing).
	CodePipeline refusal.Code = "pipeline.empty-stage"
	// CodePipelineLength: the pipeline has more than 32 stages (MaxStages).
	CodePipelineLength refusal.Code = "pipeline.too-long"
	// CodeUnsafeName: the program name contains whitespace, a shell
	// metacharacter or a control character, or is an unclean path.
	CodeUnsafeName refusal.Code = "name.unsafe"
	// CodeShellHabit: the program name is a shell builtin with no program
	// of its name (cd, export, source ...) or a leading NAME=VALUE
	// assignment; the message says what to send instead ("directory",
	// "envs").
	CodeShellHabit refusal.Code = "name.shell-habit"
	// CodeRefusedProgram: the program is on the categorical refusal list
	// (shells, interpreters, command wrappers, shell-escape tools), which no
	// allowlist entry overrides.
	CodeRefusedProgram refusal.Code = "name.refused"
	// CodeWritableProgram: argv[0] is a relative path (a file in the
	// working directory), or resolves, through PATH or a symlink, into a
	// directory calls can write (an allowed directory), and is not an
	// absolute path allowlisted exactly.
	CodeWritableProgram refusal.Code = "name.writable-location"
	// CodeNoAllowlist: the server allows no program at all.
	CodeNoAllowlist refusal.Code = "allowlist.empty"
	// CodeNotAllowed: the program is neither an allowed name nor matched by
	// an allowed pattern.
	CodeNotAllowed refusal.Code = "allowlist.not-allowed"
	// CodeRedirect: a "<", ">" or ">>" element has no target, is followed
	// by another operator, or its target contains a shell metacharacter or
	// names a .git directory.
	CodeRedirect refusal.Code = "redirect.syntax"
	// CodeWrapDepth: wrapper programs nest deeper than the policy reads
	// (more than eight levels of timeout, nice, env ...).
	CodeWrapDepth refusal.Code = "wrap.depth"
	// CodeWrapReplace: xargs -I's replace string is in a word xargs
	// replaces with standard input that names a program or is a wrapper's
	// own option or operand, so standard input would choose them.
	CodeWrapReplace refusal.Code = "wrap.replace-string"
	// CodeRedirectStage: a redirection is on a stage where it cannot apply
	// ("<" after the first stage, ">" before the last).
	CodeRedirectStage refusal.Code = "redirect.stage"
)

func reject(code refusal.Code, index int, arg, format string, args ...any) *refusal.Rejection {
	return refusal.New(code, index, arg, format, args...)
}
