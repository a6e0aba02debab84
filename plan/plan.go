package plan

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// Call is one approved call: a pipeline of one or more stages, run
// without a shell in Dir.
type Call struct {
	// Dir is the pinned working directory of every stage; the "<" and ">"
	// files open through it.
	Dir *workdir.Dir `json:"-"`
	// Stages are the pipeline's stages, in order.
	Stages []Stage `json:"stages"`
	// StdinFile is the "<" target of the first stage, relative to Dir (""
	// if none); StdoutFile the ">" or ">>" target of the last stage, with
	// StdoutAppend for ">>".
	StdinFile    string `json:"stdin_file,omitempty"`
	StdoutFile   string `json:"stdout_file,omitempty"`
	StdoutAppend bool   `json:"stdout_append,omitempty"`
	// TempDir is the call's private temporary directory: every stage's
	// TMPDIR (unless the operator's environment names one) and writable
	// under its Confinement; "" when the call is not confined.
	TempDir string `json:"temp_dir,omitempty"`
	// Confirm are the confirm-tier rules the call matched, one per
	// matching stage: the user must accept the call before it runs (the
	// server asks through the client; `check` says so). Empty when the
	// tier does not apply.
	Confirm []Confirmation `json:"confirm,omitempty"`

	releaseOnce sync.Once
	release     func(string)
}

// Stage is one pipeline stage.
type Stage struct {
	// Argv is the stage's argv with the redirections removed; Argv[0] is
	// the program name as the client sent it.
	Argv []string `json:"argv"`
	// Rule is the allowlist entry that admitted the stage, e.g.
	// "allowlist.exact:git" or "allowlist.pattern:/usr/bin/.*".
	Rule string `json:"rule"`
	// Program is where Argv[0] leads.
	Program Program `json:"program"`
	// Judges are the families whose recognizers judged Argv (the family of
	// Argv[0]'s name and of the file that runs, when they differ).
	Judges []string `json:"judges,omitempty"`
	// Family is the family whose facts confine the stage: the family of the
	// file that runs (of the name, behind a multi-call binary); "" for a
	// program no family covers (a leaf).
	Family string `json:"family,omitempty"`
	// Dialect is the implementation the recognizer read Argv as (awk:
	// "gawk", "mawk", "busybox", or all of them when it could not tell).
	Dialect string `json:"dialect,omitempty"`
	// Subcommands are the subcommands Argv runs as Family's grammar reads
	// them (git fetch, npm install ...): the stage's network follows them.
	Subcommands []string `json:"subcommands,omitempty"`
	// Env is the stage's complete environment, "NAME=value" entries sorted
	// by name, each name once.
	Env []string `json:"-"`
	// Confinement is what the kernel sandbox lets the stage do.
	Confinement Confinement `json:"sandbox"`
	// Outputs are the paths the stage's options name for writing, as the
	// recognizer resolved and contained them (relative to Dir).
	Outputs []string `json:"outputs,omitempty"`
	// Wrapped is the stage a wrapper program runs (timeout, nice, env,
	// xargs ...), judged as a call of its own: its Argv[0] is the name as
	// the client sent it, its Program the file the wrapper executes (by
	// Program.Found, which replaces the name in this stage's Argv), its
	// Confinement the one this stage gets, with the wrapper's own file
	// added. Nil when the program wraps nothing.
	Wrapped *Stage `json:"wrapped,omitempty"`
}

// Program is a resolved Argv[0]. When the name was not found, Found is
// empty and Err says why: the stage cannot start, which the runner reports
// as a launch failure.
type Program struct {
	childenv.Resolution
	// Err is the lookup error of a name that was not found.
	Err error `json:"-"`
}

// Confinement is what the kernel sandbox lets one stage do. Everything
// it does not list is denied where the kernel can deny it.
type Confinement struct {
	// Mode is the sandbox mode the stage runs under: "off", "limits" or
	// "landlock" (only then do the lists below apply).
	Mode string `json:"mode"`
	// Exec are the files and trees the stage may execute: its program,
	// the program's interpreters and its family's helpers.
	Exec []string `json:"exec,omitempty"`
	// RunAny lets the stage also execute beneath Read and Write: its
	// family's job is to run other programs (make, go, npm ...).
	RunAny bool `json:"run_any,omitempty"`
	// Read are the trees the stage may read.
	Read []string `json:"read,omitempty"`
	// Write are the trees the stage may read and write; each must exist
	// when the stage starts.
	Write []string `json:"write,omitempty"`
	// Create are the directories of Write the launcher creates (mode 0700)
	// before the stage starts: the family's cache directories.
	Create []string `json:"create,omitempty"`
	// Network lets the stage use the network; NetworkReason says why.
	Network       bool   `json:"network"`
	NetworkReason string `json:"network_reason,omitempty"`
	// Sockets are the UNIX sockets of its family's agents (gpg-agent)
	// the stage may connect to, network or not; AgentsReason says
	// why.
	Sockets      []string `json:"sockets,omitempty"`
	AgentsReason string   `json:"agents_reason,omitempty"`
}

// Confirmation is why one stage of an approved call waits for the user:
// the confirm-tier rule it matched.
type Confirmation struct {
	// Stage is the index of the stage in Stages.
	Stage int `json:"stage"`
	// Rule is the rule that matched: "confirm.command:NAME" or
	// "confirm.pattern:RE" (the operator's text).
	Rule string `json:"rule"`
}

// SetTempDir records the call's private temporary directory and how to
// give it back (Close calls release once).
func (c *Call) SetTempDir(dir string, release func(string)) {
	c.TempDir, c.release = dir, release
}

// Close releases the call's resources: the pinned working directory and
// the temporary directory. Call it once every process of the call is
// gone; later calls do nothing. A nil Call is a no-op.
func (c *Call) Close() {
	if c == nil {
		return
	}
	c.releaseOnce.Do(func() {
		c.Dir.Close()
		if c.release != nil && c.TempDir != "" {
			c.release(c.TempDir)
		}
	})
}

// Rules are the allowlist entries that admitted the stages, in order.
func (c *Call) Rules() []string {
	out := make([]string, len(c.Stages))
	for i, st := range c.Stages {
		out[i] = st.Rule
	}
	return out
}

// Argvs are the stages' argv, in order.
func (c *Call) Argvs() [][]string {
	out := make([][]string, len(c.Stages))
	for i, st := range c.Stages {
		out[i] = st.Argv
	}
	return out
}

// EnvNames are the names of every variable a stage of the call gets,
// sorted, each once: what the audit record's child_env says.
func (c *Call) EnvNames() []string {
	var out []string
	for _, st := range c.Stages {
		for _, kv := range st.Env {
			name, _, _ := strings.Cut(kv, "=")
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// String renders the stages for logs and `check`.
func (c *Call) String() string {
	var b strings.Builder
	for i, st := range c.Stages {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, "%q", st.Argv)
	}
	return b.String()
}
