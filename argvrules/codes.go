package argvrules

import "github.com/seed-b63acb1b/mcp-shell-server/refusal"

// Reason codes. Every refusal this package makes carries one of the codes
// below, or "<family>.<kind>" with a registered family and one of the kinds
// (the grammar and containment refusals every family can make). Each rule
// pairs its code with the reference server's catalogue phrase, so
// "Command rejected by default security policy: <phrase>: ..." reads the
// same wherever the code is reported.

// Kinds every family may report as "<family>.<kind>".
const (
	// unknown-option: an option (or a prefix of none) the program does not
	// have; only known options are allowed.
	kindUnknownOption = "unknown-option"
	// ambiguous-option: an abbreviation with several candidates; the
	// family's danger phrase is used when a candidate is refused.
	kindAmbiguousOption = "ambiguous-option"
	// missing-value: an option that needs a value has none.
	kindMissingValue = "missing-value"
	// unexpected-value: a value attached to an option that takes none.
	kindUnexpectedValue = "unexpected-value"
	// output-path: a path the program will write leaves the working
	// directory (redirect.ProbeWrite).
	kindOutputPath = "output-path"
	// exec-option: an option that names a program to run (the node
	// families' shared engine: npm, pnpm, yarn, npx).
	kindExecOption = "exec-option"
	// exec-command: a command that runs a program or an editor (node
	// families).
	kindExecCommand = "exec-command"
	// config-write: a command that writes the user configuration, which
	// later commands read (node families).
	kindConfigWrite = "config-write"
	// command: a command that is not read-only (the container engines:
	// docker, podman).
	kindCommand = "command"
	// load-code: an option that makes the program load code into itself
	// (a shared library, an extension, a plugin, or a configuration that
	// names one) from a path or module name the request chose: the kernel
	// sandbox stops a stage from running other programs, not from running
	// code inside its own process (hg, openssl, pygmentize).
	//lint:ignore U1000 a kind of the catalogue (internal/codes, docs/rules.md); its three rules spell their codes in full
	kindLoadCode = "load-code"
	// global-option: a global option that names credentials, a daemon or
	// configuration (container engines).
	kindGlobalOption = "global-option"
	// appended-words: the program runs under xargs, which appends words
	// from standard input the policy cannot see, and the family's options
	// can run programs, load code or write files (or, for a wrapper, the
	// words would name the program it runs).
	kindAppendedWords = "appended-words"
	// dialect: a wrapper resolves to a multi-call binary (BusyBox,
	// toybox), whose applet grammar is not the GNU one the policy reads.
	kindWrapDialect = "dialect"
)

// familyRule is the rule "<family>.<kind>" with phrase.
func familyRule(family, kind, phrase string) refusal.Rule {
	return refusal.Rule{Code: refusal.Code(family + "." + kind), Phrase: phrase}
}

// Rules with a fixed code, by family.
var (
	// awk.ambiguous: the awk lexer cannot tell a regex from a division and one reading hides a refused construct.
	ruleAwkAmbiguous = refusal.Rule{Code: "awk.ambiguous", Phrase: awkPolicy}
	// awk.debugger: -D/--debug starts the gawk debugger, which takes commands (eval included) from stdin or a file.
	ruleAwkDebugger = refusal.Rule{Code: "awk.debugger", Phrase: awkPolicy}
	// awk.file-output: --persist: gawk keeps its heap in a file the policy does not contain.
	ruleAwkFileOutput = refusal.Rule{Code: "awk.file-output", Phrase: awkPolicy}
	// awk.inplace: gawk's in-place editing steered where the policy cannot follow it: the in-place state set by the program or an assignment, an inplace include the working directory could replace, or argv[0] not named as an awk program.
	ruleAwkInplace = refusal.Rule{Code: "awk.inplace", Phrase: awkPolicy}
	// awk.indirect-call: a gawk indirect function call @f(...), which can call system().
	ruleAwkIndirectCall = refusal.Rule{Code: "awk.indirect-call", Phrase: awkPolicy}
	// awk.missing-value: an awk option that needs a value has none.
	ruleAwkMissingValue = refusal.Rule{Code: "awk.missing-value", Phrase: awkGrammarPolicy}
	// awk.network: a gawk /inet special file, or a file name gawk computes at run time (getline from a non-literal, ARGV writes, SYMTAB), which may open a network connection.
	ruleAwkNetwork = refusal.Rule{Code: "awk.network", Phrase: awkPolicy}
	// awk.pipe: a "|" or "|&" pipe to or from a command inside the awk program.
	ruleAwkPipe = refusal.Rule{Code: "awk.pipe", Phrase: awkPolicy}
	// awk.program-file: program text from a file (-f, -E, -i, @include, @load, extension()), which the policy cannot inspect.
	ruleAwkProgramFile = refusal.Rule{Code: "awk.program-file", Phrase: awkPolicy}
	// awk.redirect: print/printf output redirected to a file with ">" or ">>" inside the program.
	ruleAwkRedirect = refusal.Rule{Code: "awk.redirect", Phrase: awkPolicy}
	// awk.syntax: the awk program cannot be tokenized, so it cannot be checked.
	ruleAwkSyntax = refusal.Rule{Code: "awk.syntax", Phrase: awkPolicy}
	// awk.system: system() inside the awk program runs a shell command.
	ruleAwkSystem = refusal.Rule{Code: "awk.system", Phrase: awkPolicy}
	// awk.unknown-option: an option no awk reading knows.
	ruleAwkUnknownOption = refusal.Rule{Code: "awk.unknown-option", Phrase: awkGrammarPolicy}

	// cargo.config: --config or -Z options that set configuration, which can name programs (linkers, runners).
	ruleCargoConfig = refusal.Rule{Code: "cargo.config", Phrase: cargoPolicy}
	// cargo.exec-option: a cargo option that names a program to run.
	ruleCargoExecOption = refusal.Rule{Code: "cargo.exec-option", Phrase: cargoPolicy}
	// cargo.external-command: an unknown subcommand: cargo runs cargo-NAME from PATH.
	ruleCargoExternalCommand = refusal.Rule{Code: "cargo.external-command", Phrase: cargoPolicy}
	// cargo.install-path: an install root or path that leaves the working directory.
	ruleCargoInstallPath = refusal.Rule{Code: "cargo.install-path", Phrase: cargoPolicy}

	// cc.exec-option: a compiler driver option that runs or loads a program of the request's choosing (-wrapper, -B, -specs=, -fplugin=, a linker -plugin, clang's -Xclang -load, --ld-path=).
	ruleCCExecOption = refusal.Rule{Code: "cc.exec-option", Phrase: ccPolicy}
	// cc.response-file: @FILE, whose options this check cannot see.
	ruleCCResponseFile = refusal.Rule{Code: "cc.response-file", Phrase: ccPolicy}

	// curl.exec-option: a curl option that loads code (--engine), reads
	// options from elsewhere (-K/--config) or talks to a local daemon
	// socket.
	ruleCurlExecOption = refusal.Rule{Code: "curl.exec-option", Phrase: "curl external code or output"}
	// curl.output-path: a curl output option whose path leaves the working directory.
	ruleCurlOutputPath = refusal.Rule{Code: "curl.output-path", Phrase: "output path outside the working directory"}

	// diff3.exec-option: --diff-program runs a program of its choosing instead of diff.
	ruleDiff3ExecOption = refusal.Rule{Code: "diff3.exec-option", Phrase: "diff3 external program"}

	// env.form: an env option outside env [-i] [-u NAME] [NAME=VALUE...] PROGRAM (-C, -S, the signal options) or a malformed name.
	ruleEnvForm = refusal.Rule{Code: "env.form", Phrase: wrapPolicy}
	// env.steering: an env NAME=VALUE assignment of a variable that steers programs (childenv.Steering), the per-call variables' rule.
	ruleEnvSteering = refusal.Rule{Code: "env.steering", Phrase: wrapPolicy}

	// file.exec-option: -z/-Z run external decompressors.
	ruleFileExecOption = refusal.Rule{Code: "file.exec-option", Phrase: "file external program"}

	// find.exec: -exec, -execdir, -ok and -okdir run a program for each file.
	ruleFindExec = refusal.Rule{Code: "find.exec", Phrase: findExecPolicy}
	// find.file-output: -fprint, -fprint0, -fprintf and -fls write the file named by their argument.
	ruleFindFileOutput = refusal.Rule{Code: "find.file-output", Phrase: findOutputPolicy}
	// find.missing-value: a find primary that needs an argument has none.
	ruleFindMissingValue = refusal.Rule{Code: "find.missing-value", Phrase: findGrammarPolicy}
	// find.unknown-option: a find option or primary GNU findutils 4.9 does not have.
	ruleFindUnknownOption = refusal.Rule{Code: "find.unknown-option", Phrase: findGrammarPolicy}

	// go.env-write: go env -w/-u writes the user's go environment file, which later commands read.
	ruleGoEnvWrite = refusal.Rule{Code: "go.env-write", Phrase: goPolicy}
	// go.exec-command: a go subcommand that runs generated or external commands (generate, run of remote code, ...).
	ruleGoExecCommand = refusal.Rule{Code: "go.exec-command", Phrase: goPolicy}
	// go.exec-flag: a build flag that names a program or writes outside (-exec, -toolexec, -overlay, ...).
	ruleGoExecFlag = refusal.Rule{Code: "go.exec-flag", Phrase: goPolicy}
	// go.exec-tool: a go tool invocation that runs another program.
	ruleGoExecTool = refusal.Rule{Code: "go.exec-tool", Phrase: goPolicy}
	// go.external-tool: go tool NAME for a tool that is not an inspection tool.
	ruleGoExternalTool = refusal.Rule{Code: "go.external-tool", Phrase: goPolicy}
	// go.remote-run: go run of a remote module version, which downloads and runs code.
	ruleGoRemoteRun = refusal.Rule{Code: "go.remote-run", Phrase: goPolicy}
	// go.unknown-command: a go subcommand this policy does not know.
	ruleGoUnknownCommand = refusal.Rule{Code: "go.unknown-command", Phrase: "go option grammar"}
	// go.unknown-option: a flag the go command does not have.
	ruleGoUnknownOption = refusal.Rule{Code: "go.unknown-option", Phrase: "go option grammar"}

	// hg.command: hg serve and the debug commands, which take commands or Python code from standard input, start servers or processes.
	ruleHgCommand = refusal.Rule{Code: "hg.command", Phrase: hgPolicy}
	// hg.repo-config: the repository hg would use inside the working directory carries configuration that loads code or names a program (extensions with a path, hooks, merge tools, shell aliases, %include) or shares another repository's.
	ruleHgRepoConfig = refusal.Rule{Code: "hg.repo-config", Phrase: hgPolicy}
	// hg.load-code: --config (any key: extensions load Python code) or --debugger (Python from standard input).
	ruleHgLoadCode = refusal.Rule{Code: "hg.load-code", Phrase: hgPolicy}

	// flock.shell: flock -c/--command runs its value through sh -c.
	ruleFlockShell = refusal.Rule{Code: "flock.shell", Phrase: wrapPolicy}

	// ionice.other-process: ionice -p, -P or -u, which change processes the call did not start.
	ruleIoniceOtherProcess = refusal.Rule{Code: "ionice.other-process", Phrase: wrapPolicy}

	// kubectl.command: a kubectl command that is not read-only.
	ruleKubectlCommand = refusal.Rule{Code: "kubectl.command", Phrase: containerPolicy}
	// kubectl.global-option: a kubectl global option that names credentials, plugins or a kubeconfig.
	ruleKubectlGlobalOption = refusal.Rule{Code: "kubectl.global-option", Phrase: containerPolicy}
	// kubectl.home-config: HOME and KUBECONFIG are unset for children, so kubectl would read ./.kube/config (exec credential plugins) from the working directory.
	ruleKubectlHomeConfig = refusal.Rule{Code: "kubectl.home-config", Phrase: containerPolicy}
	// kubectl.unknown-option: a flag kubectl does not have.
	ruleKubectlUnknownOption = refusal.Rule{Code: "kubectl.unknown-option", Phrase: "kubectl option grammar"}

	// make.device-directory: -C or -I naming /dev, /proc or /sys, where files stand for standard input.
	ruleMakeDeviceDirectory = refusal.Rule{Code: "make.device-directory", Phrase: "make command-line makefile text"}
	// make.eval: --eval evaluates its value as makefile text, whose recipes run commands.
	ruleMakeEval = refusal.Rule{Code: "make.eval", Phrase: "make command-line makefile text"}
	// make.stdin-makefile: a makefile read from standard input or a device (-f -, /dev/stdin, /proc/self/fd/0).
	ruleMakeStdinMakefile = refusal.Rule{Code: "make.stdin-makefile", Phrase: "make command-line makefile text"}
	// make.variable-assignment: a VAR=VALUE operand that could be code or a program path, uses !=, or sets a variable that steers make (SHELL, MAKEFLAGS, .SHELLFLAGS ...).
	ruleMakeVariableAssignment = refusal.Rule{Code: "make.variable-assignment", Phrase: "make command-line makefile text"}

	// npm.exec-command: npm exec, npx-style commands and scripts given on the command line (npm pkg set scripts.*).
	ruleNpmExecCommand = refusal.Rule{Code: "npm.exec-command", Phrase: nodePolicy}

	// npx.categorical: npx downloads and runs packages by name.
	ruleNpxCategorical = refusal.Rule{Code: "npx.categorical", Phrase: nodePolicy}

	// openssl.command: openssl without a command, whose prompt reads commands from standard input.
	ruleOpensslCommand = refusal.Rule{Code: "openssl.command", Phrase: opensslPolicy}
	// openssl.load-code: an engine option, -provider-path, a -provider path, a -config file that loads modules or cannot be read inside the working directory, openssl engine or fipsinstall.
	ruleOpensslLoadCode = refusal.Rule{Code: "openssl.load-code", Phrase: opensslPolicy}

	// patch.exec-option: -e/--ed (the ed script runs through "ed -" under the shell) or -g/--get N (co, get or p4 run through system()).
	rulePatchExec = refusal.Rule{Code: "patch.exec-option", Phrase: patchPolicy}

	// pip.config-write: pip config set/unset/edit writes configuration later commands read.
	rulePipConfigWrite = refusal.Rule{Code: "pip.config-write", Phrase: pipPolicy}
	// pip.exec-command: a pip command that runs an editor or other program.
	rulePipExecCommand = refusal.Rule{Code: "pip.exec-command", Phrase: pipPolicy}
	// pip.exec-option: a pip option that names a program or configuration to load.
	rulePipExecOption = refusal.Rule{Code: "pip.exec-option", Phrase: pipPolicy}
	// pip.unknown-command: a pip command this policy does not know.
	rulePipUnknownCommand = refusal.Rule{Code: "pip.unknown-command", Phrase: "pip command grammar"}

	// pnpm.exec-command: pnpm exec/dlx and scripts given on the command line.
	rulePnpmExecCommand = refusal.Rule{Code: "pnpm.exec-command", Phrase: nodePolicy}
	// pnpm.unknown-command: a pnpm command this policy does not know (pnpm runs package scripts by name).
	rulePnpmUnknownCommand = refusal.Rule{Code: "pnpm.unknown-command", Phrase: nodePolicy}

	// pygmentize.load-code: -x, which imports the lexer or formatter file -l or -f names.
	rulePygmentizeLoadCode = refusal.Rule{Code: "pygmentize.load-code", Phrase: pygmentizePolicy}

	// rg.ambiguous-value: a value that ripgrep could read as a flag.
	ruleRgAmbiguousValue = refusal.Rule{Code: "rg.ambiguous-value", Phrase: "ripgrep option grammar"}
	// rg.exec-option: --pre runs a preprocessor program; -z/--search-zip runs decompressors.
	ruleRgExecOption = refusal.Rule{Code: "rg.exec-option", Phrase: "ripgrep external program"}

	// sdiff.exec-option: --diff-program runs a program of its choosing instead of diff.
	ruleSdiffExecOption = refusal.Rule{Code: "sdiff.exec-option", Phrase: "sdiff external program"}
	// sdiff.interactive: -o starts the interactive merge, whose commands run an editor with a shell escape.
	ruleSdiffInteractive = refusal.Rule{Code: "sdiff.interactive", Phrase: "sdiff external program"}

	// sed.dialect: the sed that runs is not GNU sed or BusyBox sed (BSD sed, toybox), whose script grammar this policy does not model.
	ruleSedDialect = refusal.Rule{Code: "sed.dialect", Phrase: sedPolicy}
	// sed.exec: the e command or the e flag of s, which run a shell command.
	ruleSedExec = refusal.Rule{Code: "sed.exec", Phrase: sedPolicy}
	// sed.locale: non-ASCII script text under a multibyte locale other than UTF-8, where the policy cannot tell where commands end.
	ruleSedLocale = refusal.Rule{Code: "sed.locale", Phrase: sedPolicy}
	// sed.no-script: sed without a script (--help, --version, no operand): only invocations that run a script are admitted.
	ruleSedNoScript = refusal.Rule{Code: "sed.no-script", Phrase: sedPolicy}
	// sed.script-file: -f reads a script from standard input or from a file the policy cannot read inside the working directory.
	ruleSedScriptFile = refusal.Rule{Code: "sed.script-file", Phrase: sedPolicy}
	// sed.syntax: the script does not compile in the model of the sed that runs, so where its commands end cannot be known.
	ruleSedSyntax = refusal.Rule{Code: "sed.syntax", Phrase: sedPolicy}

	// sort.option: --compress-program or --files0-from: runs a program, or reads the list of inputs from a file the policy does not see.
	ruleSortOption = refusal.Rule{Code: "sort.option", Phrase: sortPolicy}

	// split.exec-option: --filter runs a shell command for every chunk.
	ruleSplitExecOption = refusal.Rule{Code: "split.exec-option", Phrase: "split external program"}

	// tar.exec-option: a tar option that runs a program (-I, --to-command, --rsh-command, checkpoint exec, ...).
	ruleTarExecOption = refusal.Rule{Code: "tar.exec-option", Phrase: tarPolicy}
	// tar.multi-volume: -M/-L start GNU tar's volume prompt, whose "!" answer runs a shell.
	ruleTarMultiVolume = refusal.Rule{Code: "tar.multi-volume", Phrase: tarPolicy}
	// tar.remote-archive: a GNU HOST:PATH archive, which runs rsh/ssh.
	ruleTarRemoteArchive = refusal.Rule{Code: "tar.remote-archive", Phrase: tarPolicy}
	// tar.absolute-names: -P/--absolute-names (bsdtar -P, --absolute-paths, --insecure) in extract mode, which writes members wherever their absolute or ".." names lead.
	ruleTarAbsoluteNames = refusal.Rule{Code: "tar.absolute-names", Phrase: tarPolicy}

	// wget.background: -b detaches wget from the call, beyond its timeout.
	ruleWgetBackground = refusal.Rule{Code: "wget.background", Phrase: "wget external program or output"}
	// wget.config: --config reads a wgetrc, whose commands can name programs.
	ruleWgetConfig = refusal.Rule{Code: "wget.config", Phrase: "wget external program or output"}
	// wget.exec-option: a wget option that runs a program (--use-askpass) or executes wgetrc commands (-e).
	ruleWgetExecOption = refusal.Rule{Code: "wget.exec-option", Phrase: "wget external program or output"}

	// yarn.exec-command: yarn exec/dlx and scripts given on the command line.
	ruleYarnExecCommand = refusal.Rule{Code: "yarn.exec-command", Phrase: nodePolicy}

	// zip.no-archive: zip without an archive operand (--help, -v): only archive-building forms are admitted.
	ruleZipNoArchive = refusal.Rule{Code: "zip.no-archive", Phrase: "zip external program"}
	// zip.exec-option: -T/-TT run an unzip command to test the archive.
	ruleZipExecOption = refusal.Rule{Code: "zip.exec-option", Phrase: "zip external program"}

	// xargs.arg-file: xargs -a names a file that cannot be read or is not a regular file (a FIFO or device could block or never end).
	ruleXargsArgFile = refusal.Rule{Code: "xargs.arg-file", Phrase: wrapPolicy}
	// xargs.slot-var: --process-slot-var names a variable that steers programs (childenv.Steering) or is not a variable name.
	ruleXargsSlotVar = refusal.Rule{Code: "xargs.slot-var", Phrase: wrapPolicy}
	// xargs.terminal: -p/--interactive or -o/--open-tty, which read from the terminal a call does not have.
	ruleXargsTerminal = refusal.Rule{Code: "xargs.terminal", Phrase: wrapPolicy}
)
