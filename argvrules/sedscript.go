package argvrules

import "fmt"

// What a sed script does, as the recognizer needs to know it: the
// commands that run a program, write a file or read one, each with the
// chunk of script text it was found in (an -e value, the script operand or
// a -f file) and its byte offset there, or the first place where the
// implementation's compiler stops with an error. Both models (sedgnu.go,
// sedbusybox.go) follow their compiler's reading byte for byte: where a
// command ends decides what the next bytes are, so a model that merely
// looks for "e" or "w" would be fooled by text, regexes and file names.

// sedEffectKind is what a command does besides editing the stream.
type sedEffectKind uint8

const (
	// sedEffExec runs a shell command (GNU e, the e flag of s).
	sedEffExec sedEffectKind = iota + 1
	// sedEffWrite opens a file for writing when the script is compiled (w,
	// W, the w flag of s): it is created or truncated even if the command
	// never runs.
	sedEffWrite
	// sedEffRead reads a file (r, R).
	sedEffRead
)

// sedEffect is one command with an effect.
type sedEffect struct {
	kind  sedEffectKind
	cmd   string // as the message names it: "e command", "w flag of s" ...
	chunk int    // index into the chunks the script was compiled from
	off   int    // byte offset of the command (or flag) letter in its chunk
	file  string // the file name, for sedEffWrite and sedRead
}

// sedChunk is one piece of script text in the order the implementation
// compiles it.
type sedChunk struct {
	text  string
	index int    // argv index of the -e value, the script operand, or the -f option
	arg   string // argv[index]
	file  string // the -f file name; "" for argv text
}

// sedSyntax is the first compile error of a script.
type sedSyntax struct {
	chunk int
	off   int
	msg   string
}

// sedScript is what a model made of a script: its effects in the order
// the compiler meets them, and the error that stopped it (nil when the
// script compiles).
type sedScript struct {
	effects []sedEffect
	err     *sedSyntax
}

// where says where in argv a chunk's offset lies, for messages.
func (c sedChunk) where(off int) string {
	if c.file != "" {
		return fmt.Sprintf("argument %d %q reads the script file %q, at byte offset %d of it", c.index, c.arg, c.file, off)
	}
	return fmt.Sprintf("argument %d %q (sed script), at byte offset %d", c.index, c.arg, off)
}

// isBlank is C's isblank in the C locale (GNU sed ISBLANK).
func isBlank(c int) bool { return c == ' ' || c == '\t' }

// isCSpace is C's isspace in the C locale: what GNU sed's ISSPACE and
// BusyBox's skip_whitespace skip.
func isCSpace(c int) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
