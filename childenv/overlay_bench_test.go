package childenv

import (
	"strconv"
	"testing"
)

// BenchmarkOverlay is a stage's environment as the policy builds it for
// git: the base environment and forty hardening entries laid over it.
func BenchmarkOverlay(b *testing.B) {
	base := []string{"HOME=/home/u", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "LOGNAME=u", "PATH=/usr/local/bin:/usr/bin:/bin", "TMPDIR=/tmp/call", "USER=u"}
	var extra []string
	for i := range 20 {
		n := strconv.Itoa(i)
		extra = append(extra, "GIT_CONFIG_KEY_"+n+"=core.key"+n, "GIT_CONFIG_VALUE_"+n+"=value"+n)
	}
	extra = append(extra, "GIT_CONFIG_COUNT=20", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0", "GIT_PROXY_COMMAND=", "PAGER=cat")
	b.ReportAllocs()
	for b.Loop() {
		if len(Overlay(base, extra)) != len(base)+len(extra) {
			b.Fatal("entries lost")
		}
	}
}
