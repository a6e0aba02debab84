package programs

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

// Families returns this package's recognizers by family name: rg, split,
// sdiff, diff3, wget, curl, make, go, npm, npx, pnpm, yarn, pip, cargo,
// zip, docker, podman, kubectl and file. The map is new on every call.
func Families() map[string]argvrules.Recognizer {
	return map[string]argvrules.Recognizer{
		"rg":      Rg,
		"split":   Split,
		"sdiff":   Sdiff,
		"diff3":   Diff3,
		"wget":    Wget,
		"curl":    Curl,
		"make":    Make,
		"go":      Go,
		"npm":     Npm,
		"npx":     Npx,
		"pnpm":    Pnpm,
		"yarn":    Yarn,
		"pip":     Pip,
		"cargo":   Cargo,
		"zip":     Zip,
		"docker":  Docker,
		"podman":  Podman,
		"kubectl": Kubectl,
		"file":    File,
	}
}

// familyNames maps executable basenames to families: each program's own
// name plus the alternate names distributions install (gmake for GNU make
// on BSD and macOS Homebrew, yarnpkg for yarn on Debian, pnpx for pnpm's
// npx, pip3 for pip). Versioned pip names are handled by FamilyOf.
var familyNames = map[string]string{
	"rg": "rg", "split": "split", "gsplit": "split", "sdiff": "sdiff", "gsdiff": "sdiff",
	"diff3": "diff3", "gdiff3": "diff3", "wget": "wget", "curl": "curl",
	"make": "make", "gmake": "make", "go": "go",
	"npm": "npm", "npx": "npx", "pnpx": "npx", "pnpm": "pnpm", "yarn": "yarn", "yarnpkg": "yarn",
	"pip": "pip", "pip3": "pip", "cargo": "cargo", "zip": "zip",
	"docker": "docker", "podman": "podman", "kubectl": "kubectl", "file": "file",
}

// FamilyOf returns the family of an executable basename (as produced by
// path.Base of argv[0]), or "" when the name belongs to none of this
// package's families. The comparison is exact (case-sensitive), except
// that pip followed by a Python version (pip3.12, pip2) is pip and a
// golang.org/dl release wrapper (go1.22.3, go1.23rc1) is go.
func FamilyOf(base string) string {
	if f, ok := familyNames[base]; ok {
		return f
	}
	if v, ok := strings.CutPrefix(base, "pip"); ok && v != "" && strings.Trim(v, "0123456789.") == "" {
		return "pip"
	}
	// golang.org/dl wrappers: go1.22.3, go1.23rc1 run that go release.
	if v, ok := strings.CutPrefix(base, "go1"); ok && strings.Trim(v, "0123456789.rcbeta") == "" {
		return "go"
	}
	return ""
}
