package policy

import (
	"runtime"
	"slices"
	"strings"
)

// naming is how a platform spells a program name: what the refusal check
// undoes before it looks a name up. The facts are data, picked by GOOS,
// so the Windows rules are tested on every platform (namingFor).
type naming struct {
	// separators end a path element. Windows accepts "\" and "/".
	separators string
	// windows turns on Win32 path normalisation of the last element: a
	// drive prefix ("C:cmd.exe" is cmd.exe in drive C's current
	// directory) and an NTFS stream suffix ("cmd.exe::$DATA", opened as
	// the file itself) are dropped, as are trailing dots and spaces
	// (Microsoft Learn, "Naming Files, Paths, and Namespaces": "the file
	// system does not support" them, CreateFile strips them); and every
	// Windows-only refusal group applies in every spelling.
	windows bool
	// systemRoots name the variables holding the Windows directory, whose
	// own programs are refused (systemDir), and defaultRoot is used when
	// none is set.
	systemRoots []string
	defaultRoot string
}

// namings is the naming of each platform; a GOOS not listed names like
// Linux.
var namings = map[string]naming{
	"windows": {separators: `/\`, windows: true, systemRoots: []string{"SystemRoot", "windir"}, defaultRoot: `C:\Windows`},
}

// namingFor returns the naming rules of goos.
func namingFor(goos string) naming {
	if n, ok := namings[goos]; ok {
		return n
	}
	return naming{separators: "/"}
}

// hostNaming is the naming of the platform the server runs on.
var hostNaming = namingFor(runtime.GOOS)

// windowsExecExts are the extensions Windows adds when it looks a name up:
// the default PATHEXT (".COM;.EXE;.BAT;.CMD;.VBS;.VBE;.JS;.JSE;.WSF;.WSH;.MSC",
// Microsoft Learn "where", cmd "PATH") split into the images the loader
// runs itself (stripped before the lookup, so "CMD.EXE" is cmd) and the
// rest, which windowsScriptExts refuses outright.
var windowsExecExts = []string{".exe", ".com"}

// windowsScriptExts are files Windows runs through another program, not as
// an image: CreateProcess starts .bat and .cmd through cmd.exe (Microsoft
// Learn, CreateProcessW lpApplicationName; Go's os/exec does the same,
// CVE-2024-24576 "BatBadBut"), Windows Script Host runs .vbs .vbe .js .jse
// .wsf .wsh (wscript, cscript), mshta runs .hta, PowerShell .ps1 .psm1
// .psd1, mmc .msc, control/rundll32 .cpl, msiexec .msi .msp, and the
// shell's file associations .lnk .pif .url .scf .reg .inf .sct .jar .py
// .pyw .pl .rb. Any argv[0] naming such a file is refused on Windows,
// whatever program the association names.
var windowsScriptExts = []string{
	".bat", ".cmd", ".vbs", ".vbe", ".js", ".jse", ".wsf", ".wsh", ".hta", ".ps1", ".psm1", ".psd1",
	".msc", ".cpl", ".msi", ".msp", ".lnk", ".pif", ".url", ".scf", ".reg", ".inf", ".sct", ".jar",
	".py", ".pyw", ".pl", ".rb",
}

// base returns argv0's last path element, lower-case (Windows and macOS
// file systems are case-insensitive by default, so "Bash" runs bash),
// normalised the way the platform opens it.
func (n naming) base(argv0 string) string {
	b := argv0[strings.LastIndexAny(argv0, n.separators)+1:]
	if n.windows {
		if len(b) >= 2 && b[1] == ':' {
			b = b[2:]
		}
		b, _, _ = strings.Cut(b, ":")
		b = strings.TrimRight(b, ". ")
	}
	return strings.ToLower(b)
}

// scriptExt returns the extension of base when the platform runs such a
// file through an interpreter or host (Windows only), or "".
func (n naming) scriptExt(base string) string {
	if !n.windows {
		return ""
	}
	return extIn(base, windowsScriptExts)
}

// stripExec removes a Windows image extension from base. It applies on
// every platform: "cmd.exe" means cmd.exe wherever it is spelled, and
// elsewhere the candidates take the part before the first dot anyway.
func stripExec(base string) (string, bool) {
	if ext := extIn(base, windowsExecExts); ext != "" && len(base) > len(ext) {
		return strings.TrimSuffix(base, ext), true
	}
	return base, false
}

// portableScriptExts are the script extensions of windowsScriptExts that
// Unix systems use for their own scripts too (update.py, control.rb):
// off Windows such a name is not the Windows program of its stem.
var portableScriptExts = []string{".js", ".jar", ".py", ".pl", ".rb"}

// windowsStem removes a Windows image or script extension from base and
// says whether there was one: the Windows names are looked up without it
// on every platform, except a portable script extension off Windows.
func (n naming) windowsStem(base string) (string, bool) {
	if stem, ok := stripExec(base); ok {
		return stem, true
	}
	ext := extIn(base, windowsScriptExts)
	if ext == "" || len(base) == len(ext) || !n.windows && slices.Contains(portableScriptExts, ext) {
		return base, false
	}
	return strings.TrimSuffix(base, ext), true
}

// extIn returns base's extension when it is one of exts.
func extIn(base string, exts []string) string {
	i := strings.LastIndexByte(base, '.')
	if i < 0 || !slices.Contains(exts, base[i:]) {
		return ""
	}
	return base[i:]
}

// systemDir returns the Windows directory that file lies in, or "" (always
// "" off Windows). Its programs share names with the GNU tools the
// recognizers know but not their grammars: System32's sort.exe writes a
// file with /O, find.exe and more.com read any file, xcopy and robocopy
// copy trees (Microsoft Learn, Windows Commands reference). The
// comparison folds case, as NTFS does by default.
func (n naming) systemDir(file string, getenv func(string) string) string {
	if !n.windows || file == "" {
		return ""
	}
	roots := []string{n.defaultRoot}
	for _, v := range n.systemRoots {
		if r := getenv(v); r != "" {
			roots = append(roots, r)
		}
	}
	f := stripVerbatim(strings.ReplaceAll(file, "/", `\`))
	for _, root := range roots {
		r := strings.TrimRight(stripVerbatim(strings.ReplaceAll(root, "/", `\`)), `\`)
		if len(f) > len(r) && strings.EqualFold(f[:len(r)], r) && f[len(r)] == '\\' {
			return root
		}
	}
	return ""
}

// verbatimPrefixes are the Win32 namespace prefixes a drive path may carry
// (Microsoft Learn, "Naming Files, Paths, and Namespaces": \\?\ and \\.\
// name the same file as the path after them); filepath.EvalSymlinks keeps
// them, so a PATH entry spelled \\?\C:\Windows\System32 must still be
// the Windows directory.
var verbatimPrefixes = []string{`\\?\`, `\\.\`, `\??\`}

// stripVerbatim removes a verbatim or device namespace prefix from a drive
// path (\\?\C:\x is C:\x); a UNC path (\\?\UNC\host\share) is left as it is.
func stripVerbatim(p string) string {
	for _, pre := range verbatimPrefixes {
		if rest, ok := strings.CutPrefix(p, pre); ok && len(rest) >= 2 && rest[1] == ':' {
			return rest
		}
	}
	return p
}
