package config

import (
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// BuiltinProfile is the read-only allowlist used when none of
// ALLOW_COMMANDS, ALLOWED_COMMANDS and ALLOW_PATTERNS is set, so that the
// server is useful out of the box without delegating any writer. (sort is
// in it because its recognizer refuses -o, -T and --compress-program.)
var BuiltinProfile = []string{
	"basename", "cat", "cut", "date", "diff", "dirname", "du", "echo", "false",
	"file", "grep", "head", "ls", "pwd", "realpath", "sort", "stat", "tail",
	"tr", "true", "uniq", "wc",
}

// Config is the validated configuration.
type Config struct {
	// Commands is the sorted union of ALLOW_COMMANDS and ALLOWED_COMMANDS,
	// or BuiltinProfile when UsingBuiltinProfile.
	Commands []string
	// Patterns are ALLOW_PATTERNS compiled as full-match expressions;
	// PatternSources keeps the operator's text, in order.
	Patterns       []*regexp.Regexp
	PatternSources []string
	// UsingBuiltinProfile reports that no allowlist variable was set.
	UsingBuiltinProfile bool
	// Confirm is the confirm tier (MCP_SHELL_CONFIRM_COMMANDS sorted,
	// MCP_SHELL_CONFIRM_PATTERNS compiled as full-match expressions);
	// ConfirmTimeout how long a held call waits for the user.
	Confirm        policy.Confirm
	ConfirmTimeout time.Duration

	DefaultTimeout time.Duration
	MaxTimeout     time.Duration
	// OutputLimit is the cap in bytes per stream.
	OutputLimit int64
	// RedirectLimit is the cap in bytes of a ">"/">>" file.
	RedirectLimit int64

	ChildEnvAllowlist []string
	// ChildHome is the children's HOME ("" = none).
	ChildHome string
	// SafePath is the child PATH (never blank: childenv.DefaultPath
	// replaces a blank value, and with MCP_SHELL_SAFE_PATH unset the
	// installed Toolchains follow it).
	SafePath string
	// Toolchains are the toolchains whose directories were added to the
	// default child PATH (and read directories); ToolchainsSkipped the
	// directories left out, with why.
	Toolchains        []childenv.Toolchain
	ToolchainsSkipped []string
	// AllowedDirs are absolute, symlink-resolved directories; calls run
	// only inside them. AllowedDirs[0] resolves relative directories.
	AllowedDirs []string

	MaxConcurrent  int
	AuditLog       string
	LogLevel       slog.Level
	GitSubcommands []string

	// Tools are the tool names to expose.
	Tools []string
	// Transport is "stdio" or "http"; the HTTP fields apply to "http".
	Transport string
	HTTPAddr  string
	HTTPToken string
	// HTTPTokenFile is where HTTPToken was read from, or "".
	HTTPTokenFile string
	HTTPMaxBody   int64
	// HTTPMaxSessions caps the open MCP sessions (protocols before
	// 2026-07-28).
	HTTPMaxSessions int

	// SandboxMode is "auto", "landlock", "limits" or "off", as set.
	// Launch is true when children start through the launcher (every mode
	// but off, or off with an MCP_SHELL_RLIMIT_* set); Sandbox is its
	// configuration.
	SandboxMode string
	Launch      bool
	Sandbox     sandbox.Config

	// Jobs configures background jobs, retained output and the text limit.
	Jobs Jobs
}

// PolicySettings are the policy's part of the configuration.
func (c *Config) PolicySettings() policy.Settings {
	return policy.Settings{Commands: c.Commands, Patterns: c.Patterns, PatternSources: c.PatternSources, GitSubcommands: c.GitSubcommands,
		ChildEnv: c.ChildEnv(), AllowedDirs: c.AllowedDirs, Confirm: c.Confirm}
}

// ChildEnv is the child-environment configuration: the one value every
// stage's environment is built from (policy.Settings.ChildEnv).
func (c *Config) ChildEnv() childenv.Config {
	return childenv.Config{Allowlist: c.ChildEnvAllowlist, SafePath: c.SafePath, Home: c.ChildHome}
}

// Load reads the process environment and validates it, with the built-in
// profile when none of ALLOW_COMMANDS, ALLOWED_COMMANDS and ALLOW_PATTERNS
// is set: the profile is a convenience for a server started with no
// configuration at all. dirs are the positional directory arguments (they
// come before MCP_SHELL_ALLOWED_DIRECTORIES). The error is a *Error naming
// the variable.
func Load(dirs []string) (*Config, error) {
	return parse(os.LookupEnv, dirs, true)
}

// Parse is Load under the environment lookup answers for (it serves
// `check --jsonl`, which judges each line under its own environment). It
// never applies the built-in profile: an explicit environment without an
// allowlist allows nothing, as in the reference server. It reads nothing
// from the process environment and never changes it, so it may run
// concurrently with anything. With no dirs and no
// MCP_SHELL_ALLOWED_DIRECTORIES the current working directory is allowed.
func Parse(lookup func(string) (string, bool), dirs []string) (*Config, error) {
	return parse(lookup, dirs, false)
}

// parse reads and validates; builtinAllowed applies the built-in profile
// when no allowlist variable is set.
func parse(lookup func(string) (string, bool), dirs []string, builtinAllowed bool) (*Config, error) {
	env, err := readEnv(lookup)
	if err != nil {
		return nil, err
	}
	builtin := builtinAllowed
	for _, name := range []string{"ALLOW_COMMANDS", "ALLOWED_COMMANDS", "ALLOW_PATTERNS"} {
		if _, set := lookup(name); set {
			builtin = false
		}
	}
	env.ChildHome = childHome(env.ChildHome, lookup)
	if _, set := lookup("MCP_SHELL_RETAIN_DIR"); !set {
		env.RetainDir = "" // the default: setJobs may fall back
	}
	cfg, err := validate(env, dirs, builtin)
	if err != nil {
		return nil, err
	}
	safe, _ := lookup("MCP_SHELL_SAFE_PATH")
	read, _ := lookup("MCP_SHELL_SANDBOX_READ_DIRS")
	cfg.addToolchains(lookup, strings.TrimSpace(safe) != "", strings.TrimSpace(read) != "")
	return cfg, nil
}

// childHome is MCP_SHELL_CHILD_HOME: unset or empty means the server's own
// HOME (if absolute), "none" means no HOME at all.
func childHome(v string, lookup func(string) (string, bool)) string {
	switch v = strings.TrimSpace(v); v {
	case "":
		// The server's own HOME, when it is a usable one: a relative or
		// odd HOME of the server's environment means none, not a
		// configuration error.
		if home, _ := lookup("HOME"); filepath.IsAbs(home) {
			return home
		}
		return ""
	case "none":
		return ""
	}
	return v
}

func validate(env Env, dirs []string, builtin bool) (*Config, error) {
	cfg := &Config{
		ChildEnvAllowlist:   env.ChildEnvAllowlist,
		ChildHome:           env.ChildHome,
		SafePath:            env.SafePath,
		MaxConcurrent:       env.MaxConcurrent,
		AuditLog:            strings.TrimSpace(env.AuditLog),
		GitSubcommands:      env.GitSubcommands,
		UsingBuiltinProfile: builtin,
	}
	if strings.TrimSpace(cfg.SafePath) == "" {
		cfg.SafePath = childenv.DefaultPath
	}
	// The platform's list separator (";" on Windows, where ":" follows
	// the drive letter), as the lookup splits it (childenv).
	for _, entry := range filepath.SplitList(cfg.SafePath) {
		if !filepath.IsAbs(entry) {
			return nil, &Error{Var: "MCP_SHELL_SAFE_PATH", Problem: fmt.Sprintf("entry %q is not an absolute directory: an empty or relative entry would make programs in the working directory runnable", entry)}
		}
	}
	if cfg.ChildHome != "" && !filepath.IsAbs(cfg.ChildHome) {
		return nil, &Error{Var: "MCP_SHELL_CHILD_HOME", Problem: fmt.Sprintf("%q is not an absolute directory (or none)", cfg.ChildHome)}
	}
	steps := []func() error{
		func() error { return cfg.setCommands(env, builtin) },
		func() error { return cfg.setPatterns(env.AllowPatterns) },
		func() error { return cfg.setConfirm(env) },
		func() error { return cfg.setLimits(env) },
		func() error { return cfg.setDirs(dirs, env.AllowedDirs) },
		func() error { return cfg.setLogLevel(env.LogLevel) },
		func() error { return checkNames("MCP_SHELL_CHILD_ENV_ALLOWLIST", cfg.ChildEnvAllowlist) },
		func() error { return checkServerNames(cfg.ChildEnvAllowlist) },
		func() error { return cfg.setTools(env.Tools) },
		func() error { return cfg.setTransport(env) },
		func() error { return cfg.setSandbox(env) },
		func() error { return cfg.setJobs(env) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	if cfg.AuditLog == "" {
		return nil, &Error{Var: "MCP_SHELL_AUDIT_LOG", Problem: "must be stderr or a file path"}
	}
	return cfg, nil
}

func (cfg *Config) setCommands(env Env, builtin bool) error {
	if builtin {
		cfg.Commands = slices.Clone(BuiltinProfile)
		return nil
	}
	for _, list := range []struct {
		name    string
		entries []string
	}{{"ALLOW_COMMANDS", env.AllowCommands}, {"ALLOWED_COMMANDS", env.AllowedCommands}} {
		for _, e := range list.entries {
			if err := policy.CheckName(e); err != nil {
				return &Error{Var: list.name, Problem: fmt.Sprintf("%v; an entry is one program name or path, never a command line, so it would match nothing", err)}
			}
		}
	}
	all := append(slices.Clone([]string(env.AllowCommands)), env.AllowedCommands...)
	slices.Sort(all)
	cfg.Commands = slices.Compact(all)
	return nil
}

// unsafePattern matches what a command-name pattern may not contain: it
// describes names, never shell text.
var unsafePattern = lazyre.New("[\\s;&|<>`]")

func (cfg *Config) setPatterns(raw string) error {
	for _, src := range splitList(raw) {
		if unsafePattern.MatchString(src) {
			return &Error{Var: "ALLOW_PATTERNS", Problem: fmt.Sprintf("unsafe allowed command pattern %q: whitespace and shell metacharacters are not allowed", src)}
		}
		re, err := regexp.Compile(`^(?:` + src + `)$`)
		if err != nil {
			return &Error{Var: "ALLOW_PATTERNS", Problem: fmt.Sprintf("pattern %q does not compile: %v", src, err)}
		}
		cfg.Patterns = append(cfg.Patterns, re)
		cfg.PatternSources = append(cfg.PatternSources, src)
	}
	return nil
}

func (cfg *Config) setLimits(env Env) error {
	positive := []struct {
		name  string
		value int64
	}{
		{"MCP_SHELL_DEFAULT_TIMEOUT_SECONDS", int64(env.DefaultTimeout)},
		{"MCP_SHELL_MAX_TIMEOUT_SECONDS", int64(env.MaxTimeout)},
		{"MCP_SHELL_OUTPUT_LIMIT_BYTES", env.OutputLimit},
		{"MCP_SHELL_REDIRECT_LIMIT_BYTES", env.RedirectLimit},
		{"MCP_SHELL_MAX_CONCURRENT", int64(env.MaxConcurrent)},
	}
	for _, p := range positive {
		if p.value <= 0 {
			return &Error{Var: p.name, Problem: fmt.Sprintf("must be a positive integer, got %d", p.value)}
		}
	}
	if env.DefaultTimeout > env.MaxTimeout {
		return &Error{Var: "MCP_SHELL_DEFAULT_TIMEOUT_SECONDS", Problem: fmt.Sprintf("%d exceeds MCP_SHELL_MAX_TIMEOUT_SECONDS (%d)", env.DefaultTimeout, env.MaxTimeout)}
	}
	const maxSeconds = 7 * 24 * 3600 // keeps time.Duration far from overflow
	if env.MaxTimeout > maxSeconds {
		return &Error{Var: "MCP_SHELL_MAX_TIMEOUT_SECONDS", Problem: fmt.Sprintf("must be at most %d", maxSeconds)}
	}
	cfg.DefaultTimeout = time.Duration(env.DefaultTimeout) * time.Second
	cfg.MaxTimeout = time.Duration(env.MaxTimeout) * time.Second
	cfg.OutputLimit, cfg.RedirectLimit = env.OutputLimit, env.RedirectLimit
	return nil
}

// setDirs sets the allowed directories: the positional arguments first
// (so the first of them is the default working directory), then
// MCP_SHELL_ALLOWED_DIRECTORIES, else the working directory.
func (cfg *Config) setDirs(args, fromEnv []string) error {
	add := func(source string, dirs []string) error {
		for _, d := range dirs {
			resolved, err := resolveDir(d)
			if err != nil {
				return &Error{Var: source, Problem: err.Error()}
			}
			if !slices.Contains(cfg.AllowedDirs, resolved) {
				cfg.AllowedDirs = append(cfg.AllowedDirs, resolved)
			}
		}
		return nil
	}
	if err := add("directory argument", args); err != nil {
		return err
	}
	if err := add("MCP_SHELL_ALLOWED_DIRECTORIES", fromEnv); err != nil {
		return err
	}
	if len(cfg.AllowedDirs) > 0 {
		return nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return &Error{Var: "MCP_SHELL_ALLOWED_DIRECTORIES", Problem: "cannot read the working directory: " + err.Error()}
	}
	return add("MCP_SHELL_ALLOWED_DIRECTORIES", []string{wd})
}

func resolveDir(d string) (string, error) {
	abs, err := filepath.Abs(d)
	if err != nil {
		return "", fmt.Errorf("directory %q: %w", d, err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("directory %q does not exist", d)
	}
	fi, err := os.Stat(resolved)
	if err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%q is not a directory", d)
	}
	return resolved, nil
}

func (cfg *Config) setLogLevel(s string) error {
	if err := cfg.LogLevel.UnmarshalText([]byte(strings.TrimSpace(s))); err != nil {
		return &Error{Var: "MCP_SHELL_LOG_LEVEL", Problem: fmt.Sprintf("%q is not one of debug, info, warn, error", s)}
	}
	return nil
}

var envName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

func checkNames(variable string, names []string) error {
	for _, n := range names {
		if !envName.MatchString(n) {
			return &Error{Var: variable, Problem: fmt.Sprintf("%q is not a valid environment variable name", n)}
		}
	}
	return nil
}

// Usage writes the table of variables, defaults and meanings to w (the
// --help text).
func Usage(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "Environment (unset or empty means the default; the MCP_SHELL_RLIMIT_* defaults apply with the launcher):")
	fmt.Fprintln(tw, "VARIABLE\tDEFAULT\tMEANING")
	for _, v := range Variables() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Name, v.Default, v.Desc)
	}
	return tw.Flush()
}

// Variable is one row of the table of variables the server reads: what
// --help prints (Usage), and what docs/configuration.md and
// deploy/example.env are generated from.
type Variable struct {
	// Name is the variable's name.
	Name string
	// Group is the title of the section the variable belongs to.
	Group string
	// Default is the default as --help shows it ("" when there is none).
	Default string
	// Desc says what the variable means.
	Desc string
	// Example is a value worth showing besides the default, or "".
	Example string
}

// Variables returns every variable the server reads, in --help order.
func Variables() []Variable {
	shown := defaultEnv()
	limits := sandbox.DefaultLimits()
	for _, r := range shown.rlimits(&limits) {
		*r.field = r.limit
	}
	values := reflect.ValueOf(shown)
	var out []Variable
	for _, v := range variables() {
		out = append(out, Variable{Name: v.name, Group: v.group, Default: shownDefault(values.Field(v.index)), Desc: v.desc, Example: v.example})
	}
	return out
}

func shownDefault(v reflect.Value) string {
	switch x := v.Interface().(type) {
	case NameList:
		return strings.Join(x, ",")
	case *uint64:
		if x == nil {
			return ""
		}
		return strconv.FormatUint(*x, 10)
	}
	return fmt.Sprint(v.Interface())
}

// knownTools are the tools the server can expose.
var knownTools = []string{"shell_execute", "execute_command"}

func (cfg *Config) setTools(tools []string) error {
	if len(tools) == 0 {
		return &Error{Var: "MCP_SHELL_TOOLS", Problem: "no tool selected; use shell_execute, execute_command or both"}
	}
	for _, t := range tools {
		if !slices.Contains(knownTools, t) {
			return &Error{Var: "MCP_SHELL_TOOLS", Problem: fmt.Sprintf("unknown tool %q; known: %s", t, strings.Join(knownTools, ", "))}
		}
	}
	cfg.Tools = tools
	return nil
}

func (cfg *Config) setTransport(env Env) error {
	cfg.Transport, cfg.HTTPAddr, cfg.HTTPMaxBody = strings.TrimSpace(env.Transport), strings.TrimSpace(env.HTTPAddr), env.HTTPMaxBody
	cfg.HTTPMaxSessions = env.HTTPMaxSessions
	switch cfg.Transport {
	case "stdio":
		return nil
	case "http":
	default:
		return &Error{Var: "MCP_SHELL_TRANSPORT", Problem: fmt.Sprintf("%q is not stdio or http", env.Transport)}
	}
	if cfg.HTTPMaxBody <= 0 {
		return &Error{Var: "MCP_SHELL_HTTP_MAX_BODY_BYTES", Problem: "must be a positive integer"}
	}
	if cfg.HTTPMaxSessions <= 0 {
		return &Error{Var: "MCP_SHELL_HTTP_MAX_SESSIONS", Problem: "must be a positive integer"}
	}
	host, _, err := net.SplitHostPort(cfg.HTTPAddr)
	if err != nil {
		return &Error{Var: "MCP_SHELL_HTTP_ADDR", Problem: fmt.Sprintf("%q is not host:port: %v", cfg.HTTPAddr, err)}
	}
	token, err := readToken(env)
	if err != nil {
		return err
	}
	if env.HTTPTokenFile != "" {
		if d := cfg.tokenFileInside(env.HTTPTokenFile); d != "" {
			return &Error{Var: "MCP_SHELL_HTTP_TOKEN_FILE", Problem: fmt.Sprintf("%q is inside the allowed directory %s, where an allowed program could read it", env.HTTPTokenFile, d)}
		}
	}
	cfg.HTTPToken, cfg.HTTPTokenFile = token, env.HTTPTokenFile
	if token == "" && !isLoopback(host) {
		return &Error{Var: "MCP_SHELL_HTTP_TOKEN", Problem: fmt.Sprintf("required to listen on the non-loopback address %q", cfg.HTTPAddr)}
	}
	if token == "" {
		return &Error{Var: "MCP_SHELL_HTTP_TOKEN", Problem: "the http transport needs a bearer token (MCP_SHELL_HTTP_TOKEN or MCP_SHELL_HTTP_TOKEN_FILE): it runs commands"}
	}
	return nil
}

// readToken returns the bearer token, from MCP_SHELL_HTTP_TOKEN or the
// file MCP_SHELL_HTTP_TOKEN_FILE names, refusing one that is short, a
// placeholder or guessable (checkToken): the error names the variable the
// token came from.
func readToken(env Env) (string, error) {
	token, source := strings.TrimSpace(env.HTTPToken), "MCP_SHELL_HTTP_TOKEN"
	if env.HTTPTokenFile != "" {
		source = "MCP_SHELL_HTTP_TOKEN_FILE"
		if token != "" {
			return "", &Error{Var: source, Problem: "set either MCP_SHELL_HTTP_TOKEN or MCP_SHELL_HTTP_TOKEN_FILE, not both"}
		}
		b, err := os.ReadFile(env.HTTPTokenFile)
		if err != nil {
			return "", &Error{Var: source, Problem: err.Error()}
		}
		token = strings.TrimSpace(string(b))
		if token == "" {
			return "", &Error{Var: source, Problem: "the file is empty"}
		}
	}
	if token == "" {
		return "", nil
	}
	if problem := checkToken(token); problem != "" {
		return "", &Error{Var: source, Problem: problem}
	}
	return token, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// setSandbox builds the launcher configuration. Mode off starts
// children directly, unless an MCP_SHELL_RLIMIT_* is set (then mode
// limits); the other modes start them through the launcher, with unset
// limits taking sandbox.DefaultLimits.
func (cfg *Config) setSandbox(env Env) error {
	cfg.SandboxMode = strings.TrimSpace(env.Sandbox)
	mode, network := cfg.SandboxMode, strings.TrimSpace(env.SandboxNetwork)
	if !slices.Contains([]string{sandbox.ModeAuto, sandbox.ModeLandlock, sandbox.ModeLimits, sandbox.ModeOff}, mode) {
		return &Error{Var: "MCP_SHELL_SANDBOX", Problem: fmt.Sprintf("%q is not auto, landlock, limits or off", env.Sandbox)}
	}
	if !slices.Contains([]string{sandbox.NetworkFamily, sandbox.NetworkDeny, sandbox.NetworkAllow}, network) {
		return &Error{Var: "MCP_SHELL_SANDBOX_NETWORK", Problem: fmt.Sprintf("%q is not family, deny or allow", env.SandboxNetwork)}
	}
	if err := checkSandboxDirs(env); err != nil {
		return err
	}
	exec, err := sandboxExec(env.SandboxExec)
	if err != nil {
		return err
	}
	credentials, err := sandboxCredentials(env.SandboxCreds)
	if err != nil {
		return err
	}
	limits, explicit := sandboxLimits(env)
	if mode == sandbox.ModeOff && explicit {
		mode = sandbox.ModeLimits
	}
	cfg.Launch = mode != sandbox.ModeOff
	cfg.Sandbox = sandbox.Config{
		Mode: mode, ReadDirs: env.SandboxReadDirs, WriteDirs: cfg.AllowedDirs, Network: network,
		BestEffort: env.SandboxBestEffort, UserCaches: env.SandboxUserCaches, Limits: limits, Exec: exec, CacheDir: strings.TrimSpace(env.SandboxCacheDir),
		Credentials: credentials,
	}
	return nil
}

// sandboxCredentials reads MCP_SHELL_SANDBOX_CREDENTIALS: family names
// of sandbox.CredentialFamilies, or 1/true/all for every one (0/false:
// none, the default).
func sandboxCredentials(list NameList) ([]string, error) {
	var out []string
	for _, name := range list {
		switch strings.ToLower(name) {
		case "1", "true", "all", "*":
			out = append(out, sandbox.CredentialsAll)
		case "0", "false":
		default:
			if !slices.Contains(sandbox.CredentialFamilies(), name) {
				return nil, &Error{Var: "MCP_SHELL_SANDBOX_CREDENTIALS", Problem: fmt.Sprintf("%q is not one of %s, or 1/all", name, strings.Join(sandbox.CredentialFamilies(), ", "))}
			}
			out = append(out, name)
		}
	}
	return out, nil
}

// sandboxLimits are the rlimits: sandbox.DefaultLimits with every
// MCP_SHELL_RLIMIT_* set replacing its own; explicit reports any set.
func sandboxLimits(env Env) (limits sandbox.Limits, explicit bool) {
	limits = sandbox.DefaultLimits()
	for _, r := range env.rlimits(&limits) {
		if *r.field != nil {
			*r.limit, explicit = **r.field, true
		}
	}
	return limits, explicit
}

// checkSandboxDirs requires absolute, clean read and cache directories.
func checkSandboxDirs(env Env) error {
	for _, v := range []struct {
		name string
		dirs []string
	}{{"MCP_SHELL_SANDBOX_READ_DIRS", env.SandboxReadDirs}, {"MCP_SHELL_SANDBOX_CACHE_DIR", splitList(env.SandboxCacheDir)}} {
		for _, d := range v.dirs {
			if !filepath.IsAbs(d) || filepath.Clean(d) != d {
				return &Error{Var: v.name, Problem: fmt.Sprintf("%q must be an absolute, clean path", d)}
			}
		}
	}
	return nil
}

// sandboxExec parses MCP_SHELL_SANDBOX_EXEC entries PROGRAM=HELPER[:HELPER...].
func sandboxExec(entries []string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, e := range entries {
		prog, helpers, ok := strings.Cut(e, "=")
		if !ok || prog == "" || helpers == "" {
			return nil, &Error{Var: "MCP_SHELL_SANDBOX_EXEC", Problem: fmt.Sprintf("%q is not PROGRAM=HELPER[:HELPER...]", e)}
		}
		for _, h := range strings.Split(helpers, ":") {
			if h == "" || strings.Contains(h, "/") && (!filepath.IsAbs(h) || filepath.Clean(h) != h) {
				return nil, &Error{Var: "MCP_SHELL_SANDBOX_EXEC", Problem: fmt.Sprintf("helper %q of %s must be a name, an absolute clean path or *", h, prog)}
			}
			out[prog] = append(out[prog], h)
		}
	}
	return out, nil
}

// checkServerNames refuses to delegate the server's own configuration to
// children: MCP_SHELL_HTTP_TOKEN in particular would hand every child the
// credential that admits requests.
func checkServerNames(names []string) error {
	for _, n := range names {
		u := strings.ToUpper(n)
		if strings.HasPrefix(u, "MCP_SHELL_") || u == "MCPGODEBUG" || u == "ALLOW_COMMANDS" || u == "ALLOWED_COMMANDS" || u == "ALLOW_PATTERNS" {
			return &Error{Var: "MCP_SHELL_CHILD_ENV_ALLOWLIST", Problem: fmt.Sprintf("%q is the server's own setting and is never passed to children", n)}
		}
	}
	return nil
}

// tokenFileInside reports the allowed directory that contains the HTTP
// token file, if any: a child could then read the token with cat.
func (cfg *Config) tokenFileInside(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	return workdir.Inside(abs, cfg.AllowedDirs)
}

// maxConfirmSeconds bounds MCP_SHELL_CONFIRM_TIMEOUT_SECONDS: a held call
// keeps a concurrency slot, so a question left open for more than an
// hour is a slot lost, not patience.
const maxConfirmSeconds = 3600

// setConfirm reads the confirm tier: program entries checked as the
// allowlist's, patterns compiled whole (they describe argv text, so
// whitespace is allowed), the timeout positive and bounded.
func (cfg *Config) setConfirm(env Env) error {
	for _, e := range env.ConfirmCommands {
		if err := policy.CheckName(e); err != nil {
			return &Error{Var: "MCP_SHELL_CONFIRM_COMMANDS", Problem: fmt.Sprintf("%v; an entry is one program name or path, never a command line (MCP_SHELL_CONFIRM_PATTERNS matches argv text)", err)}
		}
	}
	cfg.Confirm.Commands = slices.Compact(slices.Sorted(slices.Values(env.ConfirmCommands)))
	for _, src := range splitList(env.ConfirmPatterns) {
		re, err := regexp.Compile(`^(?:` + src + `)$`)
		if err != nil {
			return &Error{Var: "MCP_SHELL_CONFIRM_PATTERNS", Problem: fmt.Sprintf("pattern %q does not compile: %v", src, err)}
		}
		cfg.Confirm.Patterns = append(cfg.Confirm.Patterns, re)
		cfg.Confirm.PatternSources = append(cfg.Confirm.PatternSources, src)
	}
	if env.ConfirmTimeout <= 0 || env.ConfirmTimeout > maxConfirmSeconds {
		return &Error{Var: "MCP_SHELL_CONFIRM_TIMEOUT_SECONDS", Problem: fmt.Sprintf("must be a positive integer of at most %d, got %d", maxConfirmSeconds, env.ConfirmTimeout)}
	}
	cfg.ConfirmTimeout = time.Duration(env.ConfirmTimeout) * time.Second
	return nil
}
