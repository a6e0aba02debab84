package childenv

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// DefaultPath is the child PATH on POSIX when PATH is not delegated and
// MCP_SHELL_SAFE_PATH is unset or blank (spec "Child process environment").
const DefaultPath = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"

// reserved names are never forwarded, even when allowlisted: they steer the
// server's own machinery, not the child's.
var reserved = map[string]bool{"MCPGODEBUG": true}

// validName is the accepted shape of an environment variable name (POSIX
// portable names: letters, digits, underscore, not starting with a digit).
var validName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Config is the operator's child-environment configuration.
type Config struct {
	// Allowlist holds exact variable names (MCP_SHELL_CHILD_ENV_ALLOWLIST)
	// inherited from the parent or accepted as per-call overrides. Listing
	// "PATH" delegates the child PATH.
	Allowlist []string
	// SafePath is MCP_SHELL_SAFE_PATH; used exactly as configured when it is
	// not blank (empty or whitespace only).
	SafePath string
}

// NotAllowedError reports a per-call override whose name is not in the
// allowlist, or is reserved for the server.
type NotAllowedError struct {
	Name     string
	Reserved bool
}

func (e *NotAllowedError) Error() string {
	if e.Reserved {
		return fmt.Sprintf("environment variable %s is reserved for the server and never passed to children", e.Name)
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
	vals := map[string]string{"PATH": childPath(cfg, allowed["PATH"], parent, overrides)}
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
		}
	}
	return nil
}

// childPath applies the PATH precedence of the spec.
func childPath(cfg Config, delegated bool, parent func(string) (string, bool), overrides map[string]string) string {
	if delegated {
		if v, ok := overrides["PATH"]; ok {
			return v
		}
		if v, ok := parent("PATH"); ok {
			return v
		}
	}
	if strings.TrimSpace(cfg.SafePath) != "" {
		return cfg.SafePath
	}
	return DefaultPath
}

// IsSecretName reports whether name contains, case-insensitively, one of
// the spec's secret markers (SECRET, TOKEN, PASSWORD, PASS, PASSWD,
// API_KEY, ACCESS_KEY, PRIVATE_KEY, KEY, CREDENTIAL, AUTH; spec "Structured
// audit logs"). It is deliberately broad: GIT_AUTHOR_NAME matches AUTH.
func IsSecretName(name string) bool {
	upper := strings.ToUpper(name)
	for _, m := range secretMarkers {
		if strings.Contains(upper, m) {
			return true
		}
	}
	return false
}

// secretMarkers: PASSWORD/PASSWD are covered by PASS and the *_KEY forms by
// KEY, but all are listed to mirror the spec's catalogue.
var secretMarkers = []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "PASS", "API_KEY", "ACCESS_KEY", "PRIVATE_KEY", "KEY", "CREDENTIAL", "AUTH"}
