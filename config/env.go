package config

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
	"github.com/seed-b63acb1b/mcp-shell-server/server"
)

// Env is the raw environment, one field per variable. The env tag names
// the variable and desc is what --help prints; group starts a section
// (the fields after it belong to it until the next group) and example is
// a value worth showing besides the default. Defaults are not tags but
// the values defaultEnv fills in from Go constants, so each default has
// one owner (see defaults.go). The same table, through Variables, is
// rendered into docs/configuration.md and deploy/example.env
// (internal/docgen), so --help and the documents cannot disagree.
type Env struct {
	AllowCommands     NameList `env:"ALLOW_COMMANDS" example:"git,go,make,rg,grep,find,sort" desc:"comma-separated program names to allow (exact match on argv[0]; a name with / matches only that exact path; an entry with whitespace or a shell metacharacter is refused at start-up; a relative name such as ./gradlew is refused, and a program inside an allowed directory runs only by its exact absolute path); with none of ALLOW_COMMANDS, ALLOWED_COMMANDS, ALLOW_PATTERNS set, a built-in read-only profile; set but empty, nothing is allowed" group:"Programs"`
	AllowedCommands   NameList `env:"ALLOWED_COMMANDS" desc:"alias of ALLOW_COMMANDS; the two lists are united"`
	AllowPatterns     string   `env:"ALLOW_PATTERNS" example:"git-.*" desc:"comma-separated Go regexps matched in full against argv[0]; whitespace or shell metacharacters are refused at start-up; a pattern admits program names (and absolute paths directly in a PATH directory), never relative paths"`
	GitSubcommands    NameList `env:"MCP_SHELL_GIT_ALLOW_SUBCOMMANDS" example:"st,lg" desc:"extra git subcommands (e.g. aliases from the user's own ~/.gitconfig; an alias in a repository's configuration is refused) to admit; unknown subcommands are refused otherwise"`
	ConfirmCommands   NameList `env:"MCP_SHELL_CONFIRM_COMMANDS" example:"rm,git" desc:"comma-separated program names (or paths) whose calls wait for the user's answer before they run, asked through the client (MCP elicitation); it only narrows what the allowlist allows: a name matches argv[0], every file it leads to and the program a wrapper (timeout, nice, env, xargs ...) runs; a client that cannot be asked gets a refusal saying so" group:"Confirmation"`
	ConfirmPatterns   string   `env:"MCP_SHELL_CONFIRM_PATTERNS" example:"git push.*,rm -r.*" desc:"comma-separated Go regexps (so none can hold a comma) matched in full against each pipeline stage's argv joined with single spaces, without its redirections (also the argv of the program a wrapper runs, and argv[0] written as its bare name: /usr/bin/git push is also tried as git push); a matching call waits for the user as with MCP_SHELL_CONFIRM_COMMANDS; a pattern that does not compile is refused at start-up"`
	ConfirmTimeout    int      `env:"MCP_SHELL_CONFIRM_TIMEOUT_SECONDS" desc:"seconds the server waits for the user's answer before it refuses the call (the wait holds one of MCP_SHELL_MAX_CONCURRENT's slots)"`
	AllowedDirs       NameList `env:"MCP_SHELL_ALLOWED_DIRECTORIES" desc:"comma-separated directories calls may run in; positional arguments come first, and the first directory is the default; default: the server's working directory" group:"Directories"`
	DefaultTimeout    int      `env:"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS" desc:"timeout in seconds when a shell_execute call gives none (execute_command defaults to 120 s, clamped to the maximum)" group:"Limits"`
	MaxTimeout        int      `env:"MCP_SHELL_MAX_TIMEOUT_SECONDS" desc:"largest timeout in seconds a call may ask for; larger values are clamped"`
	OutputLimit       int64    `env:"MCP_SHELL_OUTPUT_LIMIT_BYTES" desc:"cap in bytes per captured stream (stdout, stderr); a foreground shell_execute call past it is stopped, execute_command and background jobs keep running and discard the rest"`
	RedirectLimit     int64    `env:"MCP_SHELL_REDIRECT_LIMIT_BYTES" desc:"cap in bytes of a file written by \">\" or \">>\"; a call whose output would pass it is stopped and is an error naming the limit, in the foreground and in the background (the file keeps the bytes written)"`
	MaxConcurrent     int      `env:"MCP_SHELL_MAX_CONCURRENT" desc:"largest number of calls running at once; further calls wait. A memory and process bound, not a CPU one: each running call holds at most 2 x MCP_SHELL_OUTPUT_LIMIT_BYTES of captured output, so lower it (or the cap) on a small machine"`
	ChildEnvAllowlist NameList `env:"MCP_SHELL_CHILD_ENV_ALLOWLIST" example:"LANG,LC_ALL" desc:"comma-separated variable names children may inherit or receive through envs; PATH here delegates PATH; names that steer programs (HOME, KUBECONFIG, *_HOME, GOFLAGS, NPM_CONFIG_* ...) are inherited but never accepted per call, and warned about at start-up" group:"Child environment"`
	ChildHome         string   `env:"MCP_SHELL_CHILD_HOME" desc:"children's HOME (git reads the user's identity from ~/.gitconfig, go keeps its caches under it); default: the server's HOME; none passes no HOME. Children also get USER, LOGNAME, LANG, LC_ALL and LC_CTYPE when the server has them; a call can never set HOME"`
	SafePath          string   `env:"MCP_SHELL_SAFE_PATH" desc:"children's PATH and the only PATH used to resolve programs (blank uses the default)"`
	Tools             NameList `env:"MCP_SHELL_TOOLS" example:"shell_execute,execute_command" desc:"tools to expose: shell_execute (pipelines, redirection), execute_command (program + args), or both" group:"Tools and transport"`
	Transport         string   `env:"MCP_SHELL_TRANSPORT" example:"http" desc:"stdio, or http (Streamable HTTP at /mcp, bearer token required)"`
	HTTPAddr          string   `env:"MCP_SHELL_HTTP_ADDR" example:"0.0.0.0:8080" desc:"listen address for the http transport (host:port); a non-loopback address needs a reverse proxy or a trusted network"`
	HTTPToken         string   `env:"MCP_SHELL_HTTP_TOKEN" desc:"bearer token clients must send over http (prefer MCP_SHELL_HTTP_TOKEN_FILE): at least 16 characters; a known placeholder or a value with too little entropy is refused at start-up"`
	HTTPTokenFile     string   `env:"MCP_SHELL_HTTP_TOKEN_FILE" example:"/run/secrets/mcp-shell/token" desc:"file holding the bearer token for the http transport (the same rules as MCP_SHELL_HTTP_TOKEN); it must lie outside the allowed directories"`
	HTTPMaxBody       int64    `env:"MCP_SHELL_HTTP_MAX_BODY_BYTES" desc:"largest HTTP request body in bytes"`
	HTTPMaxSessions   int      `env:"MCP_SHELL_HTTP_MAX_SESSIONS" desc:"most MCP sessions open at once over http (protocols before 2026-07-28); past it the least recently used idle one is closed, and with none idle a new one gets 503"`
	AuditLog          string   `env:"MCP_SHELL_AUDIT_LOG" example:"/var/log/mcp-shell/audit.jsonl" desc:"where audit records go: stderr, or a file path (JSON lines, appended, created mode 0600)" group:"Audit and diagnostics"`
	LogLevel          string   `env:"MCP_SHELL_LOG_LEVEL" desc:"diagnostic log level: debug, info, warn or error"`
	Sandbox           string   `env:"MCP_SHELL_SANDBOX" desc:"auto: every stage confined by Landlock where the kernel offers ABI 4 (Linux 6.7), else only rlimits and no_new_privs, said in one start-up line; landlock: the same but refuse to start without it; limits: rlimits and no_new_privs only; off: nothing" group:"Sandbox"`
	SandboxReadDirs   NameList `env:"MCP_SHELL_SANDBOX_READ_DIRS" desc:"absolute directories children may read; families that run programs (make, go, npm, pip, cargo ...) may also execute beneath them, other stages read them without the program directories (/usr/bin ...). Replaces the default list, so to widen it set the whole list, e.g. the default plus /proc: /usr,/bin,/sbin,/lib,/lib32,/lib64,/libx32,/etc,/proc (without the loader's and libraries' directories dynamically linked programs exit 127; the server warns at start-up)"`
	SandboxNetwork    string   `env:"MCP_SHELL_SANDBOX_NETWORK" desc:"family: TCP only for stages whose job is the network (curl, wget, docker, kubectl; git, go, npm, pnpm, yarn, pip, cargo subcommands that fetch); deny or allow: for every stage"`
	SandboxExec       NameList `env:"MCP_SHELL_SANDBOX_EXEC" example:"/opt/tools/deploy.sh=git:rsync" desc:"comma list PROGRAM=HELPER[:HELPER...] widening what one program (argv[0] as in ALLOW_COMMANDS) may execute under Landlock: names looked up in the child PATH, absolute paths (a directory grants what is beneath it), or * to execute like make"`
	SandboxCacheDir   string   `env:"MCP_SHELL_SANDBOX_CACHE_DIR" example:"/var/cache/mcp-shell-server" desc:"absolute directory holding the caches the sandbox gives go, npm, pip, cargo ... (GOCACHE, npm_config_cache, PIP_CACHE_DIR, CARGO_HOME); default mcp-shell-server beneath $XDG_CACHE_HOME or ~/.cache"`
	SandboxUserCaches bool     `env:"MCP_SHELL_SANDBOX_USER_CACHES" desc:"1/true gives stages the user's own caches (GOCACHE, GOMODCACHE, npm's) where they exist and only this user can write them, so builds start warm; a confined stage can then plant entries that the user's later unconfined builds trust, so by default stages get the sandbox's own caches, kept between calls"`
	SandboxCreds      NameList `env:"MCP_SHELL_SANDBOX_CREDENTIALS" example:"npm,pip" desc:"families whose stages read the user's real registry credentials (npm, npx, pnpm, yarn, pip; 1/all: every one): ~/.npmrc, ~/.yarnrc, ~/.yarnrc.yml, ~/.config/pnpm, pip.conf. Their scripts can read the tokens (npm's lifecycle scripts, setup.py and build backends run in the same stage) and, where the subcommand has the network, send them out; by default these families get a copy without the credentials (auth tokens, passwords, client certificates, user:password in URLs; the registry and every other setting kept), so an install from a private registry fails with its 401"`
	SandboxBestEffort bool     `env:"MCP_SHELL_SANDBOX_BEST_EFFORT" desc:"1/true accepts a kernel with an older Landlock ABI and enforces what it offers"`
	RlimitCPU         *uint64  `env:"MCP_SHELL_RLIMIT_CPU_SECONDS" desc:"RLIMIT_CPU of every child in seconds (0 = inherit); setting any MCP_SHELL_RLIMIT_* turns the launcher on, and unset ones then take their default" group:"Resource limits of every child"`
	RlimitAS          *uint64  `env:"MCP_SHELL_RLIMIT_AS_BYTES" desc:"RLIMIT_AS of every child in bytes (0 = inherit, the default: Go, Java and Node reserve large address ranges)"`
	RlimitNProc       *uint64  `env:"MCP_SHELL_RLIMIT_NPROC" desc:"RLIMIT_NPROC (processes of the server's user; stops fork bombs; not for root)"`
	RlimitFSize       *uint64  `env:"MCP_SHELL_RLIMIT_FSIZE_BYTES" desc:"RLIMIT_FSIZE of every child in bytes"`
	RlimitNoFile      *uint64  `env:"MCP_SHELL_RLIMIT_NOFILE" desc:"RLIMIT_NOFILE of every child"`
	MaxJobs           int      `env:"MCP_SHELL_MAX_JOBS" desc:"background jobs running at once (background: true, or the adaptive hand-off); up to 64 more wait queued; 0 turns jobs and the job tools off" group:"Background jobs"`
	MaxJobSeconds     int      `env:"MCP_SHELL_MAX_JOB_SECONDS" desc:"longest a background job may run, and its timeout when the call gives none"`
	AdaptiveSeconds   int      `env:"MCP_SHELL_ADAPTIVE_SECONDS" desc:"a foreground call still running after this many seconds becomes a background job and the call returns its id (its timeout is unchanged); 0 = off, calls wait"`
	RetainBytes       int64    `env:"MCP_SHELL_RETAIN_BYTES" desc:"bytes of each stream of each call kept on disk for read_output, stdin_output_id and shell-output:// resources; the rest is drained and discarded (truncated)" group:"Retained output and result text"`
	RetainQuota       int64    `env:"MCP_SHELL_RETAIN_QUOTA_BYTES" desc:"bytes of retained output kept in all; the oldest finished outputs are deleted to make room; 0 turns retention off (then set MCP_SHELL_MAX_JOBS=0 too)"`
	RetainTTL         int      `env:"MCP_SHELL_RETAIN_TTL_SECONDS" desc:"seconds a retained output is kept after its call ended"`
	RetainDir         string   `env:"MCP_SHELL_RETAIN_DIR" desc:"directory in which the server creates its private output directory (mode 0700, removed at exit); must lie outside the allowed directories"`
	TextLimit         int64    `env:"MCP_SHELL_TEXT_LIMIT_BYTES" desc:"bytes of each stream a shell_execute result's text carries (head and tail, with a marker naming the output_id for the rest); 0 = the whole captured output, as the reference server"`
}

// defaultEnv is the Env of an empty environment. A variable that is unset
// or set to "" keeps these values (env fills only non-empty ones).
func defaultEnv() Env {
	return Env{
		DefaultTimeout:  defaultTimeoutSeconds,
		MaxTimeout:      maxTimeoutSeconds,
		OutputLimit:     runner.DefaultOutputLimit,
		RedirectLimit:   defaultRedirectLimit,
		SafePath:        childenv.DefaultPath,
		MaxConcurrent:   defaultMaxConcurrent,
		ConfirmTimeout:  int(server.DefaultConfirmTimeout / time.Second),
		AuditLog:        defaultAuditLog,
		LogLevel:        defaultLogLevel,
		Tools:           NameList{defaultTool},
		Transport:       defaultTransport,
		HTTPAddr:        defaultHTTPAddr,
		HTTPMaxBody:     defaultHTTPMaxBody,
		HTTPMaxSessions: defaultHTTPMaxSessions,
		Sandbox:         defaultSandbox,
		SandboxReadDirs: slices.Clone(sandbox.DefaultReadDirs),
		SandboxNetwork:  defaultSandboxNetwork,
		MaxJobs:         defaultMaxJobs,
		MaxJobSeconds:   defaultMaxJobSeconds,
		AdaptiveSeconds: defaultAdaptiveSeconds,
		RetainBytes:     defaultRetainBytes,
		RetainQuota:     defaultRetainQuota,
		RetainTTL:       defaultRetainTTLSeconds,
		RetainDir:       defaultRetainDir,
		TextLimit:       defaultTextLimit,
	}
}

// rlimit pairs an MCP_SHELL_RLIMIT_* field with the launcher limit it sets.
type rlimit struct {
	field **uint64
	limit *uint64
}

func (e *Env) rlimits(l *sandbox.Limits) []rlimit {
	return []rlimit{{&e.RlimitCPU, &l.CPUSeconds}, {&e.RlimitAS, &l.ASBytes}, {&e.RlimitNProc, &l.NProc}, {&e.RlimitFSize, &l.FSizeBytes}, {&e.RlimitNoFile, &l.NoFile}}
}

// variable is one field of Env.
type variable struct {
	name, desc string
	// group is the section the variable belongs to: the group tag of the
	// nearest field at or before it.
	group string
	// example is a value worth showing besides the default, or "".
	example string
	index   int // field index in Env
}

// variables lists Env's fields in declaration order.
var variables = sync.OnceValue(func() []variable {
	typ := reflect.TypeFor[Env]()
	out := make([]variable, typ.NumField())
	group := ""
	for i := range out {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("env"), ",")
		if g := f.Tag.Get("group"); g != "" {
			group = g
		}
		out[i] = variable{name: name, desc: f.Tag.Get("desc"), group: group, example: f.Tag.Get("example"), index: i}
	}
	return out
})

// readEnv fills an Env from lookup. env.Options.Environment replaces the
// process environment as the library's source, so only the variables Env
// declares are looked up and the process environment is never written.
func readEnv(lookup func(string) (string, bool)) (Env, error) {
	environ := map[string]string{} // never nil: a nil map means os.Environ to env
	for _, v := range variables() {
		if value, ok := lookup(v.name); ok {
			environ[v.name] = value
		}
	}
	e := defaultEnv()
	err := env.ParseWithOptions(&e, env.Options{Environment: environ, FuncMap: parsers})
	return e, fromEnvError(err)
}

// parsers replace the library's number and boolean parsing: numbers are
// decimal only (strconv with base 10 would still read "010" as ten, which
// an operator may have meant as octal eight, as the Go-syntax reader this
// replaced did), and errors say what is accepted.
var parsers = map[reflect.Type]env.ParserFunc{
	reflect.TypeFor[int]():   func(v string) (any, error) { n, err := parseInt(v, strconv.IntSize); return int(n), err },
	reflect.TypeFor[int64](): func(v string) (any, error) { return parseInt(v, 64) },
	reflect.TypeFor[uint64](): func(v string) (any, error) {
		if err := checkDecimal(v); err != nil {
			return uint64(0), err
		}
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return uint64(0), fmt.Errorf("%q is out of range", v)
		}
		return n, nil
	},
	reflect.TypeFor[bool](): func(v string) (any, error) {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, fmt.Errorf("%q is not a boolean (true, false, 1 or 0)", v)
		}
		return b, nil
	},
}

// decimalSyntax is the accepted integer syntax: digits, without sign,
// leading zero, underscore or base prefix.
var decimalSyntax = lazyre.New(`^(0|[1-9][0-9]*)$`)

func checkDecimal(v string) error {
	if !decimalSyntax.MatchString(v) {
		return fmt.Errorf("%q is not a decimal integer (digits only: no sign, leading zero, underscore or 0x)", v)
	}
	return nil
}

func parseInt(v string, bits int) (int64, error) {
	if err := checkDecimal(v); err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(v, 10, bits)
	if err != nil {
		return 0, fmt.Errorf("%q is out of range", v)
	}
	return n, nil
}

// fromEnvError names the variable of the library's first parse error.
func fromEnvError(err error) error {
	if err == nil {
		return nil
	}
	var pe env.ParseError
	if errors.As(err, &pe) {
		if f, ok := reflect.TypeFor[Env]().FieldByName(pe.Name); ok {
			return &Error{Var: variables()[f.Index[0]].name, Problem: pe.Err.Error()}
		}
	}
	return &Error{Var: "environment", Problem: err.Error()}
}

// NameList is a comma-separated list whose entries are trimmed of spaces;
// blank entries are dropped.
type NameList []string

// UnmarshalText implements encoding.TextUnmarshaler, which env uses.
func (l *NameList) UnmarshalText(value []byte) error {
	*l = splitList(string(value))
	return nil
}

func splitList(value string) []string {
	var out []string
	for _, part := range strings.Split(value, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Error is a configuration error: Var names the variable, Problem says what
// is wrong with its value.
type Error struct {
	Var     string
	Problem string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Var, e.Problem) }

// LookupMap returns a lookup over m, for Parse.
func LookupMap(m map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := m[name]
		return v, ok
	}
}
