//go:build linux || darwin

package runner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// Run starts an approved call without a shell: the plan the policy
// decided says which file each stage executes and with which
// environment; the stages are connected by pipes, and the ">" file is
// written through the pinned working directory. Outcome and ExitCode say
// how it ended.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "runner-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir)
	p := policy.FromSettings(policy.Settings{Commands: []string{"printf", "sort"}, AllowedDirs: []string{dir},
		ChildEnv: childenv.Config{SafePath: "/usr/bin:/bin"}}, policy.Sandbox{})
	call, err := p.Decide(policy.Request{Argv: []string{"printf", `pear\napple\n`, "|", "sort", ">", "sorted.txt"}})
	if err != nil {
		panic(err)
	}
	defer call.Close()
	res, err := runner.Run(context.Background(), runner.Spec{Plan: call, Timeout: 10 * time.Second, OutputLimit: 1 << 20})
	if err != nil {
		panic(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "sorted.txt"))
	fmt.Printf("%s, exit %d, %d stages\n%s", res.Outcome, *res.ExitCode, len(res.Stages), b)
	// Output:
	// success, exit 0, 2 stages
	// apple
	// pear
}
