//go:build profile

// A build for profiling only (go build -tags profile): the server records
// a CPU profile (and, at its end, a heap profile) of itself, so that the
// per-call cost of the real binary, its start-up and transports included,
// can be read with go tool pprof. Never in a release build.

package main

import (
	"os"
	"runtime/pprof"
	"strconv"
	"time"
)

// MCP_SHELL_CPUPROFILE names the profile file; MCP_SHELL_CPUPROFILE_SECONDS
// (default 10) is how long after start-up it covers (the server usually
// ends with os.Exit, so the profile is written when the time is up).
func init() {
	path := os.Getenv("MCP_SHELL_CPUPROFILE")
	if path == "" {
		return
	}
	secs, err := strconv.ParseFloat(os.Getenv("MCP_SHELL_CPUPROFILE_SECONDS"), 64)
	if err != nil || secs <= 0 {
		secs = 10
	}
	f, err := os.Create(path)
	if err != nil {
		return
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return
	}
	time.AfterFunc(time.Duration(secs*float64(time.Second)), func() {
		pprof.StopCPUProfile()
		f.Close()
		if h, err := os.Create(path + ".heap"); err == nil {
			pprof.Lookup("allocs").WriteTo(h, 0)
			h.Close()
		}
	})
}
