package runner

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// The test binary impersonates the programs of the cross-platform tests
// (os/exec's exec_test.go pattern): a stage is [test binary, helperArg,
// NAME, ARG...], so those tests need no sh, sleep or coreutils and behave
// the same on every platform, Windows included. (The Linux and macOS
// tests use the smaller proctest helper instead, whose start does not
// cost the -race test binary's initialisation, a third of a second on a
// loaded machine: see stage in run_test.go.) Each helper is registered in
// the file that uses it; after a full passing run under
// MCP_SHELL_TEST_REQUIRE_PROGRAMS=1 (CI), a helper no test used fails the
// run, so stale helpers cannot pile up.

// helperArg is os.Args[1] of the test binary acting as a stage program.
const helperArg = "__runner-test-helper"

// sleeperLife is how long the "sleep" helper blocks: the stand-in for a
// descendant that outlives its call. A test that asserts a call did not
// wait for it bounds the call at half of it (beforeSleeper), which no
// loaded machine reaches and a call that waited always passes.
const sleeperLife = 100 * time.Second

// beforeSleeper bounds a call that must not wait for a sleeper.
const beforeSleeper = sleeperLife / 2

var (
	helpers    = map[string]func(args []string) int{}
	helperUsed sync.Map
)

// registerHelper registers a program the test binary can impersonate.
func registerHelper(name string, f func(args []string) int) {
	if helpers[name] != nil {
		panic("helper registered twice: " + name)
	}
	helpers[name] = f
}

// runHelper is the helperArg mode: it runs helper args[0].
func runHelper(args []string) int {
	if len(args) == 0 || helpers[args[0]] == nil {
		fmt.Fprintf(os.Stderr, "no such helper: %q\n", args)
		return 2
	}
	return helpers[args[0]](args[1:])
}

// checkHelpersUsed fails a full passing run that left a helper unused
// (only in CI's mode: a test that skips here, for want of Landlock say,
// leaves its helpers unused on a newcomer's machine).
func checkHelpersUsed(code int) int {
	if code != 0 || !testenv.RequirePrograms() || testing.Short() ||
		flag.Lookup("test.run").Value.String() != "" || flag.Lookup("test.list").Value.String() != "" {
		return code
	}
	for name := range helpers {
		if _, ok := helperUsed.Load(name); !ok {
			fmt.Fprintf(os.Stderr, "helper %q is registered but no test used it\n", name)
			code = 1
		}
	}
	return code
}

var testBinary = sync.OnceValues(os.Executable)

// helperRuns names the helpers a helper starts itself ("tree" starts a
// "sleep" grandchild), which a test using it uses too.
var helperRuns = map[string][]string{"tree": {"sleep"}}

// helper returns the argv of a stage that runs helper name with args.
func helper(t testing.TB, name string, args ...string) []string {
	t.Helper()
	if helpers[name] == nil {
		t.Fatalf("no helper %q", name)
	}
	helperUsed.Store(name, true)
	for _, inner := range helperRuns[name] {
		helperUsed.Store(inner, true)
	}
	exe, err := testBinary()
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{exe, helperArg, name}, args...)
}

func init() {
	registerHelper("echo", func(args []string) int {
		fmt.Println(strings.Join(args, " "))
		return 0
	})
	registerHelper("exit", func(args []string) int {
		n, _ := strconv.Atoi(args[0])
		return n
	})
	// sleep blocks for sleeperLife, or until killed.
	registerHelper("sleep", func([]string) int {
		time.Sleep(sleeperLife)
		return 0
	})
	// tree FILE starts a "sleep" grandchild that shares its stdout and
	// stderr, writes the grandchild's pid to FILE, prints "started" and
	// sleeps; with "exit" after FILE it exits at once instead.
	registerHelper("tree", func(args []string) int {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		gc := exec.Command(exe, helperArg, "sleep")
		gc.Stdout, gc.Stderr = os.Stdout, os.Stderr
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if err := os.WriteFile(args[0], []byte(strconv.Itoa(gc.Process.Pid)), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println("started")
		if slices.Contains(args[1:], "exit") {
			return 0
		}
		time.Sleep(sleeperLife)
		return 0
	})
}
