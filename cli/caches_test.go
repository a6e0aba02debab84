package cli

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestLogCachesSaysEachReasonOnce: the start-up line names every
// variable and says each reason once, for all the variables it applies to.
func TestLogCachesSaysEachReasonOnce(t *testing.T) {
	var b bytes.Buffer
	log := slog.New(slog.NewTextHandler(&b, nil))
	logCaches(log, []sandbox.CacheChoice{
		{Env: "GOCACHE", WhyNot: "off"},
		{Env: "npm_config_cache", WhyNot: "off"},
		{Env: "GOPATH", WhyNot: "holds bin"},
		{Env: "PIP_CACHE_DIR", User: true, Dir: "/home/u/.cache/pip"},
	})
	line := b.String()
	for _, want := range []string{`GOCACHE npm_config_cache (off); GOPATH (holds bin)`, "PIP_CACHE_DIR=/home/u/.cache/pip"} {
		if !strings.Contains(line, want) {
			t.Errorf("the caches line lacks %q:\n%s", want, line)
		}
	}
	if n := strings.Count(line, "(off)"); n != 1 {
		t.Errorf("the reason is said %d times:\n%s", n, line)
	}
}
