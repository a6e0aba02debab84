package policy

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
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
	// Recognize judges one stage's argv (argvrules.Check: the recognizer
	// of argv[0]'s family); nil judges nothing beyond the allowlist.
	Recognize argvrules.Recognizer
	// ChildEnv is the child-environment configuration: programs are
	// resolved with its ProgramPath, and recognizers see what children
	// inherit (HOME, KUBECONFIG, POSIXLY_CORRECT).
	ChildEnv childenv.Config
	// Getenv looks up the operator's environment; nil is os.LookupEnv
	// (what the server's childenv.Build reads).
	Getenv func(string) (string, bool)
	// AllowedDirs are the directories calls may run in and write to; a
	// program found inside one runs only when allowlisted by its exact
	// absolute path.
	AllowedDirs []string
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

// Plan is an approved request: what the runner may start.
type Plan struct {
	// Stages are the pipeline stages' argv, redirections removed.
	Stages [][]string
	// StdinFile is the "<" target of the first stage ("" if none);
	// StdoutFile the ">"/">>" target of the last stage.
	StdinFile    string
	StdoutFile   string
	StdoutAppend bool
	// Rules says, per stage, which allowlist entry admitted it, e.g.
	// "allowlist.exact:git" or "allowlist.pattern:/usr/bin/.*".
	Rules []string
}

// Evaluate decides argv for a call running in dir (redirection targets
// and output paths are probed under it). It returns a Plan, or a
// *refusal.Rejection.
func (p *Policy) Evaluate(argv []string, dir *workdir.Dir) (*Plan, error) {
	if err := checkWhole(argv); err != nil {
		return nil, p.operatorReason(argv, dir, err)
	}
	stages, err := splitStages(argv)
	if err != nil {
		return nil, err
	}
	plan := &Plan{}
	for i, st := range stages {
		words, err := parseRedirects(st, i == 0, i == len(stages)-1, plan)
		if err != nil {
			return nil, err
		}
		rule, err := p.checkStage(words.argv, st.offset, words.offsets, dir)
		if err != nil {
			return nil, err
		}
		plan.Stages = append(plan.Stages, words.argv)
		plan.Rules = append(plan.Rules, rule)
	}
	if err := probeRedirects(plan, dir); err != nil {
		return nil, err
	}
	return plan, nil
}

// checkWhole applies the rules that look at argv as a whole.
func checkWhole(argv []string) error {
	if len(argv) == 0 {
		return reject(CodeEmpty, -1, "", "Empty command")
	}
	for i, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return reject(CodeNUL, i, a, "Argument %d contains a NUL byte, which no program can receive", i)
		}
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
			return nil, reject(CodePipeline, min(i, len(argv)-1), "|", "Empty command %s pipe operator (argument %d)", where, min(i, len(argv)-1))
		}
		out = append(out, stage{words: argv[start:i], offset: start})
		start = i + 1
	}
	return out, nil
}

// checkStage validates one stage's argv (redirections removed) and returns
// the allowlist rule that admitted it. offsets maps argv positions to the
// request's positions.
func (p *Policy) checkStage(argv []string, stageOffset int, offsets []int, dir *workdir.Dir) (string, error) {
	if len(argv) == 0 || strings.TrimSpace(argv[0]) == "" {
		return "", reject(CodeEmpty, stageOffset, "", "Empty command")
	}
	name := argv[0]
	if err := checkName(name, offsets[0]); err != nil {
		if r, ok := err.(*refusal.Rejection); ok && r.Code == CodeUnsafeName {
			r.Message += splitHint(name)
		}
		return "", err
	}
	if err := shellHabit(name, offsets[0]); err != nil {
		return "", err
	}
	if n, category, ok := Refused(name); ok {
		return "", reject(CodeRefusedProgram, offsets[0], name,
			"Command rejected by default security policy: %s (%s %q is refused whatever the allowlist says)", n, category, name)
	}
	rule, err := p.allowed(name, offsets[0])
	if err != nil {
		return "", err
	}
	res, found, err := p.resolveProgram(name, offsets[0])
	if err != nil {
		return "", err
	}
	if err := p.checkLocation(name, offsets[0], res, found, dir); err != nil {
		return "", err
	}
	if err := checkTargets(name, offsets[0], res); err != nil {
		return "", err
	}
	if err := p.checkSystemDir(name, offsets[0], res); err != nil {
		return "", err
	}
	if err := p.recognize(argv, offsets, p.recognizerContext(dir, res)); err != nil {
		return "", err
	}
	return rule, nil
}

// unsafeName matches characters a program name may not contain.
var unsafeName = regexp.MustCompile("[\\s;&|<>`$(){}\\[\\]*?!'\"\\\\~#]|\\p{Cc}")

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
		if clean != name || slices.Contains(strings.Split(name, "/"), "..") {
			return reject(CodeUnsafeName, index, name, "Unsafe command name: %q is not a clean path (write it as %q without \"..\")", name, clean)
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

func (p *Policy) recognize(argv []string, offsets []int, ctx argvrules.Context) error {
	if p.cfg.Recognize == nil {
		return nil
	}
	r := p.cfg.Recognize(argv, ctx)
	if r == nil {
		return nil
	}
	return r.Shifted(offsets)
}

// inPathDir reports whether name is an absolute path directly inside a
// directory of the program PATH.
func (p *Policy) inPathDir(name string) bool {
	return filepath.IsAbs(name) && slices.Contains(filepath.SplitList(p.programPath), filepath.Dir(name))
}

// String renders a plan for logs and `check`.
func (pl *Plan) String() string {
	var b strings.Builder
	for i, st := range pl.Stages {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, "%q", st)
	}
	return b.String()
}

// EvaluateArgv decides a single argv in which every element is data: no
// pipeline, no redirection, no shell-operator elements (the argv-only
// execute_command tool). argv[0] still goes through the name checks, the
// refusal list, the allowlist and its family's recognizer.
func (p *Policy) EvaluateArgv(argv []string, dir *workdir.Dir) (*Plan, error) {
	if len(argv) == 0 {
		return nil, reject(CodeEmpty, -1, "", "Empty command")
	}
	offsets := make([]int, len(argv))
	for i, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return nil, reject(CodeNUL, i, a, "Argument %d contains a NUL byte, which no program can receive", i)
		}
		offsets[i] = i
	}
	rule, err := p.checkStage(argv, 0, offsets, dir)
	if err != nil {
		return nil, err
	}
	return &Plan{Stages: [][]string{argv}, Rules: []string{rule}}, nil
}
