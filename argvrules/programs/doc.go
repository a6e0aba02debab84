// Package programs holds the argv recognizers for the second tier of
// programs people allowlist (issue 8): rg, split, sdiff, diff3, wget,
// curl, make, go, npm, npx, pnpm, yarn, pip, cargo, zip, docker, podman,
// kubectl and file. Families and FamilyOf export them for the policy's
// registry.
//
// Each recognizer parses one pipeline stage's argv the way its program
// does — the argvrules getopt_long engine for the GNU-style programs
// (with exact matching for rg and curl, which do not abbreviate), small
// hand-written scanners for the go flag package, npm's nopt, Python's
// optparse, clap (cargo), zip's own parser and the cobra-based container
// clients — and refuses the forms that run another program, load code,
// read options from somewhere the check cannot see, or write a file
// outside the working directory. Where a grammar is too loose to follow
// exactly, the scan is position-independent and refuses conservatively.
// Output-path checks use argvrules.OutputPath (and, for directories, the
// same lexical rules plus an os.Root walk under Context.Dir); "-" and
// /dev/null are accepted as outputs. Recognizers never run anything,
// never create or modify files, and never panic; they read the file
// system only through Context.Dir, except make's makefile check, which
// resolves -f/-C/-I paths component by component with Lstat and Readlink
// (physicalPath) the way the kernel would, stopping at /dev, /proc and
// /sys.
//
// Programs of the issue with no argv exec vector (no recognizer needed;
// the policy allows them by name):
//
//	program   exec vector        files it writes by argv
//	grep      none               none (-f, --exclude-from read)
//	head      none               none
//	tail      none               none (-f follows, bounded by the timeout)
//	wc        none               none (--files0-from reads)
//	cat       none               none
//	ls        none               none
//	cut       none               none
//	tr        none               none
//	uniq      none               OUTPUT operand: delegated (like cp)
//	diff      none (-l runs pr,  none
//	          a fixed name)
//	stat      none               none
//	du        none               none (--files0-from, -X read)
//	jq        none (no system()) none (--rawfile, --slurpfile, -f, -L read)
//	xxd       none               OUTFILE operand (xxd -r): delegated
//	od        none               none
//	base64    none               none
//	cp, mv    none               destination operand, -t DIR: delegated
//	mkdir     none               its operands: delegated
//	touch     none               its operands (-r reads): delegated
//	rm        none               removes its operands: delegated
//	tee, dd   none               operands, of=: delegated (spec)
//
// file(1) has one: -z/-Z run external decompressors, so it has a
// recognizer (File). sort is handled in package argvrules.
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
package programs
