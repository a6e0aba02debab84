package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestJobsDefaults(t *testing.T) {
	t.Parallel()
	cfg, err := Parse(LookupMap(nil), []string{t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	want := Jobs{MaxJobs: 8, MaxJobTime: time.Hour, RetainBytes: 16 << 20, RetainQuota: 256 << 20, RetainTTL: time.Hour, RetainDir: "/tmp", TextLimit: 16384}
	if real, err := filepath.EvalSymlinks("/tmp"); err == nil {
		want.RetainDir = real
	}
	if cfg.Jobs != want {
		t.Errorf("Jobs = %+v, want %+v", cfg.Jobs, want)
	}
	cfg, err = Parse(LookupMap(map[string]string{"MCP_SHELL_RETAIN_QUOTA_BYTES": "0", "MCP_SHELL_MAX_JOBS": "0", "MCP_SHELL_TEXT_LIMIT_BYTES": "0"}), []string{t.TempDir()})
	if err != nil || cfg.Jobs.RetainQuota != 0 || cfg.Jobs.MaxJobs != 0 || cfg.Jobs.TextLimit != 0 {
		t.Errorf("all off: %v %+v", err, cfg.Jobs)
	}
}

func TestJobsInvalid(t *testing.T) {
	t.Parallel()
	allowed := t.TempDir()
	inside := filepath.Join(allowed, "sub")
	if err := mkdir(inside); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		env map[string]string
		bad string
	}{
		{map[string]string{"MCP_SHELL_MAX_JOBS": "-1"}, "MCP_SHELL_MAX_JOBS"},
		{map[string]string{"MCP_SHELL_MAX_JOB_SECONDS": "0"}, "MCP_SHELL_MAX_JOB_SECONDS"},
		{map[string]string{"MCP_SHELL_MAX_JOB_SECONDS": "604801"}, "MCP_SHELL_MAX_JOB_SECONDS"},
		{map[string]string{"MCP_SHELL_RETAIN_BYTES": "0"}, "MCP_SHELL_RETAIN_BYTES"},
		{map[string]string{"MCP_SHELL_RETAIN_BYTES": "1000", "MCP_SHELL_RETAIN_QUOTA_BYTES": "999"}, "MCP_SHELL_RETAIN_BYTES"},
		{map[string]string{"MCP_SHELL_RETAIN_TTL_SECONDS": "0"}, "MCP_SHELL_RETAIN_TTL_SECONDS"},
		{map[string]string{"MCP_SHELL_RETAIN_QUOTA_BYTES": "0"}, "MCP_SHELL_MAX_JOBS"},
		{map[string]string{"MCP_SHELL_MAX_JOBS": "0", "MCP_SHELL_ADAPTIVE_SECONDS": "5"}, "MCP_SHELL_ADAPTIVE_SECONDS"},
		{map[string]string{"MCP_SHELL_TEXT_LIMIT_BYTES": "-1"}, "MCP_SHELL_TEXT_LIMIT_BYTES"},
		{map[string]string{"MCP_SHELL_RETAIN_DIR": "relative"}, "MCP_SHELL_RETAIN_DIR"},
		{map[string]string{"MCP_SHELL_RETAIN_DIR": "/nonexistent-retain-dir"}, "MCP_SHELL_RETAIN_DIR"},
		{map[string]string{"MCP_SHELL_RETAIN_DIR": allowed}, "MCP_SHELL_RETAIN_DIR"},
		{map[string]string{"MCP_SHELL_RETAIN_DIR": inside}, "MCP_SHELL_RETAIN_DIR"},
	} {
		_, err := Parse(LookupMap(tt.env), []string{allowed})
		expectVarError(t, tt.env, err, tt.bad)
	}
	// With retention off, the directory is not consulted.
	if _, err := Parse(LookupMap(map[string]string{"MCP_SHELL_RETAIN_QUOTA_BYTES": "0", "MCP_SHELL_MAX_JOBS": "0", "MCP_SHELL_RETAIN_DIR": allowed}), []string{allowed}); err != nil {
		t.Errorf("retention off: %v", err)
	}
}

func mkdir(p string) error { return os.Mkdir(p, 0o700) }

// A server started in /tmp serves /tmp: the default retain directory falls
// back outside it instead of refusing to start, while an explicit
// MCP_SHELL_RETAIN_DIR inside stays an error, and a server whose allowed
// directory holds every candidate says which it tried.
func TestRetainDirFallback(t *testing.T) {
	t.Parallel()
	tmp, err := filepath.EvalSymlinks("/tmp")
	if err != nil {
		t.Skip("no /tmp")
	}
	cfg, err := Parse(LookupMap(nil), []string{tmp})
	if err != nil {
		t.Fatalf("allowed /tmp, default retain dir: %v", err)
	}
	if got := cfg.Jobs.RetainDir; got == "" || got == tmp || filepath.Dir(got) == tmp {
		t.Errorf("retain dir %q is not outside /tmp", got)
	}
	_, err = Parse(LookupMap(map[string]string{"MCP_SHELL_RETAIN_DIR": "/tmp"}), []string{tmp})
	expectVarError(t, nil, err, "MCP_SHELL_RETAIN_DIR")
	_, err = Parse(LookupMap(nil), []string{"/"})
	expectVarError(t, nil, err, "MCP_SHELL_RETAIN_DIR")
	if err != nil && !strings.Contains(err.Error(), "/var/tmp") {
		t.Errorf("error does not name the directories tried: %v", err)
	}
}
