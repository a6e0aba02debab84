// Package cli is the mcp-shell-server command line: serving MCP over stdio
// (the default), the operator's `check` command, --help and --version. It
// wires config → policy → server → audit (serverOptions maps the
// config.Config onto the server.Options the server needs) and maps
// failures to exit statuses: 0 success, 1 a `check` verdict of reject, 2 a
// configuration or usage error.
package cli
