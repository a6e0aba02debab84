package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/lmittmann/tint"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/config"
	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
	"github.com/seed-b63acb1b/mcp-shell-server/server"
)

// Exit statuses.
const (
	ExitOK     = 0
	ExitReject = 1
	ExitUsage  = 2
)

// Streams are the process's standard streams.
type Streams struct {
	In       io.Reader
	Out, Err io.Writer
}

// Main runs the command line args (without the program name) and returns
// the exit status.
func Main(args []string, s Streams) int {
	if len(args) > 0 {
		switch args[0] {
		case "--help", "-h", "help":
			usage(s.Out)
			return ExitOK
		case "--version", "-version", "version":
			fmt.Fprintln(s.Out, "mcp-shell-server", Version())
			return ExitOK
		case "check":
			return check(args[1:], s)
		}
	}
	for _, a := range args {
		if len(a) > 0 && a[0] == '-' {
			fmt.Fprintf(s.Err, "mcp-shell-server: unknown flag %q (see --help)\n", a)
			return ExitUsage
		}
	}
	return serve(args, s)
}

// version is the version stamped at build time, for builds that carry
// no module version (a build from a clone):
//
//	go build -ldflags "-X github.com/seed-b63acb1b/mcp-shell-server/cli.version=$(git describe --tags --always --dirty)" ./cmd/mcp-shell-server
//
// -buildvcs=true stamps the commit too, but only in a plain clone: the go
// command looks for a .git directory and so records nothing in a git
// worktree (where .git is a file) or a copy without .git (Docker).
var version string

// Version is the binary's version: the one stamped with -ldflags, else the
// module version (go install module@version, or the VCS-derived version
// go 1.24+ records), else "devel"; then the VCS revision and time when the
// build recorded them, and the Go version.
func Version() string {
	bi, _ := debug.ReadBuildInfo()
	return formatVersion(version, bi)
}

// formatVersion is Version for a stamp and build information (nil when
// the binary has none).
func formatVersion(stamp string, bi *debug.BuildInfo) string {
	var module string
	if bi != nil && bi.Main.Version != "(devel)" {
		module = bi.Main.Version
	}
	v := cmp.Or(stamp, module, "devel")
	if bi == nil {
		return v
	}
	var details []string
	if stamp != "" && module != "" && module != stamp {
		details = append(details, "module "+module)
	}
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value[:min(12, len(s.Value))]
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		details = append(details, "commit "+rev+dirty)
	}
	if at != "" {
		details = append(details, at)
	}
	if len(details) > 0 {
		v += " (" + strings.Join(details, ", ") + ")"
	}
	return v + " " + bi.GoVersion
}

func usage(w io.Writer) {
	fmt.Fprint(w, `mcp-shell-server: a hardened MCP server that runs allowlisted programs as argv arrays, without a shell.

Usage:
  mcp-shell-server [DIR...]                      serve MCP over stdio; DIRs are the allowed directories
  mcp-shell-server check [--json] -- ARGV...     print the policy verdict for one argv, run nothing
  mcp-shell-server check [--json] 'CMD LINE'     the same, splitting a typed command line like a shell
  mcp-shell-server check --jsonl                 one verdict per stdin line {"id","argv","env","directory"}
  mcp-shell-server --version | --help

Example: serve ~/projects/demo to a client with an everyday development allowlist, and
check a command without running it:
  ALLOW_COMMANDS=git,go,make,rg,grep,find,sort,ls,cat mcp-shell-server ~/projects/demo
  ALLOW_COMMANDS=sort mcp-shell-server check -- sort -o /etc/x in.txt    # reject: sort.output-path

Where the kernel offers Landlock (Linux 6.7+), every program runs in its own kernel sandbox
by default (MCP_SHELL_SANDBOX=auto): writes only in the allowed directories, only the
programs its job needs, TCP only for network tools. The start-up line says which mode applies.
See README.md, docs/ (configuration.md has this table, rules.md every rule) and SECURITY.md.

`)
	config.Usage(w)
}

func serve(dirs []string, s Streams) int {
	hardenProcess()
	cfg, err := config.Load(dirs)
	if err != nil {
		return configError(s.Err, err)
	}
	// Everything written to stderr from here on goes through one sink:
	// lines stay whole, and a stderr nobody reads never blocks a call.
	stderr := audit.NewSink(s.Err, audit.DefaultQueue)
	defer closeWithin(stderr.Close, server.FlushReserve)
	log := newLogger(s.Err, stderr, cfg.LogLevel)
	auditW, closeAudit, err := openAudit(cfg.AuditLog, stderr, cfg.Transport == "stdio")
	if err != nil {
		return configError(s.Err, err)
	}
	defer closeAudit()
	warnAtStart(log, cfg)
	// Process-wide: the mechanism binding every call's processes to the
	// call and to this process (cgroup, else subreaper), the reaper when
	// PID 1, and the watchdog for a SIGKILL of the server. Close, deferred
	// here, runs after srv.Shutdown below and kills whatever is left.
	lt, err := lifetime.Setup(lifetime.Options{Log: log})
	if err != nil {
		log.Error("cannot set up process lifetime", "err", err)
		return ExitUsage
	}
	defer lt.Close()
	log.Info("process lifetime", lt.LogAttrs()...)
	var launcher *sandbox.Launcher
	if cfg.Launch {
		if launcher, err = sandbox.NewLauncher(cfg.Sandbox); err != nil {
			return configError(s.Err, &config.Error{Var: "MCP_SHELL_SANDBOX", Problem: err.Error()})
		}
	}
	defer launcher.Close() // removes the calls' private temporary directories still pending
	logSandbox(log, cfg, launcher)
	auditLog := audit.New(auditW)
	auditLog.SetDiagnostics(log)
	defer closeWithin(auditLog.Close, server.FlushReserve)
	o := serverOptions(cfg, launcher)
	o.Audit, o.Log, o.Lifetime = auditLog, log, lt
	srv, err := server.New(o)
	if err != nil {
		log.Error("cannot build the server", "err", err)
		return ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var runErr error
	if cfg.Transport == "http" {
		runErr = serveHTTP(ctx, srv, cfg, log)
	} else {
		// SIGTERM, SIGINT and the end of stdin all stop the server at
		// once: running calls are terminated and answered.
		runErr = srv.ServeStdio(ctx, s.In, s.Out)
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		log.Error("server stopped", "err", runErr)
		return 1
	}
	return ExitOK
}

// closeWithin calls close with a context that ends after d.
func closeWithin(close func(context.Context) error, d time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	close(ctx)
}

// serverOptions maps the configuration onto what the server needs, with
// the launcher its policy's plans are confined by (nil: no sandbox); the
// caller adds the audit sink and the logger it opened.
func serverOptions(cfg *config.Config, launcher *sandbox.Launcher) server.Options {
	return server.Options{
		Limits:         server.Limits{DefaultTimeout: cfg.DefaultTimeout, MaxTimeout: cfg.MaxTimeout, OutputLimit: cfg.OutputLimit, RedirectLimit: cfg.RedirectLimit, TextLimit: cfg.Jobs.TextLimit},
		Tools:          cfg.Tools,
		MaxConcurrent:  cfg.MaxConcurrent,
		ConfirmTimeout: cfg.ConfirmTimeout,
		Advertised:     server.Allowlist{Commands: cfg.Commands, Patterns: cfg.PatternSources},
		SandboxMode:    cfg.SandboxMode,
		Launcher:       launcher,
		Policy:         policy.FromSettings(cfg.PolicySettings(), launcherSandbox(launcher)),
		Version:        Version(),
		Jobs:           jobOptions(cfg.Jobs),
	}
}

// launcherSandbox is what the policy gets of a launcher: its rules and
// its calls' temporary directories (nothing without one).
func launcherSandbox(l *sandbox.Launcher) policy.Sandbox {
	if l == nil {
		return policy.Sandbox{}
	}
	return policy.Sandbox{Rules: l.Rules, TempDirs: l}
}

// logSandbox writes the one start-up line saying how children are
// confined: the effective mode (auto resolves to landlock or limits), and
// why when it is less than asked for.
func logSandbox(log *slog.Logger, cfg *config.Config, l *sandbox.Launcher) {
	if l == nil {
		log.Warn("sandbox off: children run unconfined, with this server's files and network", "sandbox", "off")
		return
	}
	attrs := []any{"sandbox", l.Mode(), "requested", cfg.SandboxMode}
	switch {
	case l.Confined():
		ro, whyNot := l.ReadOnlyMounts()
		attrs = append(attrs, "landlock_abi", l.ABI(), "network", cfg.Sandbox.Network, "seccomp", l.Filtered(), "read_only_mounts", ro)
		if !ro {
			attrs = append(attrs, "read_only_mounts_why_not", whyNot+": stages can change timestamps and modes of files this user owns outside the writable trees")
		}
		log.Info("sandbox: every stage runs confined by Landlock in a domain of its own", append(attrs, "cache_dir", l.CacheDir())...)
		logCaches(log, l.Caches(cfg.ChildHome))
		warnGPGSigning(log, cfg, ro)
	case !sandbox.KernelSandbox && l.Mode() == sandbox.ModeLimits:
		log.Warn("sandbox: the kernel sandbox is not available on this platform (only limits apply)", append(attrs, "reason", l.Fallback())...)
	case !sandbox.KernelSandbox:
		log.Warn("sandbox: the kernel sandbox is not available on this platform, nor rlimits (only the call's Job Object bounds its processes)", append(attrs, "reason", l.Fallback())...)
	case l.Fallback() != "":
		log.Warn("sandbox: Landlock unavailable, children get only rlimits and no_new_privs", append(attrs, "reason", l.Fallback())...)
	default:
		log.Info("sandbox: children get rlimits and no_new_privs, no Landlock", attrs...)
	}
}

// logCaches states, in one line, which family caches the stages share
// with the user's own (their builds start warm) and why the others are
// the sandbox's.
func logCaches(log *slog.Logger, choices []sandbox.CacheChoice) {
	var own, reasons []string
	byReason := map[string][]string{} // one reason, said once, for every variable it applies to
	for _, c := range choices {
		switch {
		case c.User:
			own = append(own, c.Env+"="+c.Dir)
		case byReason[c.WhyNot] == nil:
			reasons = append(reasons, c.WhyNot)
			fallthrough
		default:
			byReason[c.WhyNot] = append(byReason[c.WhyNot], c.Env)
		}
	}
	private := make([]string, len(reasons))
	for i, why := range reasons {
		private[i] = strings.Join(byReason[why], " ") + " (" + why + ")"
	}
	if len(choices) > 0 {
		log.Info("sandbox caches: the sandbox's beneath cache_dir, kept between calls; with MCP_SHELL_SANDBOX_USER_CACHES=1 the user's own where they exist and only this user can write them",
			"users_own", strings.Join(own, " "), "sandbox_own", strings.Join(private, "; "))
	}
}

// serveHTTP serves Streamable HTTP on cfg.HTTPAddr until ctx is done.
func serveHTTP(ctx context.Context, srv *server.Server, cfg *config.Config, log *slog.Logger) error {
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("MCP_SHELL_HTTP_ADDR: %w", err)
	}
	log.Info("serving Streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp")
	return srv.ServeStreamable(ctx, ln, server.HTTPOptions{Token: cfg.HTTPToken, MaxBody: cfg.HTTPMaxBody, MaxSessions: cfg.HTTPMaxSessions})
}

func configError(w io.Writer, err error) int {
	fmt.Fprintf(w, "mcp-shell-server: configuration error: %v\n", err)
	return ExitUsage
}

// newLogger returns the diagnostic logger writing to w: tint's colour
// output when stderr is a terminal, plain slog text otherwise. Never
// stdout: that carries MCP.
func newLogger(stderr, w io.Writer, level slog.Level) *slog.Logger {
	if f, ok := stderr.(*os.File); ok && isTerminal(f) {
		return slog.New(tint.NewTextHandler(w, &tint.Options{Level: level}))
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// openAudit opens the audit destination: stderr (the sink shared with
// diagnostics), or a file appended to (created 0600: audit records
// describe what ran). Over stdio, a destination that
// is the server's own stdout (/dev/stdout, /proc/self/fd/1, ...) is
// refused: audit lines would corrupt the MCP stream.
func openAudit(dest string, stderr io.Writer, stdio bool) (io.Writer, func(), error) {
	if dest == "stderr" {
		return stderr, func() {}, nil
	}
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_APPEND|os.O_CREATE|syscall.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, nil, &config.Error{Var: "MCP_SHELL_AUDIT_LOG", Problem: err.Error()}
	}
	if stdio && sameFile(f, os.Stdout) {
		f.Close()
		return nil, nil, &config.Error{Var: "MCP_SHELL_AUDIT_LOG", Problem: fmt.Sprintf("%q is the server's stdout, which carries the MCP stream", dest)}
	}
	return f, func() { f.Close() }, nil
}

func sameFile(a, b *os.File) bool {
	ai, err1 := a.Stat()
	bi, err2 := b.Stat()
	return err1 == nil && err2 == nil && os.SameFile(ai, bi)
}
