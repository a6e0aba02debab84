package sandbox

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/internal/lazyre"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// Kinds of Denial.
const (
	DeniedExec    = "exec"    // executing a program
	DeniedWrite   = "write"   // creating, writing or removing a file
	DeniedRead    = "read"    // reading a file or listing a directory
	DeniedConnect = "connect" // a TCP connection or bind
	DeniedAccess  = "access"  // a file access of unknown direction
	// DeniedCredentials: a registry refused a stage that had the user's
	// configuration without its credentials (Target: the family).
	DeniedCredentials = "credentials"
	// DeniedSigning: git's signing program failed in a confined git
	// stage (Target: the program); git prints only that it failed.
	DeniedSigning = "signing"
	// DeniedLibrary: a dynamically linked program could not load a
	// shared library beneath a directory the stage may not read
	// (Target: the library's path); it exits 127 before it runs.
	DeniedLibrary = "library"
)

// Denial is one access the sandbox refused a stage. Guess marks a denial
// read from the stage's stderr rather than reported by the kernel: the
// program said "Permission denied", which a file's own mode can also
// cause.
type Denial struct {
	Kind   string `json:"kind"`
	Target string `json:"target,omitempty"` // path or host:port, "" when unknown
	Guess  bool   `json:"guess,omitempty"`
}

func (d Denial) String() string {
	t := d.Target
	if t == "" {
		t = "a file"
	}
	switch d.Kind {
	case DeniedExec:
		return "exec of " + t
	case DeniedWrite:
		return "write to " + t
	case DeniedRead:
		return "read of " + t
	case DeniedConnect:
		if d.Target == "" {
			return "a network connection"
		}
		return "TCP to " + t
	case DeniedCredentials:
		return d.Target + "'s registry credentials"
	case DeniedSigning:
		return d.Target + "'s signature (git hides " + d.Target + "'s error)"
	case DeniedLibrary:
		return "read of the shared library " + t + " (the program could not load)"
	}
	return "access to " + t
}

// MaxDenials caps the denials one call reports.
const MaxDenials = 8

// pathMax is Linux's PATH_MAX, with its NUL: the longest path a system
// call takes, so the longest target a denial can have.
const pathMax = 4096

// deniedLine matches the messages programs print for EACCES, EPERM and
// EROFS: strerror's "Permission denied", "Operation not permitted" and
// "Read-only file system" (glibc sysdeps/gnu/errlist.h; Go's
// syscall.Errno strings are the lower-case forms), and the errno names
// some print. A root server's stages see every mount but their writable
// trees read-only (mountns_linux.go), so their writes outside fail with
// EROFS before Landlock's EACCES.
var deniedLine = lazyre.New(`(?i)permission denied|operation not permitted|read-only file system|\bEACCES\b|\bEPERM\b|\bEROFS\b`)

// readOnly is the EROFS message: always a write.
var readOnly = lazyre.New(`(?i)read-only file system|\bEROFS\b`)

var (
	connectWords = lazyre.New(`(?i)\b(connect|dial|bind|socket|connection)\b`)
	execWords    = lazyre.New(`(?i)\b(exec|execvp|execve|fork/exec|cannot execute|cannot run|spawn|posix_spawn)\b|: not found`)
	writeWords   = lazyre.New(`(?i)\b(cannot create|cannot touch|cannot remove|cannot make|create|creat|mkdir|write|writ|rename|unlink|remove|rmdir|lock|truncate|chmod|utime|symlink|link)\w*\b`)
	readWords    = lazyre.New(`(?i)\b(read|reading|scandir|opendir|stat|cannot access|cannot open|unable to access|lstat)\b`)
	// address is host:port as Go's net and curl print them.
	address = lazyre.New(`(\[[0-9A-Fa-f:.]+\]|[0-9]{1,3}(\.[0-9]{1,3}){3}|[A-Za-z0-9.-]+\.[A-Za-z]{2,}):[0-9]{1,5}\b`)
	// pathWord is an absolute or relative path, bare or quoted.
	pathWord = lazyre.New("(?:^|[\\s'\"`‘“(])((/|\\./|\\.\\./|~/)[^\\s'\"`’”:,)]*)")
	// launcher is the first word of a message of a shell or another
	// program that runs what it names (dash: "sh: 1: PROG: Permission
	// denied", bash: "bash: line 1: PROG: ...", make: "make: PROG: ...").
	launcher = lazyre.New(`^(\S*/)?(sh|bash|dash|ash|zsh|make|gmake|env|xargs|timeout|nice|nohup|find)(: [0-9]+| line [0-9]+)?:`)
)

// GuessDenials reads a confined stage's stderr for the messages of
// denied accesses (deniedLine) and says what each was, in order, each
// once, at most MaxDenials: the fallback where the kernel reports no
// denials. Landlock logs denials only through the audit subsystem (from
// ABI 7, when audit is enabled), which this server does not read, so
// every denial it reports is such a guess. The kind is read from the
// message's words (exec, connect, create ...); a message that names no
// direction is an access. GuessCallDenials also knows the stages'
// programs and modes.
func GuessDenials(stderr []byte) []Denial { return guessDenials(nil, stderr) }

// GuessCallDenials is GuessDenials for the stages of p, whose argv
// settle what a message leaves open (tar's "Cannot open" is a write when
// tar extracts, a read when it lists).
func GuessCallDenials(p *plan.Call, stderr []byte) []Denial { return guessDenials(p, stderr) }

func guessDenials(p *plan.Call, stderr []byte) []Denial {
	var out []Denial
	prev := ""
	for line := range bytes.Lines(stderr) {
		if len(out) == MaxDenials {
			break
		}
		s := strings.TrimSpace(string(line))
		last := prev
		prev = s
		if !deniedLine.MatchString(s) {
			continue
		}
		if bareError.MatchString(s) && last != "" {
			// unzip prints the error's text on a line of its own
			// below the one naming the file: judge them as one.
			s = last + ": " + s
		}
		d := Denial{Kind: DeniedAccess, Guess: true}
		d.Target = nearestPath(s)
		switch {
		case connectWords.MatchString(s):
			d.Kind, d.Target = DeniedConnect, address.FindString(s)
		case readOnly.MatchString(s):
			d.Kind = DeniedWrite
		case execWords.MatchString(s):
			d.Kind = DeniedExec
		case writeWords.MatchString(s), tarWrite(p, s):
			d.Kind = DeniedWrite
		case readWords.MatchString(s):
			d.Kind = DeniedRead
		case d.Target != "" && launcher.MatchString(s) && strings.HasSuffix(strings.TrimSpace(deniedLine.Split(s, 2)[0]), d.Target+":"):
			// "sh: 1: /usr/bin/x: Permission denied": a shell that could
			// not run the program it names.
			d.Kind = DeniedExec
		}
		if d.Target == "" && d.Kind != DeniedConnect {
			d.Target = namedFile(s)
		}
		if len(d.Target) >= pathMax {
			// No call that failed on a file took a name this long
			// (ENAMETOOLONG comes first): words the program printed,
			// which would carry a stderr's worth into the hint.
			d.Target = ""
		}
		if !containsDenial(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// bareError is a line that is only an error's text: unzip 6.00
// (fileio.c, CannotCreateFile "error:  cannot create %s\n        %s\n";
// extract.c's checkdir "checkdir error:  cannot create %s\n ... %s")
// prints strerror indented below the file it could not create.
var bareError = lazyre.New(`(?i)^(permission denied|operation not permitted|read-only file system)$`)

// tarMessage is GNU tar's form for a failed call on a file: "tar: NAME:
// Cannot CALL: ERROR" (tar 1.34 src/misc.c call_arg_error; "Cannot open"
// for open_error, also for the directory of -C in chdir_do and for the
// archive), "tar (child): ..." from the process that runs -z's
// compressor on the archive; NAME quoted by quotearg_colon.
var tarMessage = lazyre.New(`^(\S*/)?tar(?: \(child\))?: (.+?): Cannot (open|change mode|change ownership|create|stat)\b`)

// tarWrite reports whether s is tar's message of a failed open, chmod or
// chown that was a write: any while one of p's tar stages extracts (tar
// opens the files it extracts, and the directory -C names, to write
// them), and the archive's while one creates, appends or updates. The
// same message means a read of a member when tar creates and of the
// archive when it lists or extracts.
func tarWrite(p *plan.Call, s string) bool {
	m := tarMessage.FindStringSubmatch(s)
	if p == nil || m == nil || m[3] == "stat" {
		return false
	}
	for _, st := range p.Stages {
		if len(st.Argv) == 0 || filepath.Base(st.Argv[0]) != "tar" {
			continue
		}
		mode, archive := tarMode(st.Argv[1:])
		if mode == 'x' && m[2] != archive || strings.ContainsRune("cru", mode) && m[2] == archive {
			return true
		}
	}
	return false
}

// tarNamed is GNU tar's "tar: NAME: Cannot CALL" (call_arg_error) for
// any call, and quoted is the name coreutils (quotearg's 'X' or ‘X’ in
// a UTF-8 locale) and git ('X') quote in their messages.
var (
	tarNamed = lazyre.New(`^(\S*/)?tar(?: \(child\))?: (.+?): Cannot `)
	quoted   = lazyre.New(`['‘]([^'’]+)['’]`)
)

// namedFile is the file a message names without a path word: tar's
// NAME, else the last quoted word before the error, else "".
func namedFile(s string) string {
	if m := tarNamed.FindStringSubmatch(s); m != nil {
		return m[2]
	}
	head := deniedLine.Split(s, 2)[0]
	if ms := quoted.FindAllStringSubmatch(head, -1); ms != nil {
		return ms[len(ms)-1][1]
	}
	return ""
}

// tarArgOpts are GNU tar 1.34's short options that take an argument
// (src/tar.c's options table): the rest of a cluster after one, or the
// next word, is that argument.
const tarArgOpts = "bCfFgHIKLNTVX"

// tarModes are tar's operation letters: create, append, update, extract
// (and its long names below), list, diff.
const tarModes = "cruxtd"

// tarLong are the long names of the operations, by letter.
var tarLong = map[string]rune{"create": 'c', "append": 'r', "update": 'u', "extract": 'x', "get": 'x', "list": 't', "diff": 'd', "compare": 'd'}

// tarMode is the operation tar's args select ('c', 'x' ...; 0 when
// none) and the archive -f or --file names: in clusters ("-xzf A"), as
// the old-style first word ("xzf A", whose f takes the next word) or as
// long options (unambiguous prefixes of --extract are --extract).
func tarMode(args []string) (mode rune, archive string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return mode, archive
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			if name == "file" {
				if !hasVal && i+1 < len(args) {
					i++
					val = args[i]
				}
				archive = val
			}
			for long, m := range tarLong {
				if len(name) >= 3 && strings.HasPrefix(long, name) {
					mode = m
				}
			}
		case strings.HasPrefix(a, "-") || i == 0:
			cluster := strings.TrimPrefix(a, "-")
			for j, c := range cluster {
				if strings.ContainsRune(tarModes, c) {
					mode = c
				}
				if !strings.ContainsRune(tarArgOpts, c) {
					continue
				}
				val := cluster[j+1:]
				if val == "" || i == 0 && !strings.HasPrefix(a, "-") {
					// the old-style word's options take the next words
					if i+1 < len(args) {
						i++
						val = args[i]
					}
				}
				if c == 'f' {
					archive = val
				}
				break
			}
		}
	}
	return mode, archive
}

// nearestPath is the path named last before the message's error (the
// shell that prints "sh: 1: cannot create X: ..." names itself first),
// else the first of the line, else "".
func nearestPath(s string) string {
	loc := deniedLine.FindStringIndex(s)
	if ms := pathWord.FindAllStringSubmatch(s[:loc[0]], -1); ms != nil {
		return ms[len(ms)-1][1]
	}
	if m := pathWord.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

func containsDenial(ds []Denial, d Denial) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// Confined reports whether any stage of p ran under Landlock: only then
// can a denial be the sandbox's.
func Confined(p *plan.Call) bool {
	if p == nil {
		return false
	}
	for _, st := range p.Stages {
		if st.Confinement.Mode == ModeLandlock {
			return true
		}
	}
	return false
}

// Hint is the one line a failed call's result carries about ds: what was
// denied and the setting that widens each kind. "" for no denials.
// readDirs are the trees stages read (Rules.ReadDirs; nil for
// DefaultReadDirs): since
// MCP_SHELL_SANDBOX_READ_DIRS replaces them, a hint that widens reads
// gives its whole value, readDirs plus what was denied.
func Hint(ds []Denial, readDirs []string) string {
	if len(ds) == 0 {
		return ""
	}
	if readDirs == nil {
		readDirs = DefaultReadDirs
	}
	what := make([]string, len(ds))
	guess := false
	kinds := map[string]bool{}
	for i, d := range ds {
		what[i], guess = d.String(), guess || d.Guess
		kinds[d.Kind] = true
	}
	var widen []string
	if kinds[DeniedExec] {
		widen = append(widen, "MCP_SHELL_SANDBOX_EXEC lets a program run another")
	}
	if kinds[DeniedLibrary] {
		widen = append(widen, "a dynamically linked program reads its loader and shared libraries, which "+ReadDirsVar+
			" leaves out (it replaces the default list, so name them all): "+ReadDirsSetting(readDirs, readAdditions(ds, readDirs)...))
	} else if kinds[DeniedRead] || kinds[DeniedAccess] {
		widen = append(widen, ReadDirsVar+" widens reads and replaces the default list, so name them all: "+ReadDirsSetting(readDirs, readAdditions(ds, readDirs)...))
	}
	if kinds[DeniedWrite] || kinds[DeniedAccess] {
		widen = append(widen, "writes stay inside the allowed directories, the call's TMPDIR and the family's caches (a directory is allowed by naming it at start-up: a DIR argument or MCP_SHELL_ALLOWED_DIRECTORIES)")
	}
	if kinds[DeniedConnect] {
		widen = append(widen, "only the families whose job is the network connect out (MCP_SHELL_SANDBOX_NETWORK)")
	}
	if kinds[DeniedCredentials] {
		var fams []string
		for _, d := range ds {
			if d.Kind == DeniedCredentials {
				fams = append(fams, d.Target)
			}
		}
		widen = append(widen, "the family read its configuration without the tokens and passwords; MCP_SHELL_SANDBOX_CREDENTIALS="+
			strings.Join(fams, ",")+" grants the real files (its scripts and the code it installs can then read the tokens)")
	}
	if kinds[DeniedSigning] {
		widen = append(widen, "gpg signs only through a gpg-agent already running (it cannot start one), and it locks its keyring in ~/.gnupg, "+
			"which stays read-only (gpg cannot tell when the server is unprivileged): lock-never in ~/.gnupg/gpg.conf, or signing with ssh "+
			"(gpg.format=ssh through ssh-agent), signs confined; ~/.gnupg never becomes writable, since gpg.conf and gpg-agent.conf name programs that run outside the sandbox")
	}
	lead := "The sandbox denied "
	if guess {
		lead = "The sandbox may have denied (a guess from the program's error; the kernel reports no denials here) "
	}
	return fmt.Sprintf("%s%s: %s; MCP_SHELL_SANDBOX=off shows whether it is the cause.", lead, strings.Join(what, ", "), strings.Join(widen, "; "))
}

// unauthorized matches a registry's refusal as npm 9–11 ("npm error code
// E401", "401 Unauthorized"), pnpm and yarn ("ERR_PNPM_FETCH_401",
// "Request failed \"401 Unauthorized\"") and pip ("401 Client Error",
// "HTTP error 401") print it.
var unauthorized = lazyre.New(`\bE401\b|_401\b|\b401 (Unauthorized|Client Error)\b|\b(HTTP|status|error) 401\b`)

// CredentialDenials are the stages of p that read a copy of their
// configuration without its credentials (withheldConfig) and failed
// (failed(i): stage i ended other than with status 0) when stderr shows
// a registry's 401: the hint then names the setting that grants the
// real files. A pipeline's stages share one stderr, so the 401 says
// nothing about a stage that succeeded: any other stage may print it
// (npm --version | make, the recipe echoing "npm error code E401").
func CredentialDenials(p *plan.Call, failed func(stage int) bool, stderr []byte) []Denial {
	if p == nil || !unauthorized.Match(stderr) {
		return nil
	}
	var out []Denial
	for i, st := range p.Stages {
		if !failed(i) {
			continue
		}
		for _, cp := range []configCopy{configCopies[".npmrc"], pipCopy} {
			if v, ok := childenv.Lookup(st.Env, cp.env); ok && strings.Contains(v, "/"+copiesDir+"/") && st.Family != "" {
				if d := (Denial{Kind: DeniedCredentials, Target: st.Family, Guess: true}); !containsDenial(out, d) && len(out) < MaxDenials {
					out = append(out, d)
				}
			}
		}
	}
	return out
}
