// Package config loads the server's configuration from the environment with
// envconfig and validates it, failing closed: an invalid value is an error
// that names the variable, never a silent default.
//
// Every variable, its default and its meaning is declared once, in the tags
// of Env; --help prints that table. Load turns an Env into a validated
// Config (lists trimmed, patterns compiled, directories resolved).
package config
