package programs

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

const pipPolicy = "pip external program or output"

// pipCommands are the pip 24/25 commands ("pip help").
var pipCommands = map[string]bool{
	"install": true, "download": true, "uninstall": true, "freeze": true, "inspect": true,
	"list": true, "show": true, "check": true, "config": true, "search": true, "cache": true,
	"index": true, "wheel": true, "hash": true, "completion": true, "debug": true, "help": true,
	"lock": true,
}

// pipValueOptions are pip's general options that take a value, which
// may come before the command as a separate word.
var pipValueOptions = map[string]bool{
	"log": true, "log-file": true, "local-log": true, "proxy": true, "retries": true,
	"timeout": true, "exists-action": true, "trusted-host": true, "cert": true,
	"client-cert": true, "cache-dir": true, "keyring-provider": true, "use-feature": true,
	"use-deprecated": true,
}

// isPrefixOf reports whether name is a non-empty prefix of full with at
// least min bytes: Python optparse accepts any unique prefix of a long
// option, and this check refuses every prefix of a risky one.
func isPrefixOf(name, full string, min int) bool {
	return len(name) >= min && strings.HasPrefix(full, name)
}

// Pip is the recognizer of pip (pip, pip3, pip3.N; pip 24/25, optparse
// grammar: long options by unique prefix, options after operands).
// Refused in any position: --editor and every prefix of it (--edit,
// --edi; pip config's editor program), --python and its prefixes
// (--python runs pip under another interpreter program; --python-version
// stays allowed), pip config edit, and unknown commands. --log, --log-file
// and --local-log (and their prefixes) must name a file inside the working
// directory. Delegated: what pip install runs (build backends and setup.py
// of the packages it installs), where it installs (--target, --prefix,
// --root, --user), its caches, pip.conf and network access.
func Pip(argv []string, ctx argvrules.Context) *argvrules.Rejection {
	cmd := -1
	for j := 1; j < len(argv); j++ {
		w := argv[j]
		if w == "--" {
			break
		}
		if !strings.HasPrefix(w, "--") {
			if cmd < 0 && !strings.HasPrefix(w, "-") {
				cmd = j
			}
			continue
		}
		name, value, hasValue, _ := longName(w)
		if r := pipOption(ctx, argv, j, name, value, hasValue); r != nil {
			return r
		}
		if cmd < 0 && !hasValue && pipValueOptions[name] {
			j++ // a general option's separate value is not the command
		}
	}
	if cmd < 0 {
		return nil
	}
	name := argv[cmd]
	if !pipCommands[name] {
		return argvrules.Reject("pip.unknown-command", "pip command grammar", cmd, name,
			"argument %d %q is not a pip command (only known commands are allowed)", cmd, name)
	}
	if name == "config" {
		for _, k := range operandsAfter(argv, cmd) {
			if argv[k] == "edit" {
				return argvrules.Reject("pip.exec-command", pipPolicy, k, argv[k],
					"argument %d %q makes pip config run an editor program on the configuration file", k, argv[k])
			}
		}
	}
	return nil
}

// pipOption judges one long option word argv[j] (name, attached value).
func pipOption(ctx argvrules.Context, argv []string, j int, name, value string, hasValue bool) *argvrules.Rejection {
	w := argv[j]
	switch {
	case isPrefixOf(name, "editor", 1):
		return argvrules.Reject("pip.exec-option", pipPolicy, j, w,
			"argument %d %q selects --editor (optparse accepts unique prefixes), which names the program pip config edit runs", j, w)
	case isPrefixOf(name, "python", 2):
		return argvrules.Reject("pip.exec-option", pipPolicy, j, w,
			"argument %d %q selects --python (optparse accepts unique prefixes), which re-runs pip under an interpreter program of its choosing", j, w)
	case isPrefixOf(name, "log-file", 2) || isPrefixOf(name, "local-log", 6):
		word := w
		if !hasValue {
			if j+1 >= len(argv) {
				return nil
			}
			value = argv[j+1]
			word += " " + value
		}
		if harmlessOutput(value) {
			return nil
		}
		return outputPath(ctx, "pip", j, word, value, outFile)
	}
	return nil
}
