// Package redirect confines the server-managed redirections "<", ">" and
// ">>" to the call's working directory.
//
// Contract:
//
//   - Check applies the lexical rules of the reference server
//     (tumf/mcp-shell-server 1.1.8, behaviour notes §6): a target is
//     non-empty, free of NUL bytes, relative, and has no ".." component.
//   - Every probe and open resolves under the call's working-directory
//     handle (workdir.Dir), through its os.Root, opened once per call.
//   - Probe adds a file-system check that neither creates, truncates nor
//     opens anything for writing and never blocks (it only stats through an
//     os.Root). The policy uses it to refuse a call before any process is
//     created.
//   - OpenInput and OpenOutput do the real opens through an os.Root on the
//     working directory, so a symlink (file, directory or dangling) cannot
//     lead outside and there is no check-then-open race. Every open uses
//     O_NONBLOCK, so a FIFO never blocks the server, and anything but a
//     regular file is refused after fstat.
//
// Hardening beyond the reference: files opened for output lose their
// execute and set-id bits (a ">" into an existing script cannot produce a
// runnable payload) and an output file with more than one hard link is
// refused (a hard link is invisible to path containment and may name a file
// outside the working directory).
//
// Not prevented (see os.Root): crossing mount points inside the working
// directory, and reading /proc-style files when the working directory is
// such a tree. The working directory itself is chosen by the caller.
//
// Platforms: the opened file's location comes from /proc/self/fd on
// Linux; elsewhere (opened_other.go) it is the target resolved by path and
// accepted only when that path names the opened file. On Windows
// (fs_windows.go) there are no FIFOs to guard with O_NONBLOCK and the hard
// link count of an output file is read from its handle; a count that
// cannot be read is refused.
//
//   - ProbeWrite is the same containment for paths a program will write
//     itself (output-file options of every family, git included, and the
//     names programs make up): one check for ">" and for "-o FILE".
//   - Every output target, ">" or ProbeWrite, is refused inside a git
//     directory recognised by name (.git) or by content (HEAD with
//     objects/ and refs/, or commondir: IsGitDir), and when it is a
//     configuration file by role (config.go: ~/.gitconfig, .config/,
//     .kube/config, .curlrc, .wgetrc, .npmrc, pip.conf, .cargo/config.toml,
//     .ssh/, shell startup files ...), wherever it is in the tree: HOME may
//     be an allowed directory, and project configuration is read from the
//     working directory.
//
// All refusals are *refusal.Rejection values carrying one of the codes in
// codes.go.
package redirect
