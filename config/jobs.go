package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/workdir"
)

// Jobs is the configuration of background jobs, retained output and the
// text limit.
type Jobs struct {
	// MaxJobs is how many jobs run at once; 0 turns jobs off.
	MaxJobs int
	// MaxJobTime bounds a job's run, and is its timeout by default.
	MaxJobTime time.Duration
	// Adaptive, when positive, hands a foreground call still running after
	// it to a job.
	Adaptive time.Duration
	// RetainBytes caps each stream of each call on disk; RetainQuota caps
	// all of them together (0: retention off); RetainTTL is how long a
	// finished output is kept.
	RetainBytes, RetainQuota int64
	RetainTTL                time.Duration
	// RetainDir is the resolved directory the private output directory is
	// created in.
	RetainDir string
	// TextLimit is the bytes of each stream in a result's text; 0 = all.
	TextLimit int64
}

// maxDurationSeconds bounds every duration variable: a week keeps time.Duration far
// from overflow.
const maxDurationSeconds = 7 * 24 * 3600

// setJobs checks the job and retention variables. Retention (a positive
// quota) needs a private directory outside every allowed directory, where
// no allowed program's ">" or operand could reach it; jobs keep their
// output there, and the adaptive hand-off makes jobs, so each needs the
// one before it.
func (cfg *Config) setJobs(env Env) error {
	for _, v := range []struct {
		name  string
		value int64
		min   int64
	}{
		{"MCP_SHELL_MAX_JOBS", int64(env.MaxJobs), 0},
		{"MCP_SHELL_MAX_JOB_SECONDS", int64(env.MaxJobSeconds), 1},
		{"MCP_SHELL_ADAPTIVE_SECONDS", int64(env.AdaptiveSeconds), 0},
		{"MCP_SHELL_RETAIN_QUOTA_BYTES", env.RetainQuota, 0},
		{"MCP_SHELL_RETAIN_BYTES", env.RetainBytes, 1},
		{"MCP_SHELL_RETAIN_TTL_SECONDS", int64(env.RetainTTL), 1},
		{"MCP_SHELL_TEXT_LIMIT_BYTES", env.TextLimit, 0},
	} {
		if v.value < v.min {
			return &Error{Var: v.name, Problem: fmt.Sprintf("must be at least %d, got %d", v.min, v.value)}
		}
	}
	for _, v := range []struct {
		name  string
		value int
	}{{"MCP_SHELL_MAX_JOB_SECONDS", env.MaxJobSeconds}, {"MCP_SHELL_ADAPTIVE_SECONDS", env.AdaptiveSeconds}, {"MCP_SHELL_RETAIN_TTL_SECONDS", env.RetainTTL}} {
		if v.value > maxDurationSeconds {
			return &Error{Var: v.name, Problem: fmt.Sprintf("must be at most %d", maxDurationSeconds)}
		}
	}
	if env.MaxJobs > 0 && env.RetainQuota == 0 {
		return &Error{Var: "MCP_SHELL_MAX_JOBS", Problem: "jobs keep their output on disk, but MCP_SHELL_RETAIN_QUOTA_BYTES=0 turns retention off; set MCP_SHELL_MAX_JOBS=0 as well"}
	}
	if env.AdaptiveSeconds > 0 && env.MaxJobs == 0 {
		return &Error{Var: "MCP_SHELL_ADAPTIVE_SECONDS", Problem: "the adaptive hand-off turns calls into jobs, but MCP_SHELL_MAX_JOBS=0 turns jobs off"}
	}
	if env.RetainQuota > 0 && env.RetainBytes > env.RetainQuota {
		return &Error{Var: "MCP_SHELL_RETAIN_BYTES", Problem: fmt.Sprintf("%d exceeds MCP_SHELL_RETAIN_QUOTA_BYTES (%d)", env.RetainBytes, env.RetainQuota)}
	}
	cfg.Jobs = Jobs{
		MaxJobs: env.MaxJobs, MaxJobTime: time.Duration(env.MaxJobSeconds) * time.Second,
		Adaptive:    time.Duration(env.AdaptiveSeconds) * time.Second,
		RetainBytes: env.RetainBytes, RetainQuota: env.RetainQuota, RetainTTL: time.Duration(env.RetainTTL) * time.Second,
		TextLimit: env.TextLimit,
	}
	if env.RetainQuota == 0 {
		return nil
	}
	dir, err := retainDir(env.RetainDir, cfg.AllowedDirs)
	if err != nil {
		return err
	}
	cfg.Jobs.RetainDir = dir
	return nil
}

// retainDir resolves MCP_SHELL_RETAIN_DIR, which must lie outside every
// allowed directory. An empty value is the default: defaultRetainDir, or
// the first of retainFallbacks outside the allowed directories.
func retainDir(value string, allowed []string) (string, error) {
	const advice = "where allowed programs could read or overwrite retained output; choose a directory outside the allowed directories (or MCP_SHELL_RETAIN_QUOTA_BYTES=0 and MCP_SHELL_MAX_JOBS=0)"
	if value != "" {
		dir, problem := retainCandidate(value, allowed)
		if problem != "" {
			return "", &Error{Var: "MCP_SHELL_RETAIN_DIR", Problem: problem + ", " + advice}
		}
		return dir, nil
	}
	tried := append([]string{defaultRetainDir}, retainFallbacks...)
	var why []string
	for _, c := range tried {
		dir, problem := retainCandidate(c, allowed)
		if problem == "" {
			return dir, nil
		}
		why = append(why, problem)
	}
	return "", &Error{Var: "MCP_SHELL_RETAIN_DIR", Problem: fmt.Sprintf("unset, and none of %s is usable (%s), %s", strings.Join(tried, ", "), strings.Join(why, "; "), advice)}
}

// retainCandidate resolves one retain directory, or says in a phrase why
// it cannot serve.
func retainCandidate(value string, allowed []string) (dir, problem string) {
	if !filepath.IsAbs(value) {
		return "", fmt.Sprintf("%q is not an absolute directory", value)
	}
	dir, err := resolveDir(value)
	if err != nil {
		return "", err.Error()
	}
	if d := workdir.Inside(dir, allowed); d != "" {
		return "", fmt.Sprintf("%s is inside the allowed directory %s", dir, d)
	}
	return dir, ""
}
