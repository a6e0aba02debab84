// Command mcp-shell-server is a hardened MCP server that runs allowlisted
// programs as argv arrays without a shell. See package cli.
package main

import (
	"os"

	"github.com/seed-b63acb1b/mcp-shell-server/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
