// Package childenv builds the minimal environment of child processes and
// resolves program names with the child's PATH, never the server's.
//
// Contract (spec "Child process environment", seed 001):
//
//   - Build returns PATH, HOME (Config.Home: MCP_SHELL_CHILD_HOME, by
//     default the server's HOME), USER, LOGNAME, LANG, LC_ALL and LC_CTYPE
//     when the server has them, plus the names in the operator's allowlist
//     (MCP_SHELL_CHILD_ENV_ALLOWLIST), sorted by name. Nothing else of the
//     server's environment reaches a child (TMPDIR is the call's private
//     temporary directory, set by the runner where it makes one); MCPGODEBUG (the MCP SDK's own
//     debug switch) is never forwarded even when allowlisted.
//   - PATH precedence: 1. PATH allowlisted: the parent's PATH, passed
//     unchanged even when empty (a per-call PATH is refused: program
//     resolution never uses one); 2. a nonblank MCP_SHELL_SAFE_PATH
//     exactly as configured; 3. DefaultPath. ProgramPath is that PATH, the
//     one the policy and the runner resolve names with; Resolve follows a
//     name's symlink chain so the policy can judge the file that runs.
//   - Per-call overrides are accepted only for allowlisted names, and never
//     for names that steer which program runs, which configuration it reads
//     or where it writes (steering.go: a table per program with its
//     documentation: PATH, HOME, LD_*, GIT_*, KUBECONFIG, *_HOME, GOFLAGS,
//     NPM_CONFIG_*, PIP_*, ...), even when allowlisted: the operator's own
//     value may be inherited, a request's may not. Anything else is an
//     error the caller turns into a refusal. Warnings lists the allowlisted
//     steering names for the start-up log.
//   - LookPath searches only the child PATH and ignores relative and empty
//     entries, so the working directory is never searched implicitly. On
//     Windows (lookpath_windows.go) PATH is ";"-separated and a name is
//     tried with each DefaultPathext extension; the first existing file
//     decides, and one Windows runs through another program (.bat and .cmd
//     through cmd.exe, .vbs/.js through wscript) is refused with a
//     *ScriptFileError (errors.Is ErrScriptFile) inside the *LookupError.
//
// The package is pure apart from LookPath's stat calls and Resolve's
// reads of the program files: whether each is a script and which
// interpreters it needs are read once per file and kept while the file
// keeps its identity (head.go), so a later call costs a stat.
package childenv
