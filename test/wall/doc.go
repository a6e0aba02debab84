// Package wall proves the kernel wall of the default sandbox by attack: a
// probe program (test/wallprobe) makes one plain system call per way out
// of a stage, run by the real server under its default configuration as
// a leaf, behind the wrappers timeout, env and nice, as a pipeline's
// first stage, as xargs's child, as a background job, and from code that
// make, npm test, npm install and go test run,
// and with a fetch word among a script's or a test's arguments (npm test
// install, npm run build view, go test . -args get: the network follows
// the parsed subcommand, so the word grants nothing), as the server's user and, under root, as an unprivileged one. npm
// install's stage has the network: there the probe proves the rest of
// the wall holds, a pathname UNIX socket outside among it.
package wall
