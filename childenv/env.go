package childenv

import (
	"fmt"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
)

// reserved names are never forwarded, even when allowlisted: they steer the
// server's own machinery, not the child's.
var reserved = map[string]bool{"MCPGODEBUG": true}

// validName is the accepted shape of an environment variable name (POSIX
// portable names: letters, digits, underscore, not starting with a digit).
var validName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Config is the operator's child-environment configuration.
type Config struct {
	// Allowlist holds exact variable names (MCP_SHELL_CHILD_ENV_ALLOWLIST)
	// inherited from the parent or accepted as per-call overrides. Listing
	// "PATH" delegates the child PATH.
	Allowlist []string
	// SafePath is MCP_SHELL_SAFE_PATH; used exactly as configured when it is
	// not blank (empty or whitespace only).
	SafePath string
	// Home is the children's HOME (MCP_SHELL_CHILD_HOME, by default the
	// server's own); "" passes no HOME.
	Home string
}

// NotAllowedError reports a per-call override whose name is not in the
// allowlist, is reserved for the server, or steers how programs load code
// or start helpers (Steering).
type NotAllowedError struct {
	Name     string
	Reserved bool
	Steering bool
}

func (e *NotAllowedError) Error() string {
	if e.Reserved {
		return fmt.Sprintf("environment variable %s is reserved for the server and never passed to children", e.Name)
	}
	if e.Steering {
		why, _ := SteeringReason(e.Name)
		return fmt.Sprintf("environment variable %s changes which code or helper programs a child runs (%s) and is never accepted per call (the operator may still pass the server's own value through MCP_SHELL_CHILD_ENV_ALLOWLIST)", e.Name, why)
	}
	return fmt.Sprintf("environment variable %s is not in MCP_SHELL_CHILD_ENV_ALLOWLIST", e.Name)
}

// NameError reports a variable name that is not ^[A-Za-z_][A-Za-z0-9_]*$
// (empty, containing "=", NUL, or other characters). Source says where the
// name came from: "allowlist" or "override".
type NameError struct {
	Name   string
	Source string
}

func (e *NameError) Error() string {
	return fmt.Sprintf("invalid environment variable name %q in %s: names must match [A-Za-z_][A-Za-z0-9_]*", e.Name, e.Source)
}

// ValueError reports a value containing a NUL byte, which cannot be passed
// to execve.
type ValueError struct {
	Name string
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("value of environment variable %s contains a NUL byte", e.Name)
}

// Build returns the complete child environment as sorted "NAME=value"
// entries: PATH (chosen by the precedence in the package doc) plus every
// allowlisted name present in overrides (which win) or in the parent
// environment, looked up with parent (os.LookupEnv in production). A
// delegated PATH absent from both overrides and parent falls through to
// SafePath/DefaultPath.
//
// Errors: *NameError for an invalid allowlisted or override name,
// *NotAllowedError for an override whose name is not allowlisted or is
// reserved, *ValueError for a NUL byte in a value that would be passed.
func Build(cfg Config, parent func(string) (string, bool), overrides map[string]string) ([]string, error) {
	allowed, err := allowSet(cfg.Allowlist)
	if err != nil {
		return nil, err
	}
	if err := checkOverrides(overrides, allowed); err != nil {
		return nil, err
	}
	vals := base(cfg, parent)
	vals["PATH"] = childPath(cfg, allowed["PATH"], parent)
	for name := range allowed {
		if name == "PATH" {
			continue
		}
		if v, ok := overrides[name]; ok {
			vals[name] = v
		} else if v, ok := parent(name); ok {
			vals[name] = v
		}
	}
	env := make([]string, 0, len(vals))
	for name, v := range vals {
		if strings.IndexByte(v, 0) >= 0 {
			return nil, &ValueError{Name: name}
		}
		env = append(env, name+"="+v)
	}
	slices.Sort(env) // "=" sorts before name characters, so this sorts by name
	return env, nil
}

func allowSet(list []string) (map[string]bool, error) {
	set := make(map[string]bool, len(list))
	for _, name := range list {
		if !validName.MatchString(name) {
			return nil, &NameError{Name: name, Source: "allowlist"}
		}
		if !reserved[name] {
			set[name] = true
		}
	}
	return set, nil
}

func checkOverrides(overrides map[string]string, allowed map[string]bool) error {
	names := make([]string, 0, len(overrides))
	for name := range overrides {
		names = append(names, name)
	}
	slices.Sort(names) // report the same name on every call
	for _, name := range names {
		switch {
		case !validName.MatchString(name):
			return &NameError{Name: name, Source: "override"}
		case reserved[name]:
			return &NotAllowedError{Name: name, Reserved: true}
		case !allowed[name]:
			return &NotAllowedError{Name: name}
		case Steering(name):
			return &NotAllowedError{Name: name, Steering: true}
		}
	}
	return nil
}

// childPath applies the PATH precedence of the spec. A per-call PATH
// never reaches here: checkOverrides refuses it (Steering), so the PATH a
// child gets is the one ProgramPath resolves programs with.
func childPath(cfg Config, delegated bool, parent func(string) (string, bool)) string {
	if delegated {
		if v, ok := parent("PATH"); ok {
			return v
		}
	}
	if strings.TrimSpace(cfg.SafePath) != "" {
		return cfg.SafePath
	}
	return DefaultPath
}

// ProgramPath is the PATH every child gets and every program name is
// resolved with (by the policy before the call and by the runner at the
// start): the operator's PATH when delegated, else MCP_SHELL_SAFE_PATH,
// else DefaultPath. Invalid allowlist names are ignored here; Build
// reports them.
func ProgramPath(cfg Config, parent func(string) (string, bool)) string {
	return childPath(cfg, slices.Contains(cfg.Allowlist, "PATH"), parent)
}

// Lookup returns the first value of name in env ("NAME=value" entries),
// the one a child's getenv sees.
func Lookup(env []string, name string) (string, bool) {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name); ok && strings.HasPrefix(v, "=") {
			return v[1:], true
		}
	}
	return "", false
}

// Overlay returns env with extra's entries added, an extra entry
// replacing any entry of the same name, sorted by name: the hardening
// must win over a delegated value, and a duplicated name would leave the
// choice to each program's getenv. Empty values are kept (they are
// meaningful, e.g. GIT_PROXY_COMMAND=). env is not modified.
func Overlay(env, extra []string) []string {
	names := make(map[string]bool, len(extra))
	var last []string // extra's entries, the last of each name
	for i := len(extra) - 1; i >= 0; i-- {
		if name, _, _ := strings.Cut(extra[i], "="); !names[name] {
			names[name] = true
			last = append(last, extra[i])
		}
	}
	if sortedNames(env) {
		return mergeSorted(env, last, names)
	}
	out := make([]string, 0, len(env)+len(last))
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !names[name] {
			out = append(out, kv)
		}
	}
	out = append(out, last...)
	slices.SortStableFunc(out, func(a, b string) int {
		an, _, _ := strings.Cut(a, "=")
		bn, _, _ := strings.Cut(b, "=")
		return strings.Compare(an, bn)
	})
	return out
}

// sortedNames reports whether env's names are strictly increasing: what
// Build and Overlay return. Every stage of every call lays git's forty
// hardening entries over such an environment, and sorting those alone
// and merging costs about half of sorting the whole again
// (BenchmarkOverlay).
func sortedNames(env []string) bool {
	prev := ""
	for i, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if i > 0 && name <= prev {
			return false
		}
		prev = name
	}
	return true
}

// mergeSorted is Overlay for an env whose names are strictly increasing:
// extra's last entries (last, one per name; names holds their names)
// sorted, then merged with the entries of env they do not replace.
func mergeSorted(env, last []string, names map[string]bool) []string {
	type entry struct{ name, kv string }
	add := make([]entry, len(last))
	for i, kv := range last {
		name, _, _ := strings.Cut(kv, "=")
		add[i] = entry{name, kv}
	}
	slices.SortFunc(add, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	out := make([]string, 0, len(env)+len(add))
	j := 0
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		for j < len(add) && add[j].name < name {
			out = append(out, add[j].kv)
			j++
		}
		if !names[name] {
			out = append(out, kv)
		}
	}
	for ; j < len(add); j++ {
		out = append(out, add[j].kv)
	}
	return out
}
