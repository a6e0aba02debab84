package argvrules

import (
	"sort"
	"strings"
	"sync"
)

// npm parses its whole command line with nopt (nopt-lib.js parse, npm 11):
// every option anywhere, with the types of @npmcli/config's definitions,
// unique abbreviations of option names, shorthands (-c is --call, -C is
// --prefix, -dd is --loglevel verbose), "--no-" negation, and a value
// taken from the next word when the type is not boolean; the words that
// are left (remain), "--" and everything after it included, are the
// command and its arguments (npm.js: the command is remain[0], resolved
// by cmd-list.js deref). The policy reads argv the same way, so no
// combination of value-taking options can hide the command.

// noptKind is what an option's type makes nopt do with the next word.
type noptKind uint8

const (
	noptBool      noptKind = iota + 1 // Boolean: takes "true"/"false" only
	noptString                        // String: takes the next word unless it looks like an option
	noptValue                         // any other type (url, path, Number, enum, Array): takes the next word
	noptBoolNull                      // [null, Boolean]: takes "null" too
	noptBoolStr                       // [null, Boolean, String]: takes a next word not starting with "-"
	noptBoolColor                     // [Boolean, "always"]: takes "always"
)

// npmTypes are npm 11.19.1's option types by kind (generated from
// node_modules/@npmcli/config/lib/definitions, definitions[*].type).
var npmTypes = sync.OnceValue(func() map[string]noptKind {
	m := map[string]noptKind{}
	add := func(k noptKind, names string) {
		for _, n := range strings.Fields(names) {
			m[n] = k
		}
	}
	add(noptValue, `_auth access allow-directory allow-file allow-git allow-remote allow-scripts also
		audit-level auth-type before ca cache cache-max cache-min cafile cert cidr cpu depth diff
		diff-unified expect-result-count expires fetch-retries fetch-retry-factor fetch-retry-maxtimeout
		fetch-retry-mintimeout fetch-timeout globalconfig https-proxy include init-author-url
		init-module init-version init.author.url init.module init.version install-strategy key libc
		local-address location lockfile-version loglevel logs-dir logs-max name maxsockets
		min-release-age min-release-age-exclude node-gyp node-options noproxy omit only orgs os otp
		package packages prefix provenance-file proxy registry replace-registry-host sbom-format
		sbom-type scopes packages-and-scopes-permission orgs-permission password token-description
		script-shell searchlimit searchstaleness umask userconfig which workspace`)
	add(noptBool, `all allow-same-version audit bin-links bypass-2fa commit-hooks
		dangerously-allow-all-scripts description dev diff-ignore-all-space diff-name-only
		diff-no-prefix diff-text dry-run engine-strict force foreground-scripts format-package-lock
		fund git-tag-version global global-style if-present ignore-scripts include-staged
		include-workspace-root include-attestations init-private install-links json legacy-bundling
		legacy-peer-deps link long offline omit-lockfile-registry-resolved package-lock
		package-lock-only parseable allow-scripts-pending allow-scripts-pin prefer-dedupe
		prefer-offline prefer-online progress provenance read-only rebuild-bundle save save-bundle
		save-dev save-exact save-optional save-peer save-prod packages-all shrinkwrap sign-git-commit
		sign-git-tag strict-peer-deps strict-allow-scripts strict-ssl timing unicode update-notifier
		usage version versions workspaces-update`)
	add(noptBoolNull, "expect-results optional production workspaces yes")
	add(noptString, `call diff-dst-prefix diff-src-prefix editor git heading init-author-email
		init-author-name init-license init-type init.author.email init.author.name init.license
		message pack-destination preid save-prefix scope searchexclude searchopts shell tag
		tag-version-prefix user-agent viewer`)
	add(noptBoolStr, "browser")
	add(noptBoolColor, "color")
	return m
})

// npmShorthands are npm 11.19.1's shorthands (definitions shorthands).
var npmShorthands = map[string][]string{
	"enjoy-by": {"--before"}, "d": {"--loglevel", "info"}, "dd": {"--loglevel", "verbose"},
	"ddd": {"--loglevel", "silly"}, "quiet": {"--loglevel", "warn"}, "q": {"--loglevel", "warn"},
	"s": {"--loglevel", "silent"}, "silent": {"--loglevel", "silent"}, "verbose": {"--loglevel", "verbose"},
	"desc": {"--description"}, "help": {"--usage"}, "local": {"--no-global"}, "n": {"--no-yes"},
	"no": {"--no-yes"}, "porcelain": {"--parseable"}, "readonly": {"--read-only"}, "reg": {"--registry"},
	"iwr": {"--include-workspace-root"}, "ws": {"--workspaces"}, "a": {"--all"}, "c": {"--call"},
	"f": {"--force"}, "g": {"--global"}, "L": {"--location"}, "l": {"--long"}, "m": {"--message"},
	"p": {"--parseable"}, "C": {"--prefix"}, "S": {"--save"}, "B": {"--save-bundle"}, "D": {"--save-dev"},
	"E": {"--save-exact"}, "O": {"--save-optional"}, "P": {"--save-prod"}, "?": {"--usage"},
	"H": {"--usage"}, "h": {"--usage"}, "v": {"--version"}, "w": {"--workspace"}, "y": {"--yes"},
}

// abbrevMap is the npm "abbrev" package: every unique prefix of a name
// maps to it, and every name to itself.
func abbrevMap(names []string) map[string]string {
	list := append([]string(nil), names...)
	sort.Strings(list)
	out := map[string]string{}
	prev := ""
	for i, cur := range list {
		next := ""
		if i+1 < len(list) {
			next = list[i+1]
		}
		if cur == next {
			continue
		}
		j := 0
		nextMatches, prevMatches := true, true
		for ; j < len(cur); j++ {
			c := cur[j]
			nextMatches = nextMatches && j < len(next) && c == next[j]
			prevMatches = prevMatches && j < len(prev) && c == prev[j]
			if !nextMatches && !prevMatches {
				j++
				break
			}
		}
		prev = cur
		if j == len(cur) {
			out[cur] = cur
			continue
		}
		for ; j <= len(cur); j++ {
			out[cur[:j]] = cur
		}
	}
	return out
}

// The abbreviation maps hold every unique prefix of every name (thousands
// of entries): built on first use, not at every start of the server (and
// of its watchdog, the same binary), where they were the largest part of
// the package's initialization.
var (
	npmAbbrevs     = sync.OnceValue(func() map[string]string { return abbrevMap(sortedKeys(npmTypes())) })
	npmShortAbbrev = sync.OnceValue(func() map[string]string { return abbrevMap(sortedKeys(npmShorthands)) })
)

// noptOption is one option nopt parsed: the resolved key, the argv index
// of the word that spelled it, and its value.
type noptOption struct {
	key      string
	index    int
	value    string
	hasValue bool
}

// noptResult is a whole parse: options, and the remaining words (with
// their argv indexes) npm takes as the command and its arguments.
type noptResult struct {
	options []noptOption
	remain  []int
	dashes  int // argv index of the "--" that ended options, or -1
}

// noptWord is a word of the expanding argument list with the argv index
// it came from.
type noptWord struct {
	text  string
	index int
}

// noptParse parses argv[1:] as nopt-lib.js parse does with npm's types
// and shorthands.
func noptParse(argv []string) noptResult {
	res := noptResult{dashes: -1}
	args := make([]noptWord, 0, len(argv))
	for i := 1; i < len(argv); i++ {
		args = append(args, noptWord{argv[i], i})
	}
	for i := 0; i < len(args); i++ {
		arg, at := args[i].text, args[i].index
		if len(arg) >= 2 && strings.Trim(arg, "-") == "" {
			res.dashes = at
			for _, w := range args[i+1:] {
				res.remain = append(res.remain, w.index)
			}
			return res
		}
		if len(arg) < 2 || arg[0] != '-' {
			res.remain = append(res.remain, at)
			continue
		}
		hadEq := false
		if eq := strings.IndexByte(arg, '='); eq >= 0 {
			hadEq = true
			args = splice(args, i, noptWord{arg[:eq], at}, noptWord{arg[eq+1:], at})
			arg = arg[:eq]
		}
		if sh := noptResolveShort(arg); sh != nil {
			repl := make([]noptWord, len(sh))
			for k, s := range sh {
				repl[k] = noptWord{s, at}
			}
			args = splice(args, i, repl...)
			if arg != sh[0] {
				i--
				continue
			}
		}
		key := strings.TrimLeft(arg, "-")
		sawNo := false // nopt's "no" is a boolean once any "no-" was seen
		for strings.HasPrefix(strings.ToLower(key), "no-") {
			sawNo, key = true, key[3:]
		}
		if full, ok := npmAbbrevs()[key]; ok {
			key = full
		}
		kind, known := npmTypes()[key]
		la, hasLa := "", i+1 < len(args)
		if hasLa {
			la = args[i+1].text
		}
		opt := noptOption{key: key, index: at}
		isBool := sawNo || kind == noptBool || kind == noptBoolNull || kind == noptBoolStr || kind == noptBoolColor || (!known && !hadEq)
		if isBool {
			switch {
			case hasLa && (la == "true" || la == "false"):
				opt.value, opt.hasValue = la, true
				i++
			case hasLa && kind == noptBoolColor && la == "always",
				hasLa && (kind == noptBoolNull || kind == noptBoolStr) && la == "null",
				hasLa && kind == noptBoolStr && la != "" && !(len(la) > 1 && la[0] == '-' && la[1] != '-'):
				opt.value, opt.hasValue = la, true
				i++
			}
			res.options = append(res.options, opt)
			continue
		}
		if kind == noptString && hasLa && len(strings.TrimLeft(la, "-")) > 0 && strings.HasPrefix(la, "-") && len(la)-len(strings.TrimLeft(la, "-")) <= 2 {
			hasLa = false // --shell --x: String options do not take option-like words
		}
		if hasLa && len(la) >= 2 && strings.Trim(la, "-") == "" {
			hasLa = false // a following "--" ends options instead
		}
		if hasLa {
			opt.value, opt.hasValue = la, true
			i++
		}
		res.options = append(res.options, opt)
	}
	return res
}

// splice replaces args[i] with repl.
func splice(args []noptWord, i int, repl ...noptWord) []noptWord {
	out := make([]noptWord, 0, len(args)+len(repl))
	out = append(out, args[:i]...)
	out = append(out, repl...)
	return append(out, args[i+1:]...)
}

// noptResolveShort is nopt-lib.js resolveShort with npm's tables.
func noptResolveShort(arg string) []string {
	arg = strings.TrimLeft(arg, "-")
	if npmAbbrevs()[arg] == arg && arg != "" {
		return nil
	}
	if sh, ok := npmShorthands[arg]; ok {
		return sh
	}
	if arg != "" && noptSingles(arg) {
		var out []string
		for _, c := range arg {
			out = append(out, npmShorthands[string(c)]...)
		}
		return out
	}
	if _, ok := npmAbbrevs()[arg]; ok {
		return nil
	}
	if full, ok := npmShortAbbrev()[arg]; ok {
		return npmShorthands[full]
	}
	return nil
}

// noptSingles reports whether every character of arg is a one-character
// shorthand ("-gD").
func noptSingles(arg string) bool {
	for _, c := range arg {
		if _, ok := npmShorthands[string(c)]; !ok || len(string(c)) != 1 {
			return false
		}
	}
	return true
}

// npmCommandList and npmAliases are npm 11.19.1's lib/utils/cmd-list.js.
var (
	npmCommandList = strings.Fields(`access adduser approve-scripts audit bugs cache ci completion config
		dedupe deny-scripts deprecate diff dist-tag docs doctor edit exec explain explore find-dupes fund
		get help help-search init install install-ci-test install-scripts install-test link ll login
		logout ls org outdated owner pack ping pkg prefix profile prune publish query rebuild repo
		restart root run sbom search set shrinkwrap stage star stars start stop team test token trust
		undeprecate uninstall unpublish unstar update version view whoami`)
	npmAliases = map[string]string{
		"author": "owner", "home": "docs", "issues": "bugs", "info": "view", "show": "view", "find": "search",
		"add": "install", "unlink": "uninstall", "remove": "uninstall", "rm": "uninstall", "r": "uninstall",
		"un": "uninstall", "rb": "rebuild", "list": "ls", "ln": "link", "create": "init", "i": "install",
		"it": "install-test", "cit": "install-ci-test", "u": "update", "up": "update", "c": "config",
		"s": "search", "se": "search", "tst": "test", "t": "test", "ddp": "dedupe", "v": "view",
		"run-script": "run", "clean-install": "ci", "clean-install-test": "install-ci-test", "x": "exec",
		"why": "explain", "la": "ll", "verison": "version", "ic": "ci", "innit": "init", "in": "install",
		"ins": "install", "inst": "install", "insta": "install", "instal": "install", "isnt": "install",
		"isnta": "install", "isntal": "install", "isntall": "install", "install-clean": "ci",
		"isntall-clean": "ci", "hlep": "help", "dist-tags": "dist-tag", "upgrade": "update", "udpate": "update",
		"rum": "run", "sit": "install-ci-test", "urn": "run", "ogr": "org", "add-user": "adduser",
	}
	npmCmdAbbrevs = sync.OnceValue(func() map[string]string {
		return abbrevMap(append(append([]string{}, npmCommandList...), sortedKeys(npmAliases)...))
	})
)

// npmDeref is cmd-list.js deref: camelCase to kebab-case, exact command,
// alias, else a unique abbreviation (followed through aliases). "" when
// npm would not find a command.
func npmDeref(c string) string {
	if c == "" {
		return ""
	}
	var b strings.Builder
	for _, r := range c {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('-')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	c = b.String()
	for _, n := range npmCommandList {
		if n == c {
			return c
		}
	}
	if a, ok := npmAliases[c]; ok {
		return a
	}
	a := npmCmdAbbrevs()[c]
	for i := 0; i < 4; i++ {
		if next, ok := npmAliases[a]; ok {
			a = next
		}
	}
	return a
}
