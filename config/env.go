package config

import (
	"fmt"
	"strings"
)

// Env is the raw environment, one field per variable. The envconfig tags
// name the variable; desc and default are what --help prints.
type Env struct {
	AllowCommands     NameList `envconfig:"ALLOW_COMMANDS" desc:"comma-separated program names to allow (exact match on argv[0]; a name with / matches only that exact path)"`
	AllowedCommands   NameList `envconfig:"ALLOWED_COMMANDS" desc:"alias of ALLOW_COMMANDS; the two lists are united"`
	AllowPatterns     string   `envconfig:"ALLOW_PATTERNS" desc:"comma-separated Go regexps matched in full against argv[0]; whitespace or shell metacharacters are refused at start-up"`
	DefaultTimeout    int      `envconfig:"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS" default:"30" desc:"timeout in seconds when a call gives none"`
	MaxTimeout        int      `envconfig:"MCP_SHELL_MAX_TIMEOUT_SECONDS" default:"300" desc:"largest timeout in seconds a call may ask for; larger values are clamped"`
	OutputLimit       int64    `envconfig:"MCP_SHELL_OUTPUT_LIMIT_BYTES" default:"1048576" desc:"cap in bytes per captured stream (stdout, stderr); redirected output counts too"`
	ChildEnvAllowlist NameList `envconfig:"MCP_SHELL_CHILD_ENV_ALLOWLIST" desc:"comma-separated variable names children may inherit or receive through envs; PATH here delegates PATH"`
	SafePath          string   `envconfig:"MCP_SHELL_SAFE_PATH" default:"/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" desc:"children's PATH and the only PATH used to resolve programs (blank uses the default)"`
	AllowedDirs       NameList `envconfig:"MCP_SHELL_ALLOWED_DIRECTORIES" desc:"comma-separated directories calls may run in; positional arguments come first, and the first directory is the default; default: the server's working directory"`
	MaxConcurrent     int      `envconfig:"MCP_SHELL_MAX_CONCURRENT" default:"16" desc:"largest number of calls running at once; further calls wait"`
	AuditLog          string   `envconfig:"MCP_SHELL_AUDIT_LOG" default:"stderr" desc:"where audit records go: stderr, or a file path (JSON lines, appended)"`
	LogLevel          string   `envconfig:"MCP_SHELL_LOG_LEVEL" default:"info" desc:"diagnostic log level: debug, info, warn or error"`
	GitSubcommands    NameList `envconfig:"MCP_SHELL_GIT_ALLOW_SUBCOMMANDS" desc:"extra git subcommands (e.g. repository aliases) to admit; unknown subcommands are refused otherwise"`
	Tools             NameList `envconfig:"MCP_SHELL_TOOLS" default:"shell_execute" desc:"tools to expose: shell_execute (pipelines, redirection), execute_command (program + args), or both"`
	Transport         string   `envconfig:"MCP_SHELL_TRANSPORT" default:"stdio" desc:"stdio, or http (Streamable HTTP at /mcp, bearer token required)"`
	HTTPAddr          string   `envconfig:"MCP_SHELL_HTTP_ADDR" default:"127.0.0.1:8080" desc:"listen address for the http transport (host:port)"`
	HTTPToken         string   `envconfig:"MCP_SHELL_HTTP_TOKEN" desc:"bearer token clients must send over http (prefer MCP_SHELL_HTTP_TOKEN_FILE)"`
	HTTPTokenFile     string   `envconfig:"MCP_SHELL_HTTP_TOKEN_FILE" desc:"file holding the bearer token for the http transport"`
	HTTPMaxBody       int64    `envconfig:"MCP_SHELL_HTTP_MAX_BODY_BYTES" default:"8388608" desc:"largest HTTP request body in bytes"`
	Sandbox           string   `envconfig:"MCP_SHELL_SANDBOX" default:"auto" desc:"auto: every stage confined by Landlock where the kernel offers ABI 4 (Linux 6.7), else only rlimits and no_new_privs, said in one start-up line; landlock: the same but refuse to start without it; limits: rlimits and no_new_privs only; off: nothing"`
	SandboxReadDirs   NameList `envconfig:"MCP_SHELL_SANDBOX_READ_DIRS" desc:"absolute directories children may read (default /usr,/bin,/sbin,/lib,/lib32,/lib64,/libx32,/etc); families that run programs (make, go, npm, pip, cargo ...) may also execute beneath them, other stages read them without the program directories (/usr/bin ...)"`
	SandboxNetwork    string   `envconfig:"MCP_SHELL_SANDBOX_NETWORK" default:"family" desc:"family: TCP only for stages whose job is the network (curl, wget, docker, kubectl; git, go, npm, pnpm, yarn, pip, cargo subcommands that fetch); deny or allow: for every stage"`
	SandboxExec       NameList `envconfig:"MCP_SHELL_SANDBOX_EXEC" desc:"comma list PROGRAM=HELPER[:HELPER...] widening what one program (argv[0] as in ALLOW_COMMANDS) may execute under Landlock: names looked up in the child PATH, absolute paths (a directory grants what is beneath it), or * to execute like make"`
	SandboxCacheDir   string   `envconfig:"MCP_SHELL_SANDBOX_CACHE_DIR" desc:"absolute directory holding the caches the sandbox gives go, npm, pip, cargo ... (GOCACHE, npm_config_cache, PIP_CACHE_DIR, CARGO_HOME); default mcp-shell-server beneath $XDG_CACHE_HOME or ~/.cache"`
	SandboxBestEffort bool     `envconfig:"MCP_SHELL_SANDBOX_BEST_EFFORT" default:"false" desc:"1/true accepts a kernel with an older Landlock ABI and enforces what it offers"`
	RlimitCPU         *uint64  `envconfig:"MCP_SHELL_RLIMIT_CPU_SECONDS" desc:"RLIMIT_CPU of every child in seconds (0 = inherit; default 0); with MCP_SHELL_SANDBOX=off, setting any MCP_SHELL_RLIMIT_* applies the limits"`
	RlimitAS          *uint64  `envconfig:"MCP_SHELL_RLIMIT_AS_BYTES" desc:"RLIMIT_AS of every child in bytes (0 = inherit; default 0: Go, Java and Node reserve large address ranges)"`
	RlimitNProc       *uint64  `envconfig:"MCP_SHELL_RLIMIT_NPROC" desc:"RLIMIT_NPROC (processes of the server's user; stops fork bombs; not for root) (default 4096 unless MCP_SHELL_SANDBOX=off)"`
	RlimitFSize       *uint64  `envconfig:"MCP_SHELL_RLIMIT_FSIZE_BYTES" desc:"RLIMIT_FSIZE of every child in bytes (default 1073741824 unless MCP_SHELL_SANDBOX=off)"`
	RlimitNoFile      *uint64  `envconfig:"MCP_SHELL_RLIMIT_NOFILE" desc:"RLIMIT_NOFILE of every child (default 1024 unless MCP_SHELL_SANDBOX=off)"`
}

// NameList is a comma-separated list whose entries are trimmed of spaces;
// blank entries are dropped.
type NameList []string

// Decode implements envconfig.Decoder.
func (l *NameList) Decode(value string) error {
	*l = splitList(value)
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
