package argvrules

import (
	"path"
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
// working directory: --target-dir, --artifact-dir and --out-dir, and
// what the programs cargo passes "--" arguments to write (rustc -o,
// --out-dir, --emit KIND=PATH, -C incremental=DIR; rustdoc -o; the test
// harness's --logfile), with rustc's -Z, @argfile, --extern, --sysroot and
// -C llvm-args refused; a "+TOOLCHAIN" that is a path is refused. cargo
// build, check, test, run stay allowed: build scripts, proc macros, tests
// and the repository's .cargo/config.toml are delegated authority, as are
// cargo install (into the user's cargo bin directory, or --root), the
// directory operands of cargo new/init/vendor and --manifest-path.
func checkCargo(argv []string, ctx Context) *Rejection {
	if r := cargoToolchain(argv); r != nil {
		return r
	}
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
	if r := cargoPassThrough(argv, cmd, ctx); r != nil {
		return r
	}
	if r := cargoTargetDir(argv, cmd, ctx); r != nil {
		return r
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

// cargoToolchain refuses a rustup "+TOOLCHAIN" selector that is a path:
// rustup (toolchain names: channel[-date][-host] or a linked custom name)
// reads "+/dir" and "+./dir" as a custom toolchain directory and runs
// dir/bin/cargo, a program the request may have planted.
func cargoToolchain(argv []string) *Rejection {
	if len(argv) < 2 || !strings.HasPrefix(argv[1], "+") {
		return nil
	}
	tc := argv[1][1:]
	if tc == "" || tc == "." || tc == ".." || strings.ContainsAny(tc, `/\`) || strings.HasPrefix(tc, "~") {
		return ruleCargoExecOption.Reject(1, argv[1],
			"argument 1 %q names a toolchain by path, and rustup runs that directory's bin/cargo; name an installed toolchain (stable, nightly, 1.80.0)", argv[1])
	}
	return nil
}

// cargoPassThrough judges the words after "--" that cargo hands to
// another program: rustc (cargo rustc), rustdoc (cargo rustdoc) and the
// libtest harness (cargo test, cargo bench), each writing the files its
// own options name.
func cargoPassThrough(argv []string, cmd int, ctx Context) *Rejection {
	dash := -1
	for k := cmd + 1; k < len(argv); k++ {
		if argv[k] == "--" {
			dash = k
			break
		}
	}
	if dash < 0 {
		return nil
	}
	switch argv[cmd] {
	case "rustc":
		return rustcArgs(argv, dash+1, ctx, rustcOutputs)
	case "rustdoc":
		return rustcArgs(argv, dash+1, ctx, rustdocOutputs)
	case "test", "t", "bench":
		return rustcArgs(argv, dash+1, ctx, libtestOutputs)
	}
	return nil
}

// rustcTool is one pass-through program's options: which take a value,
// which name a file or directory it writes, and which are refused.
type rustcTool struct {
	name    string
	values  map[string]bool
	outputs map[string]redirect.Kind
	refused map[string]string
	// emit: --emit and --print take KIND=PATH lists that write PATH.
	emit bool
}

// rustcOutputs is rustc 1.8x's option table (rustc --help, -C help;
// rustc_session config.rs rustc_optgroups): -o FILE and --out-dir DIR
// write; --emit/--print KIND=PATH write PATH; -C incremental=DIR and
// profile-generate=DIR write directories; -Z (unstable, e.g.
// dump-mir-dir), @argfile (arguments the check cannot see), -C llvm-args
// (LLVM options such as -info-output-file write files), --extern and
// --sysroot (load crates and proc macros, shared libraries, from a path of
// its choosing) are refused.
var rustcOutputs = &rustcTool{
	name: "rustc",
	values: words(`-o --out-dir --emit --print -C --codegen -Z -L -l --cfg --check-cfg --crate-type
		--crate-name --edition --explain --target -W -A -D -F --warn --allow --deny --forbid --force-warn
		--cap-lints --extern --sysroot --error-format --json --color --remap-path-prefix --diagnostic-width`),
	outputs: map[string]redirect.Kind{"-o": redirect.File, "--out-dir": redirect.Dir},
	refused: map[string]string{
		"-Z": "sets unstable options, some of which write files of their own choosing", "--extern": "loads a crate, possibly a proc-macro shared library, from a path of its choosing",
		"--sysroot": "loads the standard library and proc-macro support from a directory of its choosing",
	},
	emit: true,
}

// rustdocOutputs is rustdoc's (rustdoc --help): -o/--out-dir/--output
// and --persist-doctests write directories.
var rustdocOutputs = &rustcTool{
	name: "rustdoc",
	values: words(`-o --out-dir --output --persist-doctests -C --codegen -Z -L --cfg --check-cfg --crate-type
		--crate-name --edition --target --extern --sysroot --html-in-header --html-before-content
		--html-after-content --markdown-css --theme --extend-css --test-args --error-format --color
		--default-theme --resource-suffix --crate-version --playground-url --test-run-directory`),
	outputs: map[string]redirect.Kind{"-o": redirect.Dir, "--out-dir": redirect.Dir, "--output": redirect.Dir, "--persist-doctests": redirect.Dir},
	refused: map[string]string{
		"-Z": "sets unstable options", "--extern": "loads a crate from a path of its choosing",
		"--sysroot": "loads the standard library from a directory of its choosing",
	},
}

// libtestOutputs is the test harness's (cargo test -- --help):
// --logfile PATH writes the results there.
var libtestOutputs = &rustcTool{
	name:    "the test harness",
	values:  words(`--logfile --test-threads --skip --color --format -Z --shuffle-seed`),
	outputs: map[string]redirect.Kind{"--logfile": redirect.File},
}

// rustcCodegenDirs are -C keys whose value is a directory rustc writes.
var rustcCodegenDirs = words("incremental profile-generate")

// rustcArgs walks argv[from:] with tool's options.
func rustcArgs(argv []string, from int, ctx Context, tool *rustcTool) *Rejection {
	for k := from; k < len(argv); k++ {
		w := argv[k]
		if strings.HasPrefix(w, "@") {
			return ruleCargoExecOption.Reject(k, w, "argument %d %q makes %s read arguments from a file, which this check cannot see", k, w, tool.name)
		}
		name, value, has := rustcSplit(w, tool)
		if name == "" {
			continue
		}
		word, at := w, k
		if !has && k+1 < len(argv) {
			k++
			value, word = argv[k], w+" "+argv[k]
		}
		if why, bad := tool.refused[name]; bad {
			return ruleCargoExecOption.Reject(at, word, "argument %d %q is %s's %s, which %s", at, word, tool.name, name, why)
		}
		if r := rustcValue(ctx, tool, at, word, name, value); r != nil {
			return r
		}
	}
	return nil
}

// rustcSplit returns the option name of w (getopts: "-oFILE", "-o FILE",
// "--out-dir=DIR", "--out-dir DIR") if it takes a value, "" otherwise.
func rustcSplit(w string, tool *rustcTool) (name, value string, has bool) {
	if strings.HasPrefix(w, "--") {
		n, v, h := strings.Cut(w, "=")
		if tool.values[n] {
			return n, v, h
		}
		return "", "", false
	}
	if len(w) >= 2 && w[0] == '-' && tool.values[w[:2]] {
		if len(w) > 2 {
			return w[:2], w[2:], true
		}
		return w[:2], "", false
	}
	return "", "", false
}

func rustcValue(ctx Context, tool *rustcTool, k int, word, name, value string) *Rejection {
	switch {
	case tool.outputs[name] != 0:
		return outputPath(ctx, "cargo", k, word, value, tool.outputs[name])
	case tool.emit && (name == "--emit" || name == "--print"):
		for _, item := range strings.Split(value, ",") {
			if _, p, ok := strings.Cut(item, "="); ok && !redirect.Harmless(p) {
				if r := outputPath(ctx, "cargo", k, word, p, redirect.File); r != nil {
					return r
				}
			}
		}
	case name == "-C" || name == "--codegen":
		key, v, _ := strings.Cut(value, "=")
		key = strings.ReplaceAll(key, "_", "-")
		switch {
		case key == "llvm-args":
			return ruleCargoExecOption.Reject(k, word, "argument %d %q passes options to LLVM, some of which write files of their own choosing", k, word)
		case rustcCodegenDirs[key] && v != "":
			return outputPath(ctx, "cargo", k, word, v, redirect.Dir)
		}
	}
	return nil
}

// cargoBuilds are the commands that write build products into the target
// directory.
var cargoBuilds = words("b build c check d doc r run t test bench rustc rustdoc clippy fix package install miri")

// cargoTargetDir contains the default target directory ("target" next to
// the manifest; the working directory's when no --manifest-path is given)
// of the commands that build, unless --target-dir names another (which
// cargoOutputs contains): a "target" symlink planted there is followed.
func cargoTargetDir(argv []string, cmd int, ctx Context) *Rejection {
	if !cargoBuilds[argv[cmd]] {
		return nil
	}
	root := "."
	for k := 1; k < len(argv); k++ {
		w := argv[k]
		if w == "--" {
			break
		}
		name, value, has := strings.Cut(w, "=")
		switch name {
		case "--target-dir":
			return nil
		case "--manifest-path":
			if !has && k+1 < len(argv) {
				value = argv[k+1]
			}
			root = path.Dir(value)
		}
	}
	if redirect.Check(root) != nil && root != "." {
		return nil // a manifest outside: cargo builds there on its own (delegated)
	}
	return outputPath(ctx, "cargo", cmd, argv[cmd], path.Join(root, "target"), redirect.Dir)
}
