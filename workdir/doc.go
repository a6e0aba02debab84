// Package workdir is a call's working directory as one handle: resolved
// once, checked once against the allowed directories, opened once, and
// then used by everything that touches the file system on the call's
// behalf — the child's chdir, the "<" ">" ">>" opens, the redirection and
// output-path probes of the policy and the recognizers.
//
// Contract:
//
//   - Resolve turns a request's directory argument into an absolute,
//     symlink-resolved directory inside one of the allowed directories.
//   - Open pins that directory: it holds the directory open for the whole
//     call and checks, on the opened inode itself, that it lies inside an
//     allowed directory, so a symlink swapped into the path after the check
//     cannot move the call elsewhere. Path is a /proc/self/fd link to the
//     very directory (for the child's chdir); Real is where the kernel says
//     it is; Root is an os.Root on it, through which every probe and open
//     resolves relative paths without escaping (no "..", no symlink out).
//   - A directory inside a .git directory (below its allowed directory) is
//     refused: a call running there could rewrite repository configuration
//     and hooks with an ordinary redirection.
//   - Within is the one containment test of absolute paths (a directory
//     inside an allowed directory, a token file inside a served one).
//
// Not covered: the directory can be renamed or its contents changed by a
// child while the call runs; a probe is advisory and every real open
// re-checks through Root. Crossing mount points inside the directory is not
// prevented (os.Root does not).
//
// Platforms: on Linux Path and Real come from /proc/self/fd. macOS
// (pin_darwin.go) has no /proc and x/sys/unix exposes no fcntl(F_GETPATH)
// wrapper, so Path and Real are the path Resolve resolved; Windows
// (pin_windows.go) reads Real back from the handle
// (GetFinalPathNameByHandle). On both, the child's chdir goes by that
// path, so a rename between Open and the start is not seen by the child's
// directory, while Root is opened by path and refused unless it is the
// pinned directory (pin_other.go).
package workdir
