package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/lmittmann/tint"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/config"
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

// Version is the module version the binary was built from, or "devel",
// followed by the VCS revision and time when the build recorded them
// (go build in a git checkout does).
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
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
		v += fmt.Sprintf(" (commit %s%s, %s)", rev, dirty, at)
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

Where the kernel offers Landlock (Linux 6.7+), every program runs in its own kernel sandbox
by default (MCP_SHELL_SANDBOX=auto): writes only in the allowed directories, only the
programs its job needs, TCP only for network tools. The start-up line says which mode applies.
See README.md ("Trusted execution contract") and SECURITY.md.

`)
	config.Usage(w)
}

func serve(dirs []string, s Streams) int {
	// Children run as the same user: without this they could read the
	// server's environment (tokens) from /proc/<pid>/environ or write into
	// its stdin through /proc/<pid>/fd. Execve resets it for the children.
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	cfg, err := config.Load(dirs)
	if err != nil {
		return configError(s.Err, err)
	}
	log := newLogger(s.Err, cfg.LogLevel)
	auditW, closeAudit, err := openAudit(cfg.AuditLog, s.Err, cfg.Transport == "stdio")
	if err != nil {
		return configError(s.Err, err)
	}
	defer closeAudit()
	warnAtStart(log, cfg)
	var launcher *sandbox.Launcher
	if cfg.Launch {
		if launcher, err = sandbox.NewLauncher(cfg.Sandbox); err != nil {
			return configError(s.Err, &config.Error{Var: "MCP_SHELL_SANDBOX", Problem: err.Error()})
		}
	}
	defer launcher.Close() // removes the calls' private temporary directories still pending
	logSandbox(log, cfg, launcher)
	srv, err := server.New(server.Options{
		Config: cfg, Policy: policy.FromSettings(cfg.PolicySettings()), Audit: audit.New(auditW),
		Log: log, Version: Version(), ExtraEnv: policy.ExtraEnv, Launcher: launcher,
	})
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
		runErr = srv.MCP().Run(ctx, &mcp.StdioTransport{})
	}
	// Whatever ended the session, no call's processes outlive the server.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		log.Warn("calls still running at exit", "err", err)
	}
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		log.Error("server stopped", "err", runErr)
		return 1
	}
	return ExitOK
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
		log.Info("sandbox: every stage runs confined by Landlock", append(attrs, "landlock_abi", l.ABI(),
			"network", cfg.Sandbox.Network, "cache_dir", l.CacheDir())...)
	case l.Fallback() != "":
		log.Warn("sandbox: Landlock unavailable, children get only rlimits and no_new_privs", append(attrs, "reason", l.Fallback())...)
	default:
		log.Info("sandbox: children get rlimits and no_new_privs, no Landlock", attrs...)
	}
}

// serveHTTP serves Streamable HTTP until ctx is done, then stops accepting
// and drains open requests.
func serveHTTP(ctx context.Context, srv *server.Server, cfg *config.Config, log *slog.Logger) error {
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("MCP_SHELL_HTTP_ADDR: %w", err)
	}
	// Idle keep-alive connections are closed and open connections are
	// capped, so unauthenticated clients cannot exhaust descriptors.
	ln = newLimitListener(ln, maxHTTPConns)
	hs := &http.Server{
		Handler:           srv.HTTPHandler(cfg.HTTPToken, cfg.HTTPMaxBody),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       60 * time.Second,
	}
	log.Info("serving Streamable HTTP", "url", "http://"+ln.Addr().String()+"/mcp")
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Cancel running calls first: their streams would otherwise keep
	// Shutdown waiting until each command finished.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv.Shutdown(shutdownCtx)
	// Open sessions hold long-lived event streams; closing them lets the
	// HTTP server go idle.
	for ss := range srv.MCP().Sessions() {
		ss.Close()
	}
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return hs.Close()
	}
	return nil
}

func configError(w io.Writer, err error) int {
	fmt.Fprintf(w, "mcp-shell-server: configuration error: %v\n", err)
	return ExitUsage
}

// newLogger returns the diagnostic logger: tint's colour output on a
// terminal, plain slog text otherwise. Never stdout: that carries MCP.
func newLogger(w io.Writer, level slog.Level) *slog.Logger {
	if f, ok := w.(*os.File); ok && isTerminal(f) {
		return slog.New(tint.NewHandler(w, &tint.Options{Level: level}))
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// openAudit opens the audit sink: stderr, or a file appended to (created
// 0600: audit records describe what ran). Over stdio, a destination that
// is the server's own stdout (/dev/stdout, /proc/self/fd/1, ...) is
// refused: audit lines would corrupt the MCP stream.
func openAudit(dest string, stderr io.Writer, stdio bool) (io.Writer, func(), error) {
	if dest == "stderr" {
		return stderr, func() {}, nil
	}
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_APPEND|os.O_CREATE|unix.O_CLOEXEC, 0o600)
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
