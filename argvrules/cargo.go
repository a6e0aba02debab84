package argvrules

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

const cargoPolicy = "cargo external program"

// cargoCommands are cargo 1.8x's built-in commands and aliases ("cargo
// --list"), the rustup-shipped subcommands (clippy, fmt, miri) and the
// xtask convention (a configuration alias for cargo run -p xtask, which
// runs repository code: delegated).
var cargoCommands = map[string]bool{
	"add": true, "b": true, "bench": true, "build": true, "c": true, "check": true,
	"clean": true, "config": true, "d": true, "doc": true, "fetch": true, "fix": true,
	"generate-lockfile": true, "help": true, "info": true, "init": true, "install": true,
	"locate-project": true, "login": true, "logout": true, "metadata": true, "new": true,
	"owner": true, "package": true, "pkgid": true, "publish": true, "r": true,
	"remove": true, "report": true, "rm": true, "run": true, "rustc": true, "rustdoc": true,
	"search": true, "t": true, "test": true, "tree": true, "uninstall": true, "update": true,
	"vendor": true, "verify-project": true, "version": true, "yank": true,
	"clippy": true, "fmt": true, "miri": true, "xtask": true,
}

// cargoGlobalValue are cargo's global options that take a separate value.
var cargoGlobalValue = map[string]bool{"--color": true, "-C": true, "-Z": true, "--explain": true}

// checkCargo is the recognizer of cargo (clap grammar: exact long names,
// --name=value or --name value, options after operands). Refused in any
// position: --config (every KEY=VALUE form, which can set
// target.*.runner, build.rustc-wrapper, target.*.linker ..., and every
// --config FILE); codegen options naming a linker or linker arguments
// (-C linker=, link-arg, link-args) and rustdoc's --runtool,
// --test-runtool and --test-builder; --target with a JSON target
// specification (which names a linker); cargo install --path; cargo doc
// --open (a browser); and unknown subcommands, which cargo runs as the
// program cargo-NAME from PATH or a configuration alias. Contained to the
// working directory: --target-dir, --artifact-dir and --out-dir. cargo
// build, check, test, run stay allowed: build scripts, proc macros, tests
// and the repository's .cargo/config.toml are delegated authority, as are
// cargo install (into the user's cargo bin directory, or --root), the
// directory operands of cargo new/init/vendor and --manifest-path.
func checkCargo(argv []string, ctx Context) *Rejection {
	if r := cargoScan(argv); r != nil {
		return r
	}
	if r := cargoOutputs(argv, ctx); r != nil {
		return r
	}
	cmd := -1
	for j := 1; j < len(argv); j++ {
		w := argv[j]
		if strings.HasPrefix(w, "+") && j == 1 {
			continue // rustup toolchain selector
		}
		if strings.HasPrefix(w, "-") {
			if cargoGlobalValue[w] {
				j++
			}
			continue
		}
		cmd = j
		break
	}
	if cmd < 0 {
		return nil
	}
	name := argv[cmd]
	if !cargoCommands[name] {
		return ruleCargoExternalCommand.Reject(cmd, name,
			"argument %d %q is not a built-in cargo command, so cargo would run the program cargo-%s from PATH or a configured alias", cmd, name, name)
	}
	for k := cmd + 1; k < len(argv); k++ {
		w := argv[k]
		switch {
		case name == "install" && (w == "--path" || strings.HasPrefix(w, "--path=")):
			return ruleCargoInstallPath.Reject(k, w,
				"argument %d %q makes cargo install build the local crate and install its binaries into the user's cargo bin directory, ahead of other programs on PATH", k, w)
		case (name == "doc" || name == "d") && w == "--open":
			return ruleCargoExecOption.Reject(k, w, "argument %d %q makes cargo doc open a web browser", k, w)
		}
	}
	return nil
}

// cargoOutputDirs are cargo 1.8x options whose value is a directory
// cargo writes build products into (clap: exact names, --name=value or
// --name value): --target-dir for every build command, and the unstable
// --artifact-dir with its former name --out-dir.
var cargoOutputDirs = map[string]bool{"--target-dir": true, "--artifact-dir": true, "--out-dir": true}

// cargoOutputs contains every cargoOutputDirs value to the working
// directory, in any position (words after "--" included: conservative).
func cargoOutputs(argv []string, ctx Context) *Rejection {
	for j := 1; j < len(argv); j++ {
		w := argv[j]
		name, value, hasValue := strings.Cut(w, "=")
		if !cargoOutputDirs[name] {
			continue
		}
		if !hasValue {
			if j+1 >= len(argv) {
				return nil
			}
			value = argv[j+1]
			w += " " + value
		}
		if r := outputPath(ctx, "cargo", j, w, value, redirect.Dir); r != nil {
			return r
		}
	}
	return nil
}

// cargoScan refuses the position-independent forms.
func cargoScan(argv []string) *Rejection {
	for j := 1; j < len(argv); j++ {
		w := argv[j]
		switch {
		case w == "--config" || strings.HasPrefix(w, "--config="):
			return ruleCargoConfig.Reject(j, w,
				"argument %d %q overrides cargo configuration, which can set target.*.runner, build.rustc-wrapper, linkers and other programs cargo runs", j, w)
		case (strings.Contains(w, "linker") || strings.Contains(w, "link-arg")) &&
			(strings.HasPrefix(w, "-") || strings.Contains(w, "=")):
			return ruleCargoExecOption.Reject(j, w,
				"argument %d %q names a linker or linker arguments, which run or load a program of its choosing", j, w)
		case strings.HasPrefix(w, "--runtool") || strings.HasPrefix(w, "--test-runtool") || strings.HasPrefix(w, "--test-builder"):
			return ruleCargoExecOption.Reject(j, w,
				"argument %d %q names a program rustdoc runs for doctests", j, w)
		case (w == "--target" && j+1 < len(argv) && strings.HasSuffix(argv[j+1], ".json")) ||
			(strings.HasPrefix(w, "--target=") && strings.HasSuffix(w, ".json")):
			return ruleCargoExecOption.Reject(j, w,
				"argument %d %q selects a JSON target specification, which names the linker program", j, w)
		}
	}
	return nil
}
