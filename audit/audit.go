package audit

import (
	"context"
	"io"
	"log/slog"
	"time"
)

// Record is one audited call. Durations are seconds; byte counts are the
// bytes each stream carried, not what was kept.
type Record struct {
	Time     time.Time
	Duration time.Duration
	// ResultType is how the call ended (see Result).
	ResultType Result
	Tool       string
	// Argv is the request argv, unredacted; Log redacts it.
	Argv       []string
	Directory  string
	Stdin      bool // "<" redirection
	Stdout     bool // ">" or ">>" redirection
	Append     bool // ">>"
	Env        map[string]string
	Timeout    time.Duration
	OutputLim  int64
	StdoutN    int64
	StderrN    int64
	ReturnCode *int
	Signal     string
	Stages     int
	// Rule is the rule that decided: an allowlist rule for allowed calls,
	// the rejection code otherwise.
	Rule string
	// Reason is the rejection or error message, unredacted; Log redacts
	// the occurrences of ReasonArg in it.
	Reason    string
	ReasonArg string
	// ErrorKind names what failed (logged as error_type), or "".
	ErrorKind ErrorKind
	// Remote is the client's network address (HTTP transport), or "".
	Remote string
	// Sandbox is the sandbox mode (off, limits, landlock) and SandboxABI
	// the Landlock ABI applied (0 without Landlock).
	Sandbox    string
	SandboxABI int
	// Job describes a job or a retained output (job.go); zero for a
	// foreground call that retained nothing.
	Job Job
}

// Logger writes audit records as JSON lines.
type Logger struct {
	log *slog.Logger
}

// New returns a Logger writing JSON lines to w. Each record is one Write,
// so concurrent calls never interleave within a line.
func New(w io.Writer) *Logger {
	h := slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo})
	return &Logger{log: slog.New(h).With("logger", "mcp-shell-server.audit")}
}

// Log writes r, redacted.
func (l *Logger) Log(ctx context.Context, r Record) {
	if l == nil {
		return
	}
	attrs := []slog.Attr{
		slog.Float64("timestamp", float64(r.Time.UnixNano())/1e9),
		slog.Float64("duration", r.Duration.Seconds()),
		slog.String("result_type", string(r.ResultType)),
		slog.String("tool", r.Tool),
		slog.Any("command", commandName(r.Argv)),
		slog.Any("argv", Argv(r.Argv)),
		slog.String("directory", r.Directory),
		slog.Group("redirections", slog.Bool("stdin", r.Stdin), slog.Bool("stdout", r.Stdout), slog.Bool("stdout_append", r.Append)),
		slog.Any("env", Env(r.Env)),
		slog.Float64("timeout", r.Timeout.Seconds()),
		slog.Int64("output_limit", r.OutputLim),
		slog.Int64("stdout_bytes", r.StdoutN),
		slog.Int64("stderr_bytes", r.StderrN),
		slog.Any("return_code", r.ReturnCode),
		slog.Int("stages", r.Stages),
		slog.String("rule", r.Rule),
		slog.String("sandbox", r.Sandbox),
		slog.Int("sandbox_abi", r.SandboxABI),
	}
	if r.Signal != "" {
		attrs = append(attrs, slog.String("signal", r.Signal))
	}
	if r.Reason != "" {
		key := "error"
		if r.ResultType == Rejected {
			key = "rejection_reason"
		}
		attrs = append(attrs, slog.String(key, Reason(r.Reason, r.ReasonArg)))
	}
	if r.Remote != "" {
		attrs = append(attrs, slog.String("remote", r.Remote))
	}
	if r.ErrorKind != "" {
		attrs = append(attrs, slog.String("error_type", string(r.ErrorKind)))
	}
	attrs = append(attrs, r.Job.attrs()...)
	l.log.LogAttrs(ctx, slog.LevelInfo, "shell_execution_audit", attrs...)
}

func commandName(argv []string) any {
	if len(argv) == 0 {
		return nil
	}
	return Arg(argv[0])
}
