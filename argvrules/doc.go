// Package argvrules holds one recognizer per program family (find, awk,
// sort, tar, git, rg, wget, curl, make, go, npm, pip, cargo, docker, ...)
// and the command-line grammars they are built on (GNU getopt_long,
// bsdtar, GNU tar old-style words, the go flag package, npm's nopt,
// Python's optparse, clap, cobra).
//
// [Check] judges one stage with the recognizer of its program's family
// ([FamilyOf], [Families]); [Registry] returns the rows, from which
// internal/docgen writes docs/rules.md (every rule and reason code) and
// the family table of docs/sandbox.md. See ExampleCheck.
//
// A recognizer parses one pipeline stage's argv the way the real program
// does and then decides: it returns nil when no dangerous form is reachable
// and a *Rejection naming the offending argument otherwise. Recognizers are
// pure functions of argv and Context: they never run anything, never create
// or modify files, read the file system only through Context.Dir (output
// paths, outputPath) or, for make's makefile check, by resolving named
// paths component by component (fsview.View.Walk), and never panic on any
// input.
//
// The rule when dialects disagree or an abbreviation is ambiguous and one
// reading is dangerous: reject, and say which reading.
//
// # Wrappers
//
// The wrapper families (wrap.go: xargs, timeout, nice, ionice, nohup,
// stdbuf, time, env, flock) judge only their own words; [Wrap] says where
// the program they run starts, which the policy judges as a stage of its
// own. Under xargs, which appends words from standard input, the stage's
// Context.MoreOperands is set: only a wrapper answers for words it cannot
// see, so Check refuses every other family's program there
// ("<family>.appended-words"); a program no family covers takes any word.
//
// # Registry
//
// registry.go holds one row per family: its name (also the prefix of its
// reason codes), the executable names it covers, its recognizer, the
// source its grammar follows, and the facts the kernel sandbox needs
// (programs it executes, network use, cache directories, extra
// environment). FamilyOf, Check (the policy's lookup), the fuzz target,
// the registry tests and the family sections of docs/rules.md are derived
// from it. codes.go lists every reason code.
//
// Adding a recognizer is one file, one registry row and its tests. For a
// program "frob" whose option -x CMD runs CMD:
//
//	// frob.go
//	// frobTable is frob 2.1's getopt_long table (frob --help).
//	var frobProgram = &getoptProgram{
//		family: "frob", policy: "frob external program", grammar: "frob option grammar",
//		table: newTable("frob 2.1", false, []option{
//			{Long: "exec", Short: 'x', Arg: requiredArg, Risk: "runs a program", Rule: ruleFrobExec},
//			{Long: "output", Short: 'o', Arg: requiredArg},
//		}),
//		order:   permute,
//		outputs: map[string]redirect.Kind{"output": redirect.File},
//	}
//
//	func checkFrob(argv []string, ctx Context) *Rejection { return frobProgram.check(argv, ctx) }
//
//	// codes.go
//	// frob.exec: -x/--exec runs a program.
//	ruleFrobExec = refusal.Rule{Code: "frob.exec", Phrase: "frob external program"}
//
//	// registry.go
//	{Name: "frob", Programs: []string{"frob"}, Recognize: checkFrob, Source: "frob 2.1 frob --help"},
//
// plus table rows in programs_test.go (a("frob", "-x", "id") → "frob.exec";
// a("frob", "-o", "out") allowed) and, where frob is installed, an oracle
// that runs it. The fuzz target and the registry tests cover the new row
// without further edits; go run ./internal/docgen adds its section to
// docs/rules.md and its row to docs/sandbox.md.
//
// # Grammar engine
//
// table holds a program's getopt_long option table as data (long name,
// short letter, argument kind, risk, rule). table.Parse walks argv like
// glibc: short clusters with attached or following values ("-rT DIR",
// "-rofile"), long options with "=" or a following value, unique-prefix
// abbreviation where an exact name wins and candidates that are aliases of
// one another are not ambiguous, "--" ending options, "-" as an operand,
// getopt's "W;" extension, and permute or requireOrder (POSIXLY_CORRECT,
// "+") ordering. The result is a list of events (option or operand, its
// argv index, the value and where it came from) plus the first parseError.
// A value an option consumes is data and never rescanned. Unknown options,
// ambiguous prefixes and missing values are refused (allowlist grammar); an
// ambiguous prefix whose candidates include a refused option names them.
// bsdtar's own parser (bsdtarParse) and GNU tar's old-style first word
// (gnuTarParse) produce the same events. getoptProgram runs one table over
// a whole argv for the GNU-style programs.
//
// # Families
//
// The registry is the list of families (docs/rules.md is generated from
// its rows and codes.go, with the sources each row cites); each family's
// file opens with its table and the rules it applies, with its sources
// (find.go, awk.go, tar.go, sort.go, gitfamily.go and package git ...).
// What they share: a recognizer parses argv the way its program does —
// the getopt_long engine for the GNU-style programs (with exact matching
// for rg and curl, which do not abbreviate), small hand-written scanners
// for the go flag package, npm's nopt, Python's optparse, clap (cargo),
// zip's own parser and the cobra-based container clients — and refuses
// the forms that run another program, load code, read options from
// somewhere the check cannot see, or write a file outside the working
// directory. Where a grammar is too loose to follow exactly, the scan is
// position-independent and refuses conservatively. Output paths of every
// family (git's included) go through outputPath, which is
// redirect.ProbeWrite, the check ">" targets get; "-" and /dev/null are
// accepted as outputs. A path is resolved the way the program resolves it
// before the check (after go -C, curl's URL globs and --output-dir,
// cargo's pass-through rustc options), and the names a program makes up
// itself (defaults.go: curl -O, wget's URL names, format-patch's patches,
// split's chunks, npm pack, node_modules, cargo's target, file -C) are
// contained too. make's makefile check resolves -f/-C/-I paths component
// by component with Lstat and Readlink (fsview.View.Walk) the way the kernel
// would, stopping at /dev, /proc and /sys.
//
// A program no family covers is allowed by name alone: it has no argv
// form that runs another program or writes a file the request names
// other than its own operands (cat, grep, head, wc, ls, cp, mv, rm, tee
// ...), which are delegated like every program's own I/O: only the
// kernel sandbox keeps those writes in the allowed directories. A program that
// has such a form and no family is refused by the policy's categorical
// list instead.
//
// # Credentials
//
// Which arguments are credentials is a fact of the grammar too (secrets.go,
// secrettables.go): Secrets reads a stage's argv with its program's
// grammar and returns where the credentials are and in what form (the
// whole value, the password of "user:password", an OpenSSL "pass:"
// argument, sqlplus's "user/password@db", cookie values, an operand after
// "configure set NAME"). Families with a getopt_long table read with it,
// in tolerant mode (table.parseTolerant: past grammar errors, ambiguous
// prefixes read as any of their candidates), and name their credential
// options next to their risks (curl.go curlCredentials, wget.go
// wgetCredentials); the other families (git, npm, pnpm, yarn, cargo, zip,
// docker, podman, kubectl) and programs without a recognizer (the
// database clients, archivers, openssl, keytool, ssh-keygen, htpasswd,
// the cloud clients, ...) have a sparse redaction table: their credential
// options in the spellings they accept, the options whose values must be
// skipped, subcommand tables and operand rules. Package audit redacts
// what Secrets finds.
//
// Delegated, not claimed: what the programs read (file:// URLs, -i, -T,
// requirement and package files), network access, package scripts,
// makefile recipes, build scripts, tests and builds of repository code,
// configuration files the programs read on their own
// (~/.curlrc, ~/.wgetrc, .npmrc in the project, .cargo/config.toml,
// kubeconfig credential plugins, Docker credential helpers in the default
// config), destination operands, and installs into the user's or global
// locations by design (go install, cargo install and its --root, pip
// install --user, npm install --global, npm config set of keys that name
// no program).
package argvrules
