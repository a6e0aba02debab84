package policy

import (
	"path"
	"strings"
)

// refused is the categorical refusal list: programs whose ordinary use
// runs other programs or arbitrary code from their arguments, standard
// input, a terminal or configuration, so no argv rule can make them safe.
// It is the Python reference's list (tumf 1.1.8 §4.2) plus the names its
// review found missing (dash, busybox, nodejs, sudo, strace, nsenter ...).
// Keys are lower-case basenames with any version suffix removed.
var refused = map[string]string{
	// shells
	"sh": "shell", "bash": "shell", "zsh": "shell", "fish": "shell", "csh": "shell",
	"tcsh": "shell", "ksh": "shell", "mksh": "shell", "dash": "shell", "ash": "shell",
	"yash": "shell", "rc": "shell", "elvish": "shell", "nu": "shell", "xonsh": "shell",
	"pwsh": "shell", "powershell": "shell", "rbash": "shell", "busybox": "multi-call binary with a shell",
	"toybox": "multi-call binary with a shell",
	// interpreters and language runtimes
	"python": "interpreter", "pypy": "interpreter", "perl": "interpreter", "ruby": "interpreter",
	"irb": "interpreter", "node": "interpreter", "nodejs": "interpreter", "deno": "interpreter",
	"bun": "interpreter", "php": "interpreter", "lua": "interpreter", "luajit": "interpreter",
	"tclsh": "interpreter", "wish": "interpreter", "expect": "interpreter", "r": "interpreter",
	"rscript": "interpreter", "julia": "interpreter", "jshell": "interpreter", "groovy": "interpreter",
	"scala": "interpreter", "guile": "interpreter", "racket": "interpreter", "sbcl": "interpreter",
	"ghci": "interpreter", "ocaml": "interpreter", "erl": "interpreter", "elixir": "interpreter",
	"iex": "interpreter", "osascript": "interpreter",
	// command wrappers: run their operands as a program
	"env": "command wrapper", "xargs": "command wrapper", "timeout": "command wrapper",
	"nice": "command wrapper", "nohup": "command wrapper", "setsid": "command wrapper",
	"stdbuf": "command wrapper", "setarch": "command wrapper", "linux32": "command wrapper",
	"linux64": "command wrapper", "strace": "command wrapper", "ltrace": "command wrapper",
	"valgrind": "command wrapper", "time": "command wrapper", "watch": "command wrapper",
	"flock": "command wrapper", "ionice": "command wrapper", "taskset": "command wrapper",
	"chrt": "command wrapper", "chroot": "command wrapper", "unshare": "command wrapper",
	"nsenter": "command wrapper", "prlimit": "command wrapper", "runuser": "command wrapper",
	"su": "command wrapper", "sudo": "command wrapper", "doas": "command wrapper",
	"pkexec": "command wrapper", "script": "command wrapper", "systemd-run": "command wrapper",
	"firejail": "command wrapper", "bwrap": "command wrapper", "capsh": "command wrapper",
	"setpriv": "command wrapper", "parallel": "command wrapper", "run-parts": "command wrapper",
	"start-stop-daemon": "command wrapper", "at": "command wrapper", "batch": "command wrapper",
	"crontab": "command wrapper", "screen": "command wrapper", "tmux": "command wrapper",
	"faketime": "command wrapper", "catchsegv": "command wrapper", "ld.so": "command wrapper",
	"ld-linux.so.2": "command wrapper", "ld-linux-x86-64.so.2": "command wrapper",
	// editors, pagers and tools with a shell escape or script language
	"sed": "shell-escape tool", "gsed": "shell-escape tool", "ed": "shell-escape tool",
	"ex": "shell-escape tool", "vi": "shell-escape tool", "vim": "shell-escape tool",
	"nvim": "shell-escape tool", "view": "shell-escape tool", "rvim": "shell-escape tool",
	"emacs": "shell-escape tool", "nano": "shell-escape tool", "pico": "shell-escape tool",
	"less": "shell-escape tool", "more": "shell-escape tool", "most": "shell-escape tool",
	"pg": "shell-escape tool", "man": "shell-escape tool", "info": "shell-escape tool",
	"gdb": "debugger", "lldb": "debugger",
	"vimdiff": "shell-escape tool", "gvim": "shell-escape tool", "rview": "shell-escape tool",
	"editor": "shell-escape tool (Debian's editor alternative)", "pager": "shell-escape tool (Debian's pager alternative)",
	"sensible-editor": "shell-escape tool", "sensible-pager": "shell-escape tool", "sensible-browser": "shell-escape tool",
	"www-browser": "shell-escape tool", "x-www-browser": "shell-escape tool", "lynx": "shell-escape tool", "w3m": "shell-escape tool",
	"m4": "macro processor with syscmd", "dc": "calculator with a shell escape", "gnuplot": "plotting tool with system()",
	"octave": "interpreter", "jrunscript": "interpreter", "java": "interpreter", "ipython": "interpreter",
	"pydoc": "interpreter", "idle": "interpreter",
	// more command wrappers
	"sg": "command wrapper", "newgrp": "command wrapper", "fakeroot": "command wrapper",
	"fakeroot-sysv": "command wrapper", "fakeroot-tcp": "command wrapper", "dbus-run-session": "command wrapper",
	"ssh-agent": "command wrapper", "rlwrap": "command wrapper", "eatmydata": "command wrapper",
	"sshpass": "command wrapper", "unbuffer": "command wrapper", "xvfb-run": "command wrapper",
	"torsocks": "command wrapper", "proxychains": "command wrapper", "proxychains4": "command wrapper",
	"apt": "package manager that runs hooks from -o options", "apt-get": "package manager that runs hooks from -o options",
	// remote shells and clients with command or shell features
	"ssh": "remote shell", "autossh": "remote shell", "scp": "remote shell", "slogin": "remote shell",
	"rsh": "remote shell", "rlogin": "remote shell", "rcp": "remote shell", "rexec": "remote shell",
	"sftp": "remote shell", "rsync": "remote shell", "telnet": "remote shell",
	"nc": "network relay", "ncat": "network relay", "netcat": "network relay", "socat": "network relay",
	"ftp": "remote shell", "mysql": "database client", "psql": "database client",
	"sqlite3": "database client", "zip": "archiver that runs an unzip command",
	// this server: its hidden launcher mode starts any program
	"mcp-shell-server": "this server's own binary",
	// container runtimes without a read-only recognizer (docker, podman and
	// kubectl have a read-only recognizer in argvrules)
	"nerdctl": "container runtime", "ctr": "container runtime",
}

// refusalName maps argv[0] to the key looked up in refused: the lower-case
// basename (case-insensitive file systems run "Bash" as bash), with a
// trailing version such as "3.12", "5.36" or "-3.11" removed when the
// remainder is a refused name (python3.12 → python, perl5.36 → perl).
func refusalName(argv0 string) string {
	base := strings.ToLower(path.Base(argv0))
	for _, cand := range refusalCandidates(base) {
		if _, ok := refused[cand]; ok {
			return cand
		}
	}
	return base
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
// list, and the normalised name and category when it is.
func Refused(argv0 string) (name, category string, ok bool) {
	name = refusalName(argv0)
	category, ok = refused[name]
	return name, category, ok
}
