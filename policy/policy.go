package policy

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// Config is what the policy needs of the server configuration.
type Config struct {
	// Commands are exact argv[0] strings to allow.
	Commands []string
	// Patterns are full-match expressions (already anchored) for argv[0].
	Patterns []*regexp.Regexp
	// PatternSources are the operator's pattern texts, for rule names.
	PatternSources []string
	// GitSubcommands are extra git subcommands the operator admits.
	GitSubcommands []string
	// Recognize judges one stage's argv (argvrules.Check: the recognizers
	// of the families the policy selected); nil judges nothing beyond the
	// allowlist.
	Recognize argvrules.Recognizer
	// ChildEnv is the child-environment configuration: programs are
	// resolved with its ProgramPath, and every stage's environment starts
	// from childenv.Build.
	ChildEnv childenv.Config
	// Getenv looks up the operator's environment; nil is os.LookupEnv.
	Getenv func(string) (string, bool)
	// AllowedDirs are the directories calls may run in and write to; a
	// program found inside one runs only when allowlisted by its exact
	// absolute path.
	AllowedDirs []string
	// Sandbox decides what each stage may do under the kernel sandbox; nil
	// means no sandbox (every stage's Confinement says mode off).
	Sandbox *sandbox.Rules
	// TempDirs hands out the private temporary directory of every call
	// the sandbox confines (sandbox.Launcher); required when
	// Sandbox.Confined().
	TempDirs TempDirs
	// Confirm is the confirm tier: which approved calls wait for the
	// user (plan.Call.Confirm).
	Confirm Confirm
}

// TempDirs supplies calls' private temporary directories.
type TempDirs interface {
	CallDir() (string, error)
	ReleaseCallDir(dir string)
}

// Policy decides requests. It is immutable and safe for concurrent use.
type Policy struct {
	cfg         Config
	commands    map[string]bool
	programPath string
	naming      naming // the host's; tests pick another platform's
}

// New builds a Policy from cfg.
func New(cfg Config) *Policy {
	p := &Policy{cfg: cfg, commands: make(map[string]bool, len(cfg.Commands)), naming: hostNaming}
	for _, c := range cfg.Commands {
		p.commands[c] = true
	}
	p.programPath = childenv.ProgramPath(cfg.ChildEnv, p.getenv)
	return p
}

// AllowedDirs are the directories calls may run in (the first is the
// default working directory).
func (p *Policy) AllowedDirs() []string { return p.cfg.AllowedDirs }

// Request is one call as a client asked for it.
type Request struct {
	// Argv is the command: a pipeline of stages separated by "|" elements,
	// with "<", ">" and ">>" redirections (shell_execute), or, with Exact,
	// one program and its arguments, every element data (execute_command).
	Argv  []string
	Exact bool
	// Dir is the working directory argument; nil means the first allowed
	// directory, a relative one resolves against it.
	Dir *string
	// Envs are the per-call environment variables.
	Envs map[string]string
}

// Decide is the one path from a request to a verdict, for the server and
// for `check`: it returns the call's plan, or a *refusal.Rejection (see
// the package documentation for the order of checks). When the refusal
// comes after the working directory was opened, the returned Call is not
// nil: it holds only Dir (what the audit record's directory says), and
// the caller closes it as it closes an approved one.
func (p *Policy) Decide(req Request) (*plan.Call, error) {
	if err := checkRequest(req); err != nil {
		return nil, err
	}
	dir, err := workdir.OpenAllowed(req.Dir, p.cfg.AllowedDirs)
	if err != nil {
		return nil, err
	}
	call := &plan.Call{Dir: dir}
	if err := p.decide(req, call); err != nil {
		call.Stages = nil
		return call, err
	}
	call.Confirm = p.confirmations(call)
	return call, nil
}

// decide fills call (whose Dir is open) from req.
func (p *Policy) decide(req Request, call *plan.Call) error {
	base, err := p.baseEnv(req.Envs)
	if err != nil {
		return err
	}
	if err := p.takeTempDir(call); err != nil {
		return err
	}
	c := callContext{dir: call.Dir, base: base, tempDir: call.TempDir, hardening: p.hardening(call.Dir.Real())}
	stages, err := p.split(req, c)
	if err != nil {
		return err
	}
	for i, st := range stages {
		words := st.data()
		if !req.Exact {
			if words, err = parseRedirects(st, i == 0, i == len(stages)-1, call); err != nil {
				return err
			}
		}
		s, err := p.stage(words, c)
		if err != nil {
			return err
		}
		call.Stages = append(call.Stages, s)
	}
	return probeRedirects(call)
}

// callContext is what every stage of one call shares.
type callContext struct {
	dir       *workdir.Dir
	base      []string // childenv.Build's environment
	tempDir   string
	hardening []string // the git configuration every stage gets
}

// split applies the rules that look at argv as a whole and splits it
// into stages (Exact: one stage of data).
func (p *Policy) split(req Request, c callContext) ([]stage, error) {
	if req.Exact {
		return []stage{{words: req.Argv}}, nil
	}
	if err := checkOperators(req.Argv); err != nil {
		return nil, p.operatorReason(req.Argv, c, err)
	}
	return splitStages(req.Argv)
}

// takeTempDir gives a confined call its private temporary directory.
func (p *Policy) takeTempDir(call *plan.Call) error {
	if p.cfg.Sandbox == nil || !p.cfg.Sandbox.Confined() {
		return nil
	}
	dir, err := p.cfg.TempDirs.CallDir()
	if err != nil {
		return reject(CodeTempDir, -1, "", "cannot create the call's private temporary directory: %v", err)
	}
	call.SetTempDir(dir, p.cfg.TempDirs.ReleaseCallDir)
	return nil
}

// checkRequest applies the rules that need nothing but the request: an
// argv to run, and no NUL byte anywhere a program would receive it.
func checkRequest(req Request) error {
	if len(req.Argv) == 0 {
		return reject(CodeEmpty, -1, "", "Empty command")
	}
	if req.Exact && strings.TrimSpace(req.Argv[0]) == "" {
		return reject(CodeProgram, 0, req.Argv[0], "program is empty")
	}
	for i, a := range req.Argv {
		if strings.IndexByte(a, 0) >= 0 {
			return reject(CodeNUL, i, a, "Argument %d contains a NUL byte, which no program can receive", i)
		}
	}
	if req.Dir != nil && strings.IndexByte(*req.Dir, 0) >= 0 {
		return reject(CodeRequestNUL, -1, "", "the directory contains a NUL byte, which cannot be passed to a program")
	}
	names := make([]string, 0, len(req.Envs))
	for k := range req.Envs {
		names = append(names, k)
	}
	slices.Sort(names) // the same name on every call
	for _, k := range names {
		if strings.IndexByte(k, 0) >= 0 || strings.IndexByte(req.Envs[k], 0) >= 0 {
			return reject(CodeRequestNUL, -1, k, "envs entry %q contains a NUL byte, which cannot be passed to a program", k)
		}
	}
	return nil
}

// checkOperators refuses whole-element shell operators.
func checkOperators(argv []string) error {
	for i, a := range argv {
		switch a {
		case ";", "&&", "||":
			return reject(CodeShellOperator, i, a,
				"Unexpected shell operator: %s (argument %d); commands are argv arrays run without a shell: send one command, or a pipeline separated by \"|\" elements; %s", a, i, literalHint)
		}
	}
	return nil
}

type stage struct {
	words  []string
	offset int // index of words[0] in the request argv
}

// data is the stage as it is, every element data, with its positions.
func (st stage) data() stageWords {
	w := stageWords{argv: st.words, offsets: make([]int, len(st.words)), start: st.offset}
	for i := range st.words {
		w.offsets[i] = st.offset + i
	}
	return w
}

// MaxStages is the most stages a pipeline may have. Everyday pipelines
// have a handful; each stage is a process started and confined in turn,
// so this bounds what one call starts before any of its programs runs
// and, with the concurrency bound, the processes the server starts.
const MaxStages = 32

// splitStages splits argv on elements that are exactly "|".
func splitStages(argv []string) ([]stage, error) {
	var out []stage
	start := 0
	for i := 0; i <= len(argv); i++ {
		if i < len(argv) && argv[i] != "|" {
			continue
		}
		if i == start {
			where := "before"
			if i == len(argv) {
				where = "after"
			}
			return nil, reject(CodePipeline, min(i, len(argv)-1), "|", "Empty command %s pipe operator (argument %d): every \"|\" stands between two commands, so a command line neither starts nor ends with one nor holds two in a row", where, min(i, len(argv)-1))
		}
		if len(out) == MaxStages {
			return nil, reject(CodePipelineLength, start-1, "|", "the pipeline has more than %d stages (the \"|\" at argument %d starts stage %d): each stage is a process the call starts and confines, so a call runs at most %d; split the work into several calls", MaxStages, start-1, MaxStages+1, MaxStages)
		}
		out = append(out, stage{words: argv[start:i], offset: start})
		start = i + 1
	}
	return out, nil
}

// unsafeName matches characters a program name may not contain.
var unsafeName = lazyre.New("[\\s;&|<>`$(){}\\[\\]*?!'\"\\\\~#]|\\p{Cc}")

// CheckName reports why name can never be run as a program name
// (whitespace, a shell metacharacter, a control character, an unclean
// path), or nil. Configuration refuses such allowlist entries with it, so
// an entry the policy would never match cannot be configured.
func CheckName(name string) error { return checkName(name, -1) }

func checkName(name string, index int) error {
	if unsafeName.MatchString(name) {
		return reject(CodeUnsafeName, index, name, "Unsafe command name: %q contains whitespace or a shell metacharacter", name)
	}
	if strings.Contains(name, "/") {
		clean := path.Clean(name)
		switch {
		case slices.Contains(strings.Split(name, "/"), ".."):
			return reject(CodeUnsafeName, index, name, "Unsafe command name: %q climbs with \"..\"; name the program (%q, found through PATH) or give its absolute path", name, path.Base(clean))
		case clean != name && !path.IsAbs(name):
			return reject(CodeUnsafeName, index, name, "Unsafe command name: %q is a relative path; name the program (%q, found through PATH) or give its absolute path", name, path.Base(clean))
		case clean != name:
			return reject(CodeUnsafeName, index, name, "Unsafe command name: %q is not a clean path; write it as %q", name, clean)
		}
	}
	return nil
}

func (p *Policy) allowed(name string, index int) (string, error) {
	if len(p.commands) == 0 && len(p.cfg.Patterns) == 0 {
		return "", reject(CodeNoAllowlist, index, name, "No commands are allowed. Please set ALLOW_COMMANDS environment variable.")
	}
	if p.commands[name] {
		return "allowlist.exact:" + name, nil
	}
	// A pattern admits a bare name, found through the child PATH, or the
	// absolute path of a file in a PATH directory (/usr/bin/ls with
	// "/usr/bin/.*"): matched against any path it would let a request pick
	// a file below a matching directory (git/x with "git.*").
	if strings.Contains(name, "/") && !p.inPathDir(name) {
		return "", reject(CodeNotAllowed, index, name, "Command not allowed: %s (a pattern admits program names, or absolute paths in a PATH directory, not other paths)", name)
	}
	for i, re := range p.cfg.Patterns {
		if re.MatchString(name) {
			return "allowlist.pattern:" + p.cfg.PatternSources[i], nil
		}
	}
	return "", reject(CodeNotAllowed, index, name, "Command not allowed: %s", name)
}

// inPathDir reports whether name is an absolute path directly inside a
// directory of the program PATH.
func (p *Policy) inPathDir(name string) bool {
	return filepath.IsAbs(name) && slices.Contains(filepath.SplitList(p.programPath), filepath.Dir(name))
}

func (p *Policy) getenv(name string) (string, bool) {
	if p.cfg.Getenv != nil {
		return p.cfg.Getenv(name)
	}
	return os.LookupEnv(name)
}
