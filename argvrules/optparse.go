package argvrules

import (
	"strings"
	"sync"
)

// pip reads its command line with Python's optparse, twice (pip 23.2
// cli/main_parser.py parse_command): the main parser, with the general
// options and interspersed arguments disabled, stops at the first word
// that is not an option and takes it as the command; then the first
// occurrence of that word is removed from argv and the command's parser
// (general and command options, interspersed) reads all the rest. optparse
// accepts a unique prefix of a long option (_match_abbrev), takes a value
// option's value from "=VALUE" or the next word whatever it looks like,
// clusters short options, and stops at "--". pip matches command names
// exactly. The policy follows both passes, so abbreviated value options
// (--prox, --cer) cannot hide the command.

// pyOptions is one optparse parser's options: every long and short
// spelling and whether it takes a value.
type pyOptions map[string]bool

// pipOptionTable is pip 23.2.1's option table, as its parsers list it
// (create_main_parser, create_command(name).parser): general options, then
// each command's own, as value-taking and flag spellings.
var pipOptionTable = sync.OnceValue(func() map[string]pyOptions {
	rows := map[string][2]string{
		"general": {"--python --log --log-file --local-log --keyring-provider --proxy --retries --timeout --default-timeout --exists-action --trusted-host --cert --client-cert --cache-dir --use-feature --use-deprecated",
			"--help -h --debug --isolated --require-virtualenv --require-venv --verbose -v --version -V --quiet -q --no-input --no-cache-dir --disable-pip-version-check --no-color --no-python-version-warning"},
		"cache":      {"--format", ""},
		"check":      {"", ""},
		"completion": {"", "--bash -b --zsh -z --fish -f --powershell -p"},
		"config":     {"--editor", "--global --user --site"},
		"debug":      {"--platform --python-version --implementation --abi", ""},
		"download": {"--constraint -c --requirement -r --global-option --no-binary --only-binary --src --source --source-dir --source-directory --progress-bar --dest --destination-dir --destination-directory -d --platform --python-version --implementation --abi --index-url --pypi-url -i --extra-index-url --find-links -f",
			"--no-deps --no-dependencies --prefer-binary --pre --require-hashes --no-build-isolation --use-pep517 --no-use-pep517 --check-build-dependencies --ignore-requires-python --no-clean --no-index"},
		"freeze":  {"--requirement -r --path --exclude", "--local -l --user --all --exclude-editable"},
		"hash":    {"--algorithm -a", ""},
		"help":    {"", ""},
		"index":   {"--platform --python-version --implementation --abi --no-binary --only-binary --index-url --pypi-url -i --extra-index-url --find-links -f", "--ignore-requires-python --pre --no-index"},
		"inspect": {"--path", "--local --user"},
		"install": {"--requirement -r --constraint -c --editable -e --target -t --platform --python-version --implementation --abi --root --prefix --src --source --source-dir --source-directory --upgrade-strategy --config-settings -C --global-option --no-binary --only-binary --progress-bar --root-user-action --report --index-url --pypi-url -i --extra-index-url --find-links -f",
			"--no-deps --no-dependencies --pre --dry-run --user --no-user --upgrade -U --force-reinstall --ignore-installed -I --ignore-requires-python --no-build-isolation --use-pep517 --no-use-pep517 --check-build-dependencies --break-system-packages --compile --no-compile --no-warn-script-location --no-warn-conflicts --prefer-binary --require-hashes --no-clean --no-index"},
		"list": {"--path --format --exclude --index-url --pypi-url -i --extra-index-url --find-links -f",
			"--outdated -o --uptodate -u --editable -e --local -l --user --pre --not-required --exclude-editable --include-editable --no-index"},
		"search":    {"--index -i", ""},
		"show":      {"", "--files -f"},
		"uninstall": {"--requirement -r --root-user-action", "--yes -y --break-system-packages"},
		"wheel": {"--wheel-dir -w --no-binary --only-binary --constraint -c --editable -e --requirement -r --src --source --source-dir --source-directory --progress-bar --config-settings -C --build-option --global-option --index-url --pypi-url -i --extra-index-url --find-links -f",
			"--prefer-binary --no-build-isolation --use-pep517 --no-use-pep517 --check-build-dependencies --ignore-requires-python --no-deps --no-dependencies --no-verify --pre --require-hashes --no-clean --no-index"},
	}
	build := func(r [2]string, base pyOptions) pyOptions {
		o := pyOptions{}
		for s, v := range base {
			o[s] = v
		}
		for _, s := range strings.Fields(r[0]) {
			o[s] = true
		}
		for _, s := range strings.Fields(r[1]) {
			o[s] = false
		}
		return o
	}
	general := build(rows["general"], nil)
	out := map[string]pyOptions{"general": general}
	for name, r := range rows {
		if name != "general" {
			out[name] = build(r, general) // every command's parser has the general options too
		}
	}
	return out
})

// pyWord is an argument with the argv index it came from.
type pyWord struct {
	text  string
	index int
}

// pyEvent is one parsed option: its canonical spelling, the argv index of
// the word that spelled it, and its value.
type pyEvent struct {
	name     string
	index    int
	value    string
	hasValue bool
	valueAt  int
}

// pyParse is optparse's _process_args over args with opts. With
// interspersed false it stops at the first non-option word (the rest is
// returned as positional). ok is false on a usage error (unknown or
// ambiguous option, missing or unexpected value): optparse exits then.
func pyParse(opts pyOptions, args []pyWord, interspersed bool) (events []pyEvent, positional []pyWord, ok bool) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w.text == "--":
			return events, append(positional, args[i+1:]...), true
		case strings.HasPrefix(w.text, "--"):
			name, value, hasValue := strings.Cut(w.text, "=")
			full, found := pyMatchAbbrev(name, opts)
			if !found {
				return events, positional, false
			}
			ev := pyEvent{name: full, index: w.index, value: value, hasValue: hasValue, valueAt: w.index}
			switch {
			case opts[full] && !hasValue:
				if i+1 >= len(args) {
					return events, positional, false
				}
				i++
				ev.value, ev.hasValue, ev.valueAt = args[i].text, true, args[i].index
			case !opts[full] && hasValue:
				return events, positional, false
			}
			events = append(events, ev)
		case len(w.text) > 1 && w.text[0] == '-':
			for k := 1; k < len(w.text); k++ {
				name := "-" + w.text[k:k+1]
				takes, known := opts[name]
				if !known {
					return events, positional, false
				}
				ev := pyEvent{name: name, index: w.index}
				if takes {
					ev.hasValue, ev.valueAt = true, w.index
					if ev.value = w.text[k+1:]; ev.value == "" {
						if i+1 >= len(args) {
							return events, positional, false
						}
						i++
						ev.value, ev.valueAt = args[i].text, args[i].index
					}
					events = append(events, ev)
					break
				}
				events = append(events, ev)
			}
		default:
			if !interspersed {
				return events, append(positional, args[i:]...), true
			}
			positional = append(positional, w)
		}
	}
	return events, positional, true
}

// pyMatchAbbrev is optparse's _match_abbrev: an exact long option, else
// the only one starting with s.
func pyMatchAbbrev(s string, opts pyOptions) (string, bool) {
	if _, ok := opts[s]; ok {
		return s, true
	}
	match := ""
	for name := range opts {
		if strings.HasPrefix(name, "--") && strings.HasPrefix(name, s) {
			if match != "" {
				return "", false
			}
			match = name
		}
	}
	return match, match != ""
}

// pipParse is pip's parse_command and the command's own parse. ok is false
// when either pass is a usage error (pip exits before doing anything).
func pipParse(argv []string) (cmd string, events []pyEvent, positional []pyWord, ok bool) {
	args := make([]pyWord, 0, len(argv))
	for i := 1; i < len(argv); i++ {
		args = append(args, pyWord{argv[i], i})
	}
	mainEvents, rest, ok := pyParse(pipOptionTable()["general"], args, false)
	if !ok || len(rest) == 0 {
		return "", mainEvents, nil, ok
	}
	cmd = rest[0].text
	opts, known := pipOptionTable()[cmd]
	if !known {
		return cmd, mainEvents, nil, false
	}
	cmdArgs := make([]pyWord, 0, len(args))
	removed := false
	for _, w := range args { // cmd_args.remove(cmd_name): the first equal word
		if !removed && w.text == cmd {
			removed = true
			continue
		}
		cmdArgs = append(cmdArgs, w)
	}
	events, positional, ok = pyParse(opts, cmdArgs, true)
	return cmd, events, positional, ok
}
