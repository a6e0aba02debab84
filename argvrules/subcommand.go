package argvrules

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/git"
)

// The subcommand readers of the families whose network depends on what
// they are asked to do (Network.Subcommands): each reads argv with the
// family's own grammar, the one its recognizer uses, so a fetch word that
// is an argument (npm test install, go test . -args get, cargo test
// fetch) is not the subcommand. Where the grammar leaves two readings
// (an unknown option that may or may not take a value), both are
// returned: the program may run either.

func gitSubcommands(argv []string) []string { return nonEmptyWords(git.Subcommand(argv)) }

// goSubcommands skips the go command's own options (-C DIR, -h), as
// checkGo does.
func goSubcommands(argv []string) []string {
	i := 1
	for ; i < len(argv); i++ {
		name, _, hasValue, ok := longName(argv[i])
		if !ok {
			break
		}
		if name == "C" && !hasValue {
			i++
		}
	}
	if i >= len(argv) {
		return nil
	}
	return []string{argv[i]}
}

// npmSubcommands is the command nopt leaves first (npm 11
// lib/cli/entry.js), dereferenced as npm does (aliases, abbreviations
// npm resolves uniquely).
func npmSubcommands(argv []string) []string {
	res := noptParse(argv)
	if len(res.remain) == 0 {
		return nil
	}
	return []string{npmDeref(argv[res.remain[0]])}
}

// nodeSubcommands are pnpm's and yarn's command candidates (nodeCommands);
// bare yarn installs (yarn 1 and berry).
func nodeSubcommands(install bool) func(argv []string) []string {
	return func(argv []string) []string {
		var out []string
		for _, j := range nodeCommands(argv) {
			out = append(out, argv[j])
		}
		if len(out) == 0 && install {
			out = []string{"install"}
		}
		return out
	}
}

// pipSubcommands skips pip's general options, a separate value after the
// ones that take one (pipValueOptions), as checkPip does.
func pipSubcommands(argv []string) []string {
	for j := 1; j < len(argv); j++ {
		w := argv[j]
		switch {
		case w == "--":
			return nil
		case strings.HasPrefix(w, "--"):
			name, _, hasValue, _ := longName(w)
			if !hasValue && pipValueOptions[name] {
				j++
			}
		case strings.HasPrefix(w, "-"):
		default:
			return []string{w}
		}
	}
	return nil
}

// cargoSubcommands skips a leading +TOOLCHAIN and cargo's global options,
// as checkCargo does.
func cargoSubcommands(argv []string) []string {
	for j := 1; j < len(argv); j++ {
		w := argv[j]
		switch {
		case strings.HasPrefix(w, "+") && j == 1:
		case strings.HasPrefix(w, "-"):
			if cargoGlobalValue[w] {
				j++
			}
		default:
			return []string{w}
		}
	}
	return nil
}

func nonEmptyWords(w string) []string {
	if w == "" {
		return nil
	}
	return []string{w}
}
