package policy

import (
	"strings"
	"sync"
)

// refusedGroup is one row of the categorical refusal list: programs of one
// kind, the category a refusal names, and where the entries come from.
type refusedGroup struct {
	category string
	source   string
	names    []string
}

// refusedGroups is the categorical refusal list: programs whose documented
// job is to run another program (their operand, a script, a command from
// standard input or a terminal), interpreters and debuggers, and tools
// with a shell escape, so no argv rule can make them safe. It started as
// the Python reference's list (tumf 1.1.8 §4.2) and was rebuilt by a pass
// over the executables of the packages a Debian 12 / Ubuntu 24.04 / Alpine
// 3.20 system ships (dpkg -L of each package named in source, busybox
// --list of BusyBox 1.35/1.36), keeping every program whose manual page
// SYNOPSIS takes a COMMAND, PROGRAM or script to run. Keys are lower-case
// basenames; refusalCandidates also strips versions (python3.12) and
// Debian variants (vim.basic), and refusedPrefixes covers shapes
// (qemu-x86_64, ld-linux-*.so.2).
var refusedGroups = []refusedGroup{
	{"shell", "Debian bash, dash, zsh, fish, csh, tcsh, ksh, mksh, yash, rc, elvish, nushell, xonsh, powershell; BusyBox ash/hush", []string{
		"sh", "bash", "rbash", "zsh", "fish", "csh", "tcsh", "ksh", "ksh93", "mksh", "dash", "ash", "hush", "yash", "rc",
		"elvish", "nu", "xonsh", "pwsh", "powershell", "oksh", "posh", "sash", "lksh", "scsh",
	}},
	{"multi-call binary with a shell", "BusyBox busybox(1), toybox: argv[1] names any applet, sh included", []string{"busybox", "toybox"}},
	{"interpreter", "language runtimes (Debian python3, perl-base, ruby, nodejs, php, lua, tcl, guile, R, julia, OCaml, Erlang, GHC, SWI-Prolog, LLVM, TCC packages)", []string{
		"python", "pypy", "perl", "ruby", "irb", "pry", "erb", "node", "nodejs", "deno", "bun", "bunx", "php", "lua", "luajit", "texlua",
		"tclsh", "wish", "expect", "autoexpect", "r", "rscript", "julia", "jshell", "groovy", "scala", "kotlin", "kotlinc",
		"clojure", "clj", "guile", "racket", "sbcl", "clisp", "ecl", "ghci", "runghc", "runhaskell", "ocaml", "erl", "elixir", "iex",
		"swipl", "gforth", "osascript", "octave", "jrunscript", "jjs", "rhino", "java", "ipython", "pydoc", "idle", "jupyter",
		"ts-node", "tsx", "qjs", "maxima", "lli", "clang-repl", "cling", "tcc", "mongosh", "mongo", "duckdb",
	}},
	{"debugger or profiler that runs its operand", "gdb, lldb, pdb (python3: /usr/bin/pdb3), strace, ltrace, valgrind, linux-perf perf(1), heaptrack, uftrace, rr, trace-cmd, glibc libc-devtools sotruss(1)/memusage(1)/xtrace(1), gprofng, py-spy, memray, scalene, python3-coverage run, perl prove -e/--exec", []string{
		"gdb", "gdb-multiarch", "gdbserver", "cgdb", "lldb", "lldb-server", "pdb", "strace", "ltrace", "valgrind", "perf",
		"heaptrack", "uftrace", "rr", "trace-cmd", "bpftrace", "sotruss", "memusage", "xtrace", "catchsegv", "gprofng",
		"gp-collect-app", "py-spy", "memray", "scalene", "austin", "coverage", "python3-coverage", "prove",
	}},
	{"command wrapper", "util-linux 2.38 (setarch and its per-architecture names, choom, uclampset, chrt, taskset, nsenter, unshare, setpriv, setsid, prlimit, runuser, su, script, scriptlive), coreutils 9.1 (chroot, runcon), procps watch, debianutils run-parts, moreutils, GNU parallel, numactl, cgroup-tools, systemd (run0), BusyBox 1.35 applets (openvt, lpd, zcip, ifplugd, mdev, ftpd, tftpd ...), schedtool, trickle, apparmor aa-exec, policycoreutils newrole, keyutils keyctl session, oprofile, sshfs -o ssh_command", []string{
		"setsid", "chroot", "runcon",
		"setarch", "linux32", "linux64", "i386", "i486", "i586", "i686", "x86_64", "x86", "uname26", "arm", "armh", "armv7l",
		"aarch64", "arm64", "ppc", "ppc32", "ppc64", "ppcle", "ppc64le", "s390", "s390x", "sparc", "sparc32", "sparc32bash",
		"sparc64", "mips", "mips32", "mips64", "parisc", "parisc32", "parisc64", "alpha", "ia64", "loongarch", "loongarch64",
		"riscv64", "choom", "uclampset", "chrt", "taskset", "nsenter", "unshare", "setpriv", "prlimit",
		"runuser", "su", "sudo", "sudoedit", "doas", "pkexec", "ksu", "script", "scriptlive", "watch", "run-parts",
		"start-stop-daemon", "daemon", "daemonize", "systemd-run", "systemd-nspawn", "systemd-inhibit", "machinectl",
		"firejail", "bwrap", "minijail0", "nsjail", "capsh", "sg", "newgrp", "fakeroot", "fakeroot-sysv", "fakeroot-tcp",
		"fakechroot", "proot", "schroot", "dbus-run-session", "dbus-launch", "ssh-agent", "rlwrap", "eatmydata", "sshpass",
		"unbuffer", "xvfb-run", "torsocks", "tsocks", "proxychains", "proxychains4", "faketime", "datefudge", "numactl",
		"cpulimit", "cgexec", "parallel", "sem", "chronic", "ifne", "pee", "mispipe", "lckdo", "zrun", "vipe", "hyperfine",
		"entr", "watchexec", "nodemon", "at", "batch", "crontab", "screen", "tmux", "byobu", "dtach", "abduco", "zellij",
		"ccache", "sccache", "distcc", "icecc", "caffeinate", "sandbox-exec", "wine", "wine64", "box64", "box86",
		"toolbox", "distrobox", "xdg-open", "gnome-open", "x-terminal-emulator", "xterm", "ld.so", "ldd",
		"chpst", "runsv", "runsvdir", "svlogd", "envdir", "envuidgid", "setuidgid", "softlimit", "tcpsvd", "udpsvd",
		"tcpserver", "inotifyd", "cttyhack", "run-init", "switch_root", "init", "linuxrc", "getty", "agetty", "login",
		"sulogin", "httpd", "inetd", "telnetd", "udhcpc", "ifup", "ifdown", "acpid", "crond", "mim", "pipx", "uvx", "corepack",
		"msgexec", "msgfilter", "reformime", "popmaildir", "pdsh", "dsh", "mosh",
		"openvt", "lpd", "zcip", "ifplugd", "mdev", "ftpd", "tftpd", "run0", "flatpak-spawn", "distrobox-enter",
		"schedtool", "trickle", "aa-exec", "newrole", "keyctl", "operf", "ocount", "sshfs",
	}},
	{"editor, pager or tool with a shell escape or script language", "vim, nvim, emacs, nano, joe, less, more (util-linux), man-db, info, ed, m4, dc, gnuplot, mail (bsd-mailx, s-nail: ~!), ftp clients (!), tig, mc, file managers, ghostscript (%pipe% with -dNOSAFER), ImageMagick (|cmd file names), pandoc (--filter), nmap (NSE Lua scripts), tcpdump (-z), aria2c (--on-download-*), rake (-e), rpm (--eval Lua), cpan, perlbug, gettext msgexec/msgfilter", []string{
		"ed", "red", "ex", "vi", "vim", "nvim", "view", "rvim", "rview", "vimdiff", "gvim", "emacs", "emacsclient",
		"nano", "pico", "joe", "jed", "mcedit", "micro", "kak", "hx", "helix", "less", "more", "most", "pg", "man", "info",
		"editor", "pager", "sensible-editor", "sensible-pager", "sensible-browser", "www-browser", "x-www-browser",
		"lynx", "w3m", "m4", "dc", "gnuplot", "mail", "mailx", "bsd-mailx", "s-nail", "mutt", "neomutt", "tig", "lazygit",
		"mc", "ranger", "nnn", "vifm", "gs", "ghostscript", "convert", "magick", "mogrify", "pandoc", "nmap", "tcpdump",
		"aria2c", "rake", "rpm", "cpan", "instmodsh", "perlbug", "perlthanks", "vipw", "vigr",
	}},
	{"remote shell or network relay", "openssh-client, rsh-client, inetutils, netcat, socat, lftp, smbclient", []string{
		"ssh", "autossh", "scp", "slogin", "rsh", "rlogin", "rcp", "rexec", "sftp", "rsync", "telnet", "ftp", "lftp", "ncftp",
		"smbclient", "nc", "ncat", "netcat", "socat", "cryptcat",
	}},
	{"database client with a shell escape", "mysql/mariadb (\\!), psql (\\!), sqlite3 (.shell)", []string{"mysql", "mariadb", "psql", "sqlite3"}},
	{"package manager that runs hooks from -o options", "apt(8), apt-get(8) -o APT::Update::Pre-Invoke", []string{"apt", "apt-get"}},
	{"this server's own binary", "its hidden launcher mode starts any program", []string{"mcp-shell-server"}},
	{"container runtime", "container runtimes and compose tools without a read-only recognizer (docker, podman and kubectl have one in argvrules)", []string{
		"nerdctl", "ctr", "crictl", "lxc", "lxc-attach", "lxc-execute", "incus", "buildah",
		"docker-compose", "podman-compose",
	}},
	{"configuration manager that runs commands", "ansible(1) -m shell, ansible-playbook, ansible-console, ansible-pull", []string{
		"ansible", "ansible-playbook", "ansible-console", "ansible-pull",
	}},
}

// refusedPrefixes are name shapes refused with their category: user-mode
// emulators run any binary (qemu-user: qemu-x86_64, qemu-aarch64-static),
// and every dynamic loader runs its operand (ld-linux-x86-64.so.2,
// ld-musl-x86_64.so.1).
var refusedPrefixes = []struct{ prefix, contains, category string }{
	{"qemu-", "", "command wrapper (qemu-user emulator)"},
	{"ld-", ".so", "command wrapper (dynamic loader)"},
}

// refused maps every name of refusedGroups to its category, built on first
// use (every process of this binary initializes the package).
var refused = sync.OnceValue(func() map[string]string { return namesOf(refusedGroups) })

// windowsRefused maps every name of windowsGroups and windowsOnlyGroups to
// its category (refusedwin.go); windowsOnly marks the names refused
// elsewhere only when spelled with a Windows extension. They match the
// basename exactly (after the Windows extension): the version and variant
// candidates are Unix installation habits (cmd1 is not cmd). Both are
// built on first use.
var windowsNames = sync.OnceValues(func() (map[string]string, map[string]bool) {
	m, only := namesOf(windowsGroups), map[string]bool{}
	for n, c := range namesOf(windowsOnlyGroups) {
		m[n], only[n] = c, true
	}
	for n := range m {
		if _, dup := refused()[n]; dup {
			panic("policy: refused name listed twice: " + n)
		}
	}
	if len(m) != len(namesOf(windowsGroups))+len(only) {
		panic("policy: a Windows refused name is listed twice")
	}
	return m, only
})

// namesOf maps the names of groups to their categories; a name listed
// twice is a mistake in the table.
func namesOf(groups []refusedGroup) map[string]string {
	m := map[string]string{}
	for _, g := range groups {
		for _, n := range g.names {
			if _, dup := m[n]; dup {
				panic("policy: refused name listed twice: " + n)
			}
			m[n] = g.category
		}
	}
	return m
}

// refusalCandidates are the names argv0's basename may stand for: itself;
// without a version suffix (python3.12, perl5.36, lua-5.4); and the part
// before the first dot, since Debian installs variants as NAME.VARIANT
// (vim.basic, vim.tiny, busybox.static) and alternatives point at them.
func refusalCandidates(base string) []string {
	out := []string{base}
	trimmed := strings.TrimRight(base, "0123456789.")
	trimmed = strings.TrimRight(trimmed, "-_")
	if trimmed != base && trimmed != "" {
		out = append(out, trimmed)
	}
	if head, _, ok := strings.Cut(base, "."); ok && head != "" {
		out = append(out, head, strings.TrimRight(head, "0123456789-_"))
	}
	return out
}

// Refused reports whether argv0's program is on the categorical refusal
// list under the naming of the platform the server runs on, and the
// normalised name and category when it is.
func Refused(argv0 string) (name, category string, ok bool) {
	return hostNaming.refused(argv0)
}

// refused is Refused under n: a Windows script extension is refused
// outright (Windows runs such a file through cmd.exe, Windows Script Host,
// mshta or a file association); otherwise the basename without a Windows
// image extension, and the names it may stand for, are looked up, then the
// name shapes.
func (n naming) refused(argv0 string) (name, category string, ok bool) {
	base := n.base(argv0)
	if ext := n.scriptExt(base); ext != "" {
		return base, "Windows script (" + ext + " files run through cmd.exe, Windows Script Host, mshta or a file association)", true
	}
	windowsRefused, windowsOnly := windowsNames()
	if stem, winExt := n.windowsStem(base); windowsRefused[stem] != "" && (n.windows || winExt || !windowsOnly[stem]) {
		return stem, windowsRefused[stem], true
	}
	stem, _ := stripExec(base)
	for _, cand := range refusalCandidates(stem) {
		if category, ok := refused()[cand]; ok {
			return cand, category, true
		}
	}
	for _, p := range refusedPrefixes {
		if strings.HasPrefix(stem, p.prefix) && strings.Contains(stem, p.contains) {
			return stem, p.category, true
		}
	}
	return stem, "", false
}
