package argvrules

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
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

// checkPip is the recognizer of pip (pip, pip3, pip3.N; pip 23-25, optparse
// grammar: long options by unique prefix, short option clusters, options
// after operands). Refused in any position: --editor and every prefix of
// it (--edit, --edi; pip config's editor program), --python and its
// prefixes (--python runs pip under another interpreter program;
// --python-version stays allowed), pip config except the read-only list,
// get and debug actions (set/unset write a pip.conf outside the working
// directory whose global.python makes later pip runs start a program),
// and unknown commands. Contained (the path must stay inside the working
// directory): --log, --log-file, --local-log, --report, -d/--dest,
// -t/--target, --prefix, --root, -w/--wheel-dir, --src and --cache-dir,
// with their prefixes and aliases. Delegated: what pip install runs
// (build backends and setup.py of the packages it installs), --user
// installs into the user's site directory, requirement and constraint
// files (data in the requirements format), pip.conf files pip reads on
// its own, and network access.
func checkPip(argv []string, ctx Context) *Rejection {
	var cands []int
	for j := 1; j < len(argv); j++ {
		w := argv[j]
		if w == "--" {
			break
		}
		if !strings.HasPrefix(w, "--") {
			if !strings.HasPrefix(w, "-") && pipCommandCandidate(argv, cands, j) {
				cands = append(cands, j)
			}
			if r := pipShort(ctx, argv, j); r != nil {
				return r
			}
			continue
		}
		name, value, hasValue, _ := longName(w)
		if r := pipOption(ctx, argv, j, name, value, hasValue); r != nil {
			return r
		}
		if len(cands) == 0 && !hasValue && pipValueOptions[name] {
			j++ // a general option's separate value is not the command
		}
	}
	if r := pipFaithful(ctx, argv); r != nil {
		return r
	}
	return pipCommand(argv, cands)
}

// pipFaithful judges argv as pip's own two optparse passes read it
// (pipParse): the options as optparse resolves them, and pip config's
// action as the first word the command's parser leaves. The lexical rules
// above and pipCommand stay as a second, conservative reading.
func pipFaithful(ctx Context, argv []string) *Rejection {
	cmd, events, positional, ok := pipParse(argv)
	if !ok {
		return nil // pip stops with a usage error before doing anything
	}
	for _, ev := range events {
		w := argv[ev.index]
		switch ev.name {
		case "--editor":
			return rulePipExecOption.Reject(ev.index, w, "argument %d %q is --editor as pip's option parser reads it, which names the program pip config edit runs", ev.index, w)
		case "--python":
			return rulePipExecOption.Reject(ev.index, w, "argument %d %q is --python as pip's option parser reads it, which re-runs pip under an interpreter program of its choosing", ev.index, w)
		}
		kind := pipOutputs[strings.TrimPrefix(ev.name, "--")]
		if len(ev.name) == 2 && pipShortOutputs[ev.name[1]] {
			kind = redirect.Dir
		}
		if kind != 0 && ev.hasValue && !redirect.Harmless(ev.value) {
			if r := outputPath(ctx, "pip", ev.index, w, ev.value, kind); r != nil {
				return r
			}
		}
	}
	if cmd != "config" || len(positional) == 0 {
		return nil
	}
	for _, p := range positional {
		if p.text == "edit" {
			return rulePipExecCommand.Reject(p.index, p.text, "argument %d %q makes pip config run an editor program on the configuration file", p.index, p.text)
		}
	}
	if act := positional[0]; !pipConfigReadOnly[act.text] {
		return pipConfigRejection(act.index, act.text)
	}
	return nil
}

// pipCommandCandidate reports whether the operand argv[j] may be the
// command, given the candidates found before it: the first operand is,
// and, when the word before it is a long option without "=" (an
// abbreviated value option such as --cache takes it as its value), so is
// the next operand.
func pipCommandCandidate(argv []string, cands []int, j int) bool {
	switch len(cands) {
	case 0:
		return true
	case 1:
		prev := argv[cands[0]-1]
		return cands[0] > 1 && strings.HasPrefix(prev, "--") && !strings.Contains(prev, "=")
	}
	return false
}

// pipCommand judges the command candidates: an unknown command is
// refused unless a later candidate is a known one (then the first was an
// option's value), and pip config rules apply to every candidate that is
// config.
func pipCommand(argv []string, cands []int) *Rejection {
	known := false
	for _, c := range cands {
		known = known || pipCommands[argv[c]]
		if argv[c] == "config" {
			if r := pipConfig(argv, c); r != nil {
				return r
			}
		}
	}
	if len(cands) > 0 && !known {
		c := cands[0]
		return rulePipUnknownCommand.Reject(c, argv[c],
			"argument %d %q is not a pip command (only known commands are allowed)", c, argv[c])
	}
	return nil
}

// pipConfigReadOnly are the pip config actions that only read (pip 23-25
// configuration.py: the action is the first operand, matched exactly; pip
// does not abbreviate commands or actions).
var pipConfigReadOnly = map[string]bool{"list": true, "get": true, "debug": true}

// pipConfigWrites are the actions that write a pip.conf (or run an
// editor on one).
var pipConfigWrites = map[string]bool{"set": true, "unset": true, "edit": true}

// pipConfig allows pip config list, get and debug only: set and unset
// write the user's or site's pip.conf outside the working directory,
// where keys such as global.python, global.editor or global.index-url
// change what every later pip run executes or installs. Because an
// abbreviated value option (--cache list) can hide which word is the
// action, any operand that is a writing action is refused, not only the
// first.
func pipConfig(argv []string, cmd int) *Rejection {
	ops := pipOperands(argv, cmd)
	for _, k := range ops {
		switch w := argv[k]; {
		case w == "edit":
			return rulePipExecCommand.Reject(k, w,
				"argument %d %q makes pip config run an editor program on the configuration file", k, w)
		case pipConfigWrites[w]:
			return pipConfigRejection(k, w)
		}
	}
	if len(ops) > 0 && !pipConfigReadOnly[argv[ops[0]]] {
		return pipConfigRejection(ops[0], argv[ops[0]])
	}
	return nil
}

func pipConfigRejection(k int, w string) *Rejection {
	return rulePipConfigWrite.Reject(k, w,
		"argument %d %q is not a read-only pip config action (only list, get and debug are allowed): pip config set/unset writes a pip.conf outside the working directory, where global.python or global.editor name programs later pip runs start", k, w)
}

// pipOperands returns the indexes of the words after argv[cmd] that are
// neither options nor the separate value of a known value option.
func pipOperands(argv []string, cmd int) []int {
	var out []int
	for k := cmd + 1; k < len(argv); k++ {
		w := argv[k]
		if w == "-" || !strings.HasPrefix(w, "-") {
			out = append(out, k)
			continue
		}
		if name, _, hasValue, _ := longName(w); strings.HasPrefix(w, "--") && !hasValue && pipValueOptions[name] {
			k++
		}
	}
	return out
}

// pipOutputs are pip 23-25 long options whose value is a path pip writes
// (pip help install/download/wheel and the general options).
var pipOutputs = map[string]redirect.Kind{
	"log": redirect.File, "log-file": redirect.File, "local-log": redirect.File, "report": redirect.File,
	"dest": redirect.Dir, "destination-dir": redirect.Dir, "destination-directory": redirect.Dir,
	"target": redirect.Dir, "prefix": redirect.Dir, "root": redirect.Dir, "wheel-dir": redirect.Dir, "cache-dir": redirect.Dir,
	"src": redirect.Dir, "source": redirect.Dir, "source-dir": redirect.Dir, "source-directory": redirect.Dir,
}

// pipOutputList is pipOutputs' keys in sorted order, so a prefix that
// matches several reports the same one every time.
var pipOutputList = sortedKeys(pipOutputs)

// pipExactNonOutput are pip option names that are prefixes of an output
// option but name another option exactly (--pre, --local): optparse
// prefers an exact name to an abbreviation.
var pipExactNonOutput = map[string]bool{"pre": true, "local": true}

// pipOutputKind returns the kind of path the long option name writes, or
// 0: the exact name, or (optparse accepts unique prefixes) any prefix of
// an output option, conservatively also prefixes optparse would call
// ambiguous.
func pipOutputKind(name string) redirect.Kind {
	if k, ok := pipOutputs[name]; ok {
		return k
	}
	if name == "" || pipExactNonOutput[name] {
		return 0
	}
	for _, full := range pipOutputList {
		if strings.HasPrefix(full, name) {
			return pipOutputs[full]
		}
	}
	return 0
}

// pipShortValue are pip's short options that take a value (pip 23
// option tables, all commands): -C -a -c -d -e -f -i -r -t -w.
const pipShortValue = "Cacdefirtw"

// pipShortOutputs are the short options whose value is a directory pip
// writes: -d (--dest), -t (--target), -w (--wheel-dir).
var pipShortOutputs = map[byte]bool{'d': true, 't': true, 'w': true}

// pipShort judges a short option word argv[j] ("-t DIR", "-tDIR",
// "-qt DIR": optparse clusters short options, and a value option takes
// the rest of the word or the next word).
func pipShort(ctx Context, argv []string, j int) *Rejection {
	w := argv[j]
	if len(w) < 2 || w[0] != '-' || w[1] == '-' {
		return nil
	}
	for k := 1; k < len(w); k++ {
		c := w[k]
		if !strings.ContainsRune(pipShortValue, rune(c)) {
			continue
		}
		if !pipShortOutputs[c] {
			return nil
		}
		value, word := w[k+1:], w
		if value == "" {
			if j+1 >= len(argv) {
				return nil
			}
			value = argv[j+1]
			word += " " + value
		}
		return outputPath(ctx, "pip", j, word, value, redirect.Dir)
	}
	return nil
}

// pipOption judges one long option word argv[j] (name, attached value).
func pipOption(ctx Context, argv []string, j int, name, value string, hasValue bool) *Rejection {
	w := argv[j]
	switch {
	case isPrefixOf(name, "editor", 1):
		return rulePipExecOption.Reject(j, w,
			"argument %d %q selects --editor (optparse accepts unique prefixes), which names the program pip config edit runs", j, w)
	case isPrefixOf(name, "python", 2):
		return rulePipExecOption.Reject(j, w,
			"argument %d %q selects --python (optparse accepts unique prefixes), which re-runs pip under an interpreter program of its choosing", j, w)
	}
	kind := pipOutputKind(name)
	if kind == 0 {
		return nil
	}
	word := w
	if !hasValue {
		if j+1 >= len(argv) {
			return nil
		}
		value = argv[j+1]
		word += " " + value
	}
	if redirect.Harmless(value) {
		return nil
	}
	return outputPath(ctx, "pip", j, word, value, kind)
}
