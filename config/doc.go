// Package config reads the server's configuration from an environment and
// validates it, failing closed: an invalid value is an error that names
// the variable, never a silent default.
//
// Every variable and its meaning is declared once, in the tags of Env;
// defaults are Go constants of the package that owns them (defaults.go
// here, childenv.DefaultPath, sandbox.DefaultReadDirs and
// sandbox.DefaultLimits), filled in by defaultEnv. --help prints the table
// (Usage), and a test keeps deploy/example.env listing every variable.
//
// Parse(lookup, dirs) reads only through lookup and only the variables Env
// declares (github.com/caarlos0/env with Options.Environment built from
// lookup), so it never reads or writes the process environment and may
// run concurrently. Load(dirs) is Parse over os.LookupEnv plus the built-in
// profile when no allowlist variable is set; Parse alone never applies it
// (an explicit environment without an allowlist allows nothing).
//
// Values: unset and empty mean the default, but for the allowlist: any of
// ALLOW_COMMANDS, ALLOWED_COMMANDS and ALLOW_PATTERNS set, even empty,
// replaces the built-in profile, so empty ones allow nothing. Integers are decimal digits
// only: a sign, a leading zero ("010", which Go syntax would read as
// octal), "0x", "_" or an exponent is an error. Booleans are true, false,
// 1 or 0 (and strconv.ParseBool's other spellings). Lists are comma
// separated, entries trimmed, blank entries dropped. The result is a
// Config with lists sorted or trimmed, patterns compiled and directories
// resolved.
//
// UnknownVariables names the variables of an environment that look like
// settings but are none of Env's (every MCP_SHELL_* name it does not
// declare, near spellings of its unprefixed names), each with the nearest
// declared name, for the start-up warnings.
package config
