package cli

import (
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/childenv"

	"github.com/seed-b63acb1b/mcp-shell-server/config"
	"github.com/seed-b63acb1b/mcp-shell-server/policy"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// trustWarning is the trusted-execution warning written once at start-up.
const trustWarning = "every allowed program runs with this server's OS identity and credentials; argument rules are best-effort defence in depth, " +
	"and the kernel sandbox (see the sandbox line) limits each program's writes, programs and network, not its reads of what this user can read. " +
	"If requests or files may derive from untrusted input, run the server inside an OS boundary (container, VM, jail)."

// warnAtStart writes the start-up warnings to the diagnostic log (stderr).
func warnAtStart(log *slog.Logger, cfg *config.Config) {
	log.Warn(trustWarning)
	if cfg.UsingBuiltinProfile {
		log.Warn("no ALLOW_COMMANDS, ALLOWED_COMMANDS or ALLOW_PATTERNS set: using the built-in read-only profile",
			"commands", strings.Join(cfg.Commands, ","))
	} else if len(cfg.Commands) == 0 && len(cfg.Patterns) == 0 {
		var set []string
		for _, name := range []string{"ALLOW_COMMANDS", "ALLOWED_COMMANDS", "ALLOW_PATTERNS"} {
			if _, ok := os.LookupEnv(name); ok {
				set = append(set, name)
			}
		}
		log.Warn("the allowlist is empty: every call will be refused (an allowlist variable set to an empty value allows nothing; unset them all for the built-in read-only profile)", "set", strings.Join(set, ","))
	} else {
		log.Info("allowlist", "commands", strings.Join(cfg.Commands, ","), "patterns", len(cfg.Patterns))
	}
	log.Info("allowed directories", "dirs", strings.Join(cfg.AllowedDirs, string(os.PathListSeparator)))
	if c := cfg.Confirm; len(c.Commands)+len(c.Patterns) > 0 {
		log.Info("confirm tier: matching calls wait for the user's accept, asked through the client (MCP elicitation); a client that cannot be asked is refused",
			"commands", strings.Join(c.Commands, ","), "patterns", strings.Join(c.PatternSources, ","), "timeout", cfg.ConfirmTimeout)
	}
	for _, c := range cfg.Commands {
		if name, category, ok := policy.Refused(c); ok {
			log.Warn("allowlisted program is always refused by the default security policy", "command", c, "as", name, "category", category)
		}
	}
	for i, re := range cfg.Patterns {
		for _, probe := range []string{"sh", "bash", "python3", "env", "xargs", "sed"} {
			if re.MatchString(probe) {
				log.Warn("a broad pattern matches shells and interpreters; they stay refused, but review the pattern", "pattern", cfg.PatternSources[i], "example", probe)
				break
			}
		}
	}
	for _, name := range cfg.ChildEnvAllowlist {
		if audit.SecretLike(name) {
			log.Warn("a secret-looking variable is passed to every child", "name", name)
		}
	}
	for _, w := range childenv.Warnings(childenv.Config{Allowlist: cfg.ChildEnvAllowlist}) {
		log.Warn(w)
	}
	warnPrograms(log, cfg, os.LookupEnv)
	warnReadDirs(log, cfg.Sandbox)
	for _, d := range cfg.AllowedDirs {
		if d == "/" {
			log.Warn("the whole file system is an allowed directory: redirections and working directories are not confined")
		}
	}
	if cfg.Transport == "http" {
		if host, _, err := net.SplitHostPort(cfg.HTTPAddr); err == nil && host != "localhost" {
			if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
				log.Warn("the HTTP transport listens beyond loopback: anyone who can reach it and holds the token runs commands", "addr", cfg.HTTPAddr)
			}
		}
		if f := cfg.HTTPTokenFile; f != "" {
			if fi, err := os.Stat(f); err == nil && fi.Mode().Perm()&0o044 != 0 {
				log.Warn("the HTTP token file is readable by other users", "file", f, "mode", fi.Mode().Perm().String())
			}
		}
	}
	for _, u := range config.UnknownVariables(os.Environ()) {
		log.Warn("unknown variable ignored: it is not a setting of this server", "name", u.Name, "nearest", u.Nearest)
	}
	if v, ok := os.LookupEnv("MCPGODEBUG"); ok {
		log.Warn("MCPGODEBUG is set and changes the MCP SDK's behaviour", "MCPGODEBUG", v)
	}
}

// warnPrograms states the toolchain directories the default child PATH
// gained (config.Toolchains) and warns, once, about every allowlisted
// program the child PATH does not have, saying where the server's own
// PATH has it: such a program's calls fail with "executable file not
// found in child PATH".
func warnPrograms(log *slog.Logger, cfg *config.Config, parent func(string) (string, bool)) {
	if len(cfg.Toolchains) > 0 {
		var dirs []string
		for _, tc := range cfg.Toolchains {
			dirs = append(dirs, tc.Bin)
		}
		log.Info("the child PATH includes the toolchains installed outside the system directories (MCP_SHELL_SAFE_PATH unset)", "added", strings.Join(dirs, ":"))
	}
	if len(cfg.ToolchainsSkipped) > 0 {
		log.Warn("toolchain directories left off the child PATH", "skipped", strings.Join(cfg.ToolchainsSkipped, ", "))
	}
	childPath := childenv.ProgramPath(cfg.ChildEnv(), parent)
	serverPath, _ := parent("PATH")
	var missing []string
	for _, c := range cfg.Commands {
		if strings.ContainsRune(c, '/') {
			continue
		}
		if _, _, refused := policy.Refused(c); refused {
			continue
		}
		if _, err := childenv.LookPath(c, childPath, "/"); err == nil {
			continue
		}
		if found, err := childenv.LookPath(c, serverPath, "/"); err == nil {
			missing = append(missing, c+" (the server's PATH has "+found+")")
		} else {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		log.Warn("allowlisted programs are not in the child PATH: their calls will fail until MCP_SHELL_SAFE_PATH names their directories",
			"programs", strings.Join(missing, ", "), "child_path", childPath)
	}
}

// warnGPGSigning warns, under a Landlock sandbox without read-only
// mounts (an unprivileged server), when git is allowlisted and the
// children's home has a gpg keyring but its gpg.conf does not say
// lock-never: gpg sees ~/.gnupg writable (Landlock does not answer
// access(2)), wants a lock file beside the keyring, and every signed
// commit fails confined. ~/.gnupg never becomes writable to a stage
// (gpg.conf and gpg-agent.conf name programs the user's agent runs
// outside the sandbox), so the warning names what signs confined.
func warnGPGSigning(log *slog.Logger, cfg *config.Config, readOnlyMounts bool) {
	if readOnlyMounts || !filepath.IsAbs(cfg.ChildHome) || !allowsProgram(cfg, "git") {
		return
	}
	dir := filepath.Join(cfg.ChildHome, ".gnupg")
	keyring := false
	for _, name := range []string{"pubring.kbx", "pubring.gpg"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			keyring = true
		}
	}
	if !keyring || lockNever(filepath.Join(dir, "gpg.conf")) {
		return
	}
	log.Warn("git signing with gpg fails in the sandbox of this unprivileged server: gpg wants a lock file beside its keyring in ~/.gnupg, which stays read-only; "+
		"lock-never in gpg.conf, or signing with ssh (gpg.format=ssh through ssh-agent), signs confined (docs/sandbox.md)", "gpg_conf", filepath.Join(dir, "gpg.conf"))
}

// allowsProgram reports whether the allowlist names program or a pattern
// matches it.
func allowsProgram(cfg *config.Config, program string) bool {
	if slices.Contains(cfg.Commands, program) {
		return true
	}
	for _, re := range cfg.Patterns {
		if re.MatchString(program) {
			return true
		}
	}
	return false
}

// gpgConfMax bounds how much of gpg.conf is read: an options file is a
// few hundred bytes.
const gpgConfMax = 1 << 20

// lockNever reports whether a gpg.conf has the lock-never option (a line
// of its own; "#" starts a comment, GnuPG's options file syntax). Only a
// regular file is read, and only its first gpgConfMax bytes: a FIFO there
// would hold start-up in open(2) for ever, /dev/zero would fill memory.
func lockNever(path string) bool {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, gpgConfMax))
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(b)) {
		if strings.TrimSpace(strings.SplitN(line, "#", 2)[0]) == "lock-never" {
			return true
		}
	}
	return false
}

// warnReadDirs warns, once, when the read trees of a Landlock sandbox
// leave out the default directories that hold the dynamic loader or the
// shared libraries: MCP_SHELL_SANDBOX_READ_DIRS replaces the default
// list rather than adding to it, so naming one directory there makes
// every dynamically linked program exit 127. The list is kept as set
// (an operator may narrow it on purpose); the warning gives the value
// that keeps the programs loading.
func warnReadDirs(log *slog.Logger, sc sandbox.Config) {
	if sc.Mode != sandbox.ModeLandlock && sc.Mode != sandbox.ModeAuto {
		return
	}
	read := sc.ReadDirs
	if read == nil {
		read = sandbox.DefaultReadDirs
	}
	if missing := sandbox.LoaderDirsOutside(read); len(missing) > 0 {
		log.Warn(sandbox.ReadDirsVar+" leaves out the directories of the dynamic loader and the shared libraries: dynamically linked programs will fail to load "+
			"(exit 127, \"error while loading shared libraries\"); the variable replaces the default list, so set it to the whole list",
			"missing", strings.Join(missing, ","), "set", sandbox.ReadDirsSetting(read, missing...))
	}
}
