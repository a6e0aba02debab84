// Command mcp-shell-server is a hardened MCP server that runs allowlisted
// programs as argv arrays without a shell. See package cli.
package main

import (
	"os"

	"github.com/seed-b63acb1b/mcp-shell-server/cli"
	"github.com/seed-b63acb1b/mcp-shell-server/lifetime"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

func main() {
	// The sandbox launcher re-executes this binary to confine a child; it
	// must run before anything else (see package sandbox).
	if len(os.Args) > 1 && os.Args[1] == sandbox.LauncherArg {
		os.Exit(sandbox.RunLauncher(os.Args[2:]))
	}
	// So must the lifetime watchdog, which kills the calls' processes when
	// the server dies (see package lifetime).
	if len(os.Args) > 1 && os.Args[1] == lifetime.WatchdogArg {
		os.Exit(lifetime.RunWatchdog(os.Args[2:]))
	}
	os.Exit(cli.Main(os.Args[1:], cli.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
