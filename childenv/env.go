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
		return fmt.Sprintf("environment variable %s changes which code or helper programs a child runs and is never accepted per call (the operator may still pass the server's own value through MCP_SHELL_CHILD_ENV_ALLOWLIST)", e.Name)
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
	vals["PATH"] = childPath(cfg, allowed["PATH"], parent, overrides)
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

// steeringPrefixes and steeringNames are variables through which a request
// could make an allowlisted program load other code or run a helper: the
// dynamic loader, git's command and config overrides, interpreter and
// tool option variables, pagers, editors and askpass helpers. Seen in
// public bypasses: GIT_SSH_COMMAND, GIT_CONFIG_*, LD_PRELOAD,
// RIPGREP_CONFIG_PATH (a config file carrying --pre), TAR_OPTIONS.
var (
	steeringPrefixes = []string{"LD_", "DYLD_", "GIT_", "NPM_CONFIG_", "CARGO_", "PIP_", "GCONV_"}
	steeringNames    = map[string]bool{
		"BASH_ENV": true, "ENV": true, "SHELLOPTS": true, "BASHOPTS": true, "PS4": true, "PROMPT_COMMAND": true, "IFS": true,
		"RIPGREP_CONFIG_PATH": true, "TAR_OPTIONS": true, "GZIP": true, "XZ_OPT": true, "BZIP2": true,
		"NODE_OPTIONS": true, "NODE_PATH": true, "PYTHONSTARTUP": true, "PYTHONPATH": true, "PYTHONHOME": true,
		"PERL5OPT": true, "PERL5LIB": true, "PERLLIB": true, "RUBYOPT": true, "RUBYLIB": true,
		"GOFLAGS": true, "GOTOOLCHAIN": true, "GOENV": true, "GOPROXY": true, "RUSTC_WRAPPER": true, "RUSTC": true,
		"MAKEFLAGS": true, "MFLAGS": true, "MAKEFILES": true, "AWKPATH": true, "AWKLIBPATH": true,
		"GAWK_PERSIST_FILE": true, "MAWK_LONG_OPTIONS": true, "POSIXLY_CORRECT": true, "_POSIX2_VERSION": true,
		"LOCPATH": true, "HOSTALIASES": true, "PAGER": true, "MANPAGER": true, "LESSOPEN": true, "LESSCLOSE": true,
		"EDITOR": true, "VISUAL": true, "SSH_ASKPASS": true, "SUDO_ASKPASS": true, "WGETRC": true, "CURL_HOME": true,
		"SHELL": true, "HOME": true, "XDG_CONFIG_HOME": true, "PATH": false,
	}
)

// Steering reports whether a per-call override of name could make a child
// load other code or run a helper program (matched case-insensitively).
func Steering(name string) bool {
	u := strings.ToUpper(name)
	if steeringNames[u] {
		return true
	}
	for _, p := range steeringPrefixes {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}
