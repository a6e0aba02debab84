package main

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// machineInfo describes where and on what the numbers were measured.
type machineInfo struct {
	date      string
	commit    string
	kernel    string
	cpu       string
	cores     int
	memory    string
	goVersion string
	node      string
	loadStart string
	loadEnd   string
	duration  time.Duration
}

func describeMachine(root string) machineInfo {
	m := machineInfo{
		date:      time.Now().UTC().Format("2006-01-02 15:04 MST"),
		commit:    commitOf(root),
		kernel:    strings.TrimSpace(readFirstLine("/proc/sys/kernel/ostype") + " " + readFirstLine("/proc/sys/kernel/osrelease")),
		cpu:       procValue("/proc/cpuinfo", "model name"),
		cores:     runtime.NumCPU(),
		memory:    procValue("/proc/meminfo", "MemTotal"),
		goVersion: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		loadStart: loadavg(),
	}
	if out, err := exec.Command("node", "--version").Output(); err == nil {
		m.node = strings.TrimSpace(string(out))
	} else {
		m.node = "not installed"
	}
	return m
}

// commitOf is HEAD of the repository at root, with "+dirty" when tracked
// files differ from it (the numbers then describe uncommitted code).
func commitOf(root string) string {
	out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown (git unavailable)"
	}
	c := strings.TrimSpace(string(out))
	st, err := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output()
	if err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += "+dirty"
	}
	return c
}

func readFirstLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(line)
}

// procValue is key's value in the /proc file at path, or "unknown".
func procValue(path, key string) string {
	if m, _ := procKeys(path); m[key] != "" {
		return m[key]
	}
	return "unknown"
}

// loadavg is the first three fields of /proc/loadavg (1, 5, 15 minutes).
func loadavg() string {
	f := strings.Fields(readFirstLine("/proc/loadavg"))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
