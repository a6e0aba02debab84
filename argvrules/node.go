package argvrules

import (
	"path"
	"sort"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

const nodePolicy = "package manager runs a program"

// nodeRiskKeys are npm, pnpm and yarn configuration keys that name a
// program, a script to load, or a configuration file that can name one
// (npm 10 "npm help config", pnpm 9 settings, yarn 1/4 settings). They
// are refused as --KEY, --KEY=VALUE, --no-KEY, --config.KEY=VALUE and as
// unique abbreviations (npm's nopt resolves prefixes of known keys).
var nodeRiskKeys = map[string]string{
	"script-shell":  "selects the shell that runs every package script",
	"shell":         "selects the shell npm exec and npm explore run",
	"editor":        "selects the editor program npm edit and npm config edit run",
	"browser":       "selects the browser program npm docs, bugs, repo and help run",
	"viewer":        "selects the program npm help shows pages with",
	"git":           "selects the git program npm runs for git dependencies",
	"node-options":  "passes options such as --require or --eval to every node process scripts start",
	"node-gyp":      "selects the program that builds native addons",
	"userconfig":    "reads an npmrc of its choosing, which can set script-shell and the other program keys",
	"globalconfig":  "reads an npmrc of its choosing, which can set script-shell and the other program keys",
	"init-module":   "runs a JavaScript file of its choosing for npm init",
	"onload-script": "loads a JavaScript file of its choosing into npm",
	"call":          "runs a shell command string with npm exec",
	"use-yarnrc":    "reads a yarnrc of its choosing, whose yarn-path runs a JavaScript file",
	"yarn-path":     "runs a JavaScript file of its choosing as yarn",
}

// nodeRiskKeyList is nodeRiskKeys' keys in sorted order, so a word that
// matches several keys always reports the same one.
var nodeRiskKeyList = sortedKeys(nodeRiskKeys)

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// nodeExactKeys are benign npm keys that are prefixes of risky keys; an
// exact name wins over abbreviation in nopt.
var nodeExactKeys = map[string]bool{"global": true, "user": true, "init": true}

// nodeRiskOption reports the risky key an option word selects, if any:
// the exact key, a "no-" or "config." form of it, or a prefix of it
// (conservatively also prefixes nopt would call ambiguous).
func nodeRiskOption(w string) (key string, ok bool) {
	// nopt also reads "-name" as "--name" when name is not a shorthand.
	if !strings.HasPrefix(w, "--") && (len(w) < 4 || w[0] != '-') {
		return "", false
	}
	name, _, _, isOpt := longName(w)
	if !isOpt {
		return "", false
	}
	name = strings.ToLower(name)
	name = strings.TrimPrefix(name, "config.")
	name = strings.TrimPrefix(name, "no-")
	name = strings.ReplaceAll(name, "_", "-")
	if _, ok := nodeRiskKeys[name]; ok {
		return name, true
	}
	if nodeExactKeys[name] || name == "" {
		return "", false
	}
	for _, k := range nodeRiskKeyList {
		if strings.HasPrefix(k, name) {
			return k, true
		}
	}
	return "", false
}

// nodeBoolFlags are common npm, pnpm and yarn flags that take no value,
// so the word after them is the command (npm -g install x).
var nodeBoolFlags = map[string]bool{
	"-g": true, "-D": true, "-S": true, "-E": true, "-O": true, "-P": true, "-B": true,
	"-y": true, "-s": true, "-q": true, "-d": true, "-l": true, "-f": true, "-r": true, "-w": true,
	"--global": true, "--save": true, "--save-dev": true, "--save-exact": true,
	"--save-optional": true, "--save-prod": true, "--yes": true, "--silent": true,
	"--quiet": true, "--force": true, "--legacy-peer-deps": true, "--offline": true,
	"--prefer-offline": true, "--dry-run": true, "--json": true, "--long": true,
	"--ignore-scripts": true, "--workspaces": true, "--if-present": true, "--verbose": true,
	"--foreground-scripts": true, "--recursive": true, "--frozen-lockfile": true,
	"--include-workspace-root": true, "--production": true, "--dev": true,
}

// nodeCommands returns the candidate subcommand positions of an npm-style
// argv: the first word that is not an option, and, when the word before
// it is an option written without "=" (which may have taken it as its
// value), also the next non-option word.
func nodeCommands(argv []string) []int {
	var out []int
	for j := 1; j < len(argv) && len(out) < 2; j++ {
		w := argv[j]
		if w == "--" {
			break
		}
		if strings.HasPrefix(w, "-") && w != "-" {
			continue
		}
		out = append(out, j)
		prev := argv[j-1]
		if j == 1 || !strings.HasPrefix(prev, "-") || strings.Contains(prev, "=") || len(out) == 2 ||
			nodeBoolFlags[prev] || strings.HasPrefix(prev, "--no-") {
			break
		}
	}
	return out
}

// nodeScan refuses any risky option word in argv before a "--" (the words
// after it go to the script or program, not to the package manager).
func nodeScan(family string, argv []string) *Rejection {
	for j := 1; j < len(argv); j++ {
		if argv[j] == "--" {
			return nil
		}
		if key, bad := nodeRiskOption(argv[j]); bad {
			return familyRule(family, kindExecOption, nodePolicy).Reject(j, argv[j],
				"argument %d %q sets %s, which %s", j, argv[j], key, nodeRiskKeys[key])
		}
	}
	return nil
}

// npmCommandRisks are the npm 10 commands (and aliases) that run a
// program other than the package's own scripts.
var npmCommandRisks = map[string]string{
	"exec":    "runs a package binary or shell command",
	"x":       "runs a package binary or shell command (alias of npm exec)",
	"explore": "runs a shell command inside a package directory",
	"edit":    "runs an editor",
	"docs":    "opens a web browser", "home": "opens a web browser", "bugs": "opens a web browser",
	"issues": "opens a web browser", "repo": "opens a web browser",
}

// npmInitAliases run a package (create-NAME) when given an initializer.
var npmInitAliases = map[string]bool{"init": true, "create": true, "innit": true}

// checkNpm is the recognizer of npm (npm 10). Refused: npm exec/x, explore,
// edit, docs/home/bugs/repo (a browser), help TOPIC (man or a browser),
// init/create/innit with an initializer (runs the package
// create-INITIALIZER), config edit, config set/set of a program key, and
// every program-naming configuration key (--script-shell, --shell,
// --editor, --browser, --node-options, --userconfig, ... see
// nodeRiskKeys) in any position and spelling. Contained to the working
// directory: --prefix/-C, --cache, --logs-dir and --pack-destination
// (npmOutputs). npm test, npm ci, npm install, npm run NAME stay
// allowed: package scripts and install scripts are delegated authority,
// as are --global installs into the global prefix and npm config set of
// keys that name no program (they write the user's ~/.npmrc).
func checkNpm(argv []string, ctx Context) *Rejection {
	res := noptParse(argv)
	if len(res.remain) > 0 {
		j := res.remain[0]
		if r := npmCommand(argv, j, npmDeref(argv[j]), res.remain[1:]); r != nil {
			return r
		}
		if r := npmDefaultOutputs(ctx, argv, j, npmDeref(argv[j]), res); r != nil {
			return r
		}
	}
	for _, o := range res.options {
		if why, bad := nodeRiskKeys[o.key]; bad {
			return familyRule("npm", kindExecOption, nodePolicy).Reject(o.index, argv[o.index],
				"argument %d %q sets %s (as npm's option parser reads it), which %s", o.index, argv[o.index], o.key, why)
		}
	}
	if r := nodeScan("npm", argv); r != nil {
		return r
	}
	if r := npmOutputs.scan(argv, ctx); r != nil {
		return r
	}
	// The first words as a simpler reader would take them, refused too
	// when one of them is a dangerous command: a conservative second
	// reading, so an abbreviation npm calls ambiguous (npm ex) stays refused.
	for _, j := range nodeCommands(argv) {
		cmd, amb := npmResolve(argv[j])
		if len(amb) > 1 {
			return ruleNpmExecCommand.Reject(j, argv[j],
				"argument %d %q is an abbreviation npm may resolve to a command that runs a program (%s)", j, argv[j], strings.Join(amb, ", "))
		}
		if r := npmCommand(argv, j, cmd, operandsAfter(argv, j)); r != nil {
			return r
		}
	}
	return nil
}

// npmCommand judges npm command cmd (argv[j] resolved) with its
// arguments ops (argv indexes).
func npmCommand(argv []string, j int, cmd string, ops []int) *Rejection {
	if why, bad := npmCommandRisks[cmd]; bad {
		return ruleNpmExecCommand.Reject(j, argv[j], "argument %d %q is npm %s, which %s", j, argv[j], cmd, why)
	}
	switch {
	case npmInitAliases[cmd] && len(ops) > 0:
		k := ops[0]
		return ruleNpmExecCommand.Reject(k, argv[k],
			"argument %d %q names an initializer for npm %s, which downloads and runs the package create-%s", k, argv[k], cmd, strings.TrimPrefix(argv[k], "create-"))
	case cmd == "help" && len(ops) > 0:
		return ruleNpmExecCommand.Reject(j, argv[j],
			"argument %d %q with a topic runs man or a web browser to show the page", j, argv[j])
	case cmd == "config" || cmd == "set":
		return nodeConfig("npm", argv, j)
	case cmd == "pkg":
		return npmPkg(argv, ops)
	}
	return nil
}

// npmScriptKeys are package.json fields whose values are commands npm or
// a common tool runs (npm run and lifecycle scripts, bin entries linked
// onto PATH, git hook managers that read package.json).
var npmScriptKeys = words("scripts bin directories config husky lint-staged simple-git-hooks pre-commit gitHooks")

// npmPkg refuses "npm pkg set" of a field that holds commands: like npm
// exec, it stores command text the request supplies, which the next npm
// test or npm install runs (npm 11 lib/commands/pkg.js; keys use dots and
// brackets: scripts.test, scripts[test]).
func npmPkg(argv []string, ops []int) *Rejection {
	if len(ops) == 0 || argv[ops[0]] != "set" {
		return nil
	}
	for _, k := range ops[1:] {
		key, _, _ := strings.Cut(argv[k], "=")
		head := strings.FieldsFunc(key, func(r rune) bool { return r == '.' || r == '[' || r == ']' })
		if len(head) > 0 && npmScriptKeys[strings.Trim(head[0], `"'`)] {
			return ruleNpmExecCommand.Reject(k, argv[k],
				"argument %d %q sets the package.json field %s, whose values are commands npm runs later (npm run, lifecycle scripts)", k, argv[k], head[0])
		}
	}
	return nil
}

// npmSensitive are the npm 10 commands whose rules need the resolved
// name: the risky ones, the init aliases, help, and the config commands.
var npmSensitive = []string{"bugs", "config", "create", "docs", "edit", "exec", "explore",
	"help", "home", "init", "innit", "issues", "repo", "set", "x"}

// npmExact are npm 10 command aliases that are prefixes of a sensitive
// command but name another command exactly (an exact name wins).
var npmExact = map[string]string{"i": "install", "in": "install", "c": "config", "r": "uninstall", "s": "search", "se": "search"}

// npmResolve maps a command word to the command npm runs: exact names
// and aliases win; otherwise npm accepts a unique abbreviation of a
// command name (npm exe runs npm exec). It returns the sensitive
// commands w abbreviates when there are several.
func npmResolve(w string) (cmd string, ambiguous []string) {
	if full, ok := npmExact[w]; ok {
		return full, nil
	}
	var hits []string
	for _, c := range npmSensitive {
		if c == w {
			return w, nil
		}
		if w != "" && strings.HasPrefix(c, w) {
			hits = append(hits, c)
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	if len(hits) == 0 {
		return w, nil
	}
	return w, hits
}

// operandsAfter returns the indexes of non-option words after argv[j].
func operandsAfter(argv []string, j int) []int {
	var out []int
	for k := j + 1; k < len(argv); k++ {
		if w := argv[k]; w == "-" || !strings.HasPrefix(w, "-") {
			out = append(out, k)
		}
	}
	return out
}

// nodeConfig refuses configuration edits that run an editor or write a
// program key into an npmrc/yarnrc for later runs.
func nodeConfig(family string, argv []string, j int) *Rejection {
	ops := operandsAfter(argv, j)
	if len(ops) > 0 && (argv[ops[0]] == "edit" || argv[ops[0]] == "e") {
		k := ops[0]
		return familyRule(family, kindExecCommand, nodePolicy).Reject(k, argv[k], "argument %d %q runs an editor on the configuration file", k, argv[k])
	}
	// Writes go to the user's configuration (~/.npmrc and the like),
	// outside the working directory, and steer every later command: refuse
	// them whatever the key (as pip's).
	if argv[j] == "set" {
		return familyRule(family, kindConfigWrite, nodePolicy).Reject(j, argv[j], "argument %d %q writes the user configuration, which later commands read", j, argv[j])
	}
	if len(ops) > 0 && configWriteVerbs[argv[ops[0]]] {
		k := ops[0]
		return familyRule(family, kindConfigWrite, nodePolicy).Reject(k, argv[k], "argument %d %q writes the user configuration, which later commands read", k, argv[k])
	}
	for _, k := range ops {
		w := strings.ToLower(argv[k])
		for _, key := range nodeRiskKeyList {
			if strings.Contains(w, key) || strings.Contains(w, strings.ReplaceAll(key, "-", "")) {
				return familyRule(family, kindConfigWrite, nodePolicy).Reject(k, argv[k],
					"argument %d %q names the configuration key %s, which %s, in a configuration command", k, argv[k], key, nodeRiskKeys[key])
			}
		}
	}
	return nil
}

// configWriteVerbs are the config subcommands of npm, pnpm and yarn that
// change a configuration file.
var configWriteVerbs = map[string]bool{"set": true, "delete": true, "del": true, "rm": true, "unset": true, "fix": true}

// checkNpx is the recognizer of npx and pnpx: they exist to download and run
// packages, so every invocation is refused.
func checkNpx(argv []string, ctx Context) *Rejection {
	name := baseName(argv)
	return ruleNpxCategorical.Reject(0, name,
		"%s downloads and runs packages by name; use npm run NAME for the package's own scripts", name)
}

// pnpmCommands are the pnpm 9 built-in commands and aliases allowed.
var pnpmCommands = map[string]bool{
	"add": true, "install": true, "i": true, "update": true, "up": true, "upgrade": true,
	"remove": true, "rm": true, "uninstall": true, "un": true, "link": true, "ln": true,
	"unlink": true, "import": true, "rebuild": true, "rb": true, "prune": true, "fetch": true,
	"install-test": true, "it": true, "audit": true, "list": true, "ls": true, "ll": true,
	"la": true, "outdated": true, "why": true, "licenses": true, "run": true, "run-script": true,
	"test": true, "t": true, "tst": true, "start": true, "publish": true, "pack": true,
	"root": true, "bin": true, "store": true, "init": true, "help": true, "deploy": true,
	"doctor": true, "config": true, "get": true, "set": true, "patch": true,
	"patch-commit": true, "patch-remove": true, "dedupe": true, "recursive": true,
}

var pnpmCommandRisks = map[string]string{
	"exec":   "runs any program found in node_modules/.bin or PATH",
	"dlx":    "downloads and runs a package",
	"create": "downloads and runs the package create-NAME",
}

// checkPnpm is the recognizer of pnpm (pnpm 9). Refused: exec, dlx, create,
// config/set of a program key, every program-naming configuration key
// (see nodeRiskKeys), and any command that is not a pnpm built-in: pnpm
// runs an unknown NAME as a script or, failing that, as pnpm exec NAME,
// which runs any program on PATH; use pnpm run NAME for scripts.
// Contained to the working directory: -C/--dir and the store, cache,
// modules and pack directories (pnpmOutputs).
func checkPnpm(argv []string, ctx Context) *Rejection {
	if r := nodeScan("pnpm", argv); r != nil {
		return r
	}
	if r := pnpmOutputs.scan(argv, ctx); r != nil {
		return r
	}
	cands := nodeCommands(argv)
	for _, j := range cands {
		if why, bad := pnpmCommandRisks[argv[j]]; bad {
			return rulePnpmExecCommand.Reject(j, argv[j], "argument %d %q is pnpm %s, which %s", j, argv[j], argv[j], why)
		}
	}
	for _, j := range cands {
		if pnpmCommands[argv[j]] {
			if argv[j] == "config" || argv[j] == "set" {
				return nodeConfig("pnpm", argv, j)
			}
			return nil
		}
	}
	if len(cands) == 0 {
		return nil
	}
	j := cands[0]
	return rulePnpmUnknownCommand.Reject(j, argv[j],
		"argument %d %q is not a pnpm built-in command, and pnpm runs an unknown name as pnpm exec (any program on PATH) when no script matches; use pnpm run %s", j, argv[j], argv[j])
}

var yarnCommandRisks = map[string]string{
	"exec":   "runs a shell command",
	"dlx":    "downloads and runs a package",
	"create": "downloads and runs the package create-NAME",
	"node":   "runs node with arguments of its choosing (node -e CODE)",
}

// checkYarn is the recognizer of yarn (classic 1.22 and berry 4; also
// yarnpkg). Refused: exec, dlx, create, node, config set of a program key,
// and every program-naming configuration key (see nodeRiskKeys, including
// --use-yarnrc and yarn-path). yarn NAME and yarn run NAME run package
// scripts or binaries installed in node_modules/.bin: delegated.
// Contained to the working directory: --cwd, the cache, modules, global
// and link folders, and yarn pack's --filename/--out (yarnOutputs).
func checkYarn(argv []string, ctx Context) *Rejection {
	if r := nodeScan("yarn", argv); r != nil {
		return r
	}
	if r := yarnOutputs.scan(argv, ctx); r != nil {
		return r
	}
	for _, j := range nodeCommands(argv) {
		if why, bad := yarnCommandRisks[argv[j]]; bad {
			return ruleYarnExecCommand.Reject(j, argv[j], "argument %d %q is yarn %s, which %s", j, argv[j], argv[j], why)
		}
		if argv[j] == "config" {
			return nodeConfig("yarn", argv, j)
		}
	}
	return nil
}

// npmTreeCommands write node_modules and package-lock.json in the project
// directory (npm 11 arborist reify).
var npmTreeCommands = words("install ci update uninstall dedupe prune link rebuild install-test install-ci-test")

// npmDefaultOutputs contains what npm names itself: npm pack's
// NAME-VERSION.tgz (the name comes from package.json) in
// --pack-destination, and the node_modules directory and package-lock.json
// the install family writes in the project (--prefix) directory; a
// symlink planted under one of them is followed.
func npmDefaultOutputs(ctx Context, argv []string, j int, cmd string, res noptResult) *Rejection {
	dest, prefix := ".", "."
	for _, o := range res.options {
		switch {
		case o.key == "pack-destination" && o.hasValue:
			dest = o.value
		case o.key == "prefix" && o.hasValue:
			prefix = o.value
		}
	}
	switch {
	case cmd == "pack":
		return defaultOutputs(ctx, "npm", j, argv[j], dest, func(n string) bool { return strings.HasSuffix(n, ".tgz") })
	case npmTreeCommands[cmd]:
		if r := outputPath(ctx, "npm", j, argv[j], path.Join(prefix, "node_modules"), redirect.Dir); r != nil {
			return r
		}
		return outputPath(ctx, "npm", j, argv[j], path.Join(prefix, "package-lock.json"), redirect.File)
	}
	return nil
}
