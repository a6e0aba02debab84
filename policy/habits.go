package policy

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
)

// Shell habits: what a client that thinks in shell command lines sends,
// and what to do instead. A command is an argv array run without a
// shell, so a builtin such as cd is no program, a leading NAME=VALUE is
// no environment assignment, and one string holding a whole command line
// is one (unsafe) program name.

// shellBuiltins are the shell builtins that have no program of their
// name on a Unix system (POSIX XCU 2.14 special built-ins, 2.9.1 and
// bash(1) SHELL BUILTIN COMMANDS; builtins that are also programs, such
// as echo, test, pwd and kill, run as programs and are not listed), and
// what to do instead.
var shellBuiltins = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	add := func(advice string, names ...string) {
		for _, n := range names {
			m[n] = advice
		}
	}
	add(`%q is a shell builtin, not a program: to run in another directory, set the call's "directory" field (shell_execute) or "cwd" (execute_command) and send the command itself`,
		"cd", "pushd", "popd", "dirs")
	add(`%q is a shell builtin, not a program: to give a program environment variables, use the call's "envs" field (for names the operator delegates)`,
		"export", "unset", "set", "declare", "typeset", "local", "readonly", "let")
	add(`%q is a shell builtin, not a program: there is no shell here to read a script, define aliases or change its own state; send the program's argv itself`,
		"source", ".", "alias", "unalias", "eval", "exec", "exit", "ulimit", "umask", "shopt", "trap", "history")
	return m
})

// assignment is a leading NAME=VALUE word.
var assignment = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*=`)

// shellHabit returns the refusal of a program name that is a shell habit
// (a builtin or an environment assignment), or nil.
func shellHabit(name string, index int) error {
	if advice, ok := shellBuiltins()[name]; ok {
		return reject(CodeShellHabit, index, name, "Command not allowed: "+strings.ReplaceAll(advice, "%q", "%s"), name)
	}
	if assignment.MatchString(name) {
		return reject(CodeShellHabit, index, name,
			`Command not allowed: %s is a shell environment assignment, not a program: use the call's "envs" field for the variable (names the operator delegates) and start the argv with the program`, name)
	}
	return nil
}

// splitHint is what to send instead of a name that holds a whole command
// line: its words as argv elements (quotes mean nothing here).
func splitHint(name string) string {
	words := strings.Fields(name)
	if len(words) < 2 {
		return ""
	}
	b, _ := json.Marshal(words)
	return "; a command is an argv array with one element per word: send " + string(b) + " instead of one string (quotes and spaces are not parsed: each element reaches the program as it is)"
}
