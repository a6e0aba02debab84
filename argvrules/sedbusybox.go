package argvrules

import "strings"

// The BusyBox sed model: editors/sed.c (1.35–1.37) add_cmd_block, add_cmd,
// get_address, parse_cmd_args, parse_subst_cmd, parse_regex_delim,
// index_of_next_unescaped_regexp_delim and parse_file_cmd. BusyBox reads
// its script line by line: every -e value split at newlines, then every
// -f file's lines, then the script operand; a line that ends in an odd
// number of backslashes loses one and is joined to the next line with a
// newline, across -e values and files too. a, i and c take the rest of
// the joined line, r and w the rest of the physical line. There is no e
// command and no e flag of s (both are errors), no W and no R.

// bbSed compiles BusyBox sed script lines.
type bbSed struct {
	out sedScript
	// joined holds the line being continued (add_cmd_line) and the chunk
	// and offset of each of its bytes, for messages.
	joined  *bbLine
	stopped bool
}

// bbLine is one joined line: its text and, for each byte, where it came
// from.
type bbLine struct {
	text  []byte
	chunk []int
	off   []int
}

func (l *bbLine) add(text string, chunk, off int) {
	for i := 0; i < len(text); i++ {
		l.text = append(l.text, text[i])
		l.chunk = append(l.chunk, chunk)
		l.off = append(l.off, off+i)
	}
}

// block is add_cmd_block: the text split at newlines, each line added.
func (b *bbSed) block(chunk int, text string) {
	off := 0
	for {
		line, rest, more := strings.Cut(text, "\n")
		b.line(chunk, off, line)
		if !more {
			return
		}
		off += len(line) + 1
		text = rest
	}
}

// file adds a -f file's lines (xmalloc_fgetline: without the newline, and
// as a C string, so up to a NUL byte).
func (b *bbSed) file(chunk int, text string) {
	off := 0
	for text != "" {
		line, rest, _ := strings.Cut(text, "\n")
		c := line
		if i := strings.IndexByte(c, 0); i >= 0 {
			c = c[:i]
		}
		b.line(chunk, off, c)
		off += len(line) + 1
		text = rest
	}
}

// line is add_cmd.
func (b *bbSed) line(chunk, off int, text string) {
	if b.stopped {
		return
	}
	l := b.joined
	if l == nil {
		l = &bbLine{}
	} else if n := len(l.text); n > 0 {
		l.add("\n", l.chunk[n-1], l.off[n-1]+1) // where the removed backslash was
	} else {
		l.add("\n", chunk, off)
	}
	l.add(text, chunk, off)
	n := len(l.text)
	for n > 0 && l.text[n-1] == '\\' {
		n--
	}
	if (len(l.text)-n)%2 == 1 {
		l.text, l.chunk, l.off = l.text[:len(l.text)-1], l.chunk[:len(l.chunk)-1], l.off[:len(l.off)-1]
		b.joined = l
		return
	}
	b.joined = nil
	p := &bbParse{b: b, l: l}
	if err := p.commands(); err != nil {
		b.stopped = true
	}
}

// finish flushes an unfinished joined line: sed_main's add_cmd(""),
// which joins an empty line to it (so a w name cut there gets its
// backslash back).
func (b *bbSed) finish() sedScript {
	if l := b.joined; l != nil {
		c, o := 0, 0
		if n := len(l.chunk); n > 0 {
			c, o = l.chunk[n-1], l.off[n-1]+1
		}
		b.line(c, o, "")
	}
	return b.out
}

// bbParse parses one joined line.
type bbParse struct {
	b   *bbSed
	l   *bbLine
	pos int
}

// at returns the byte at i, NUL past the end (the C string's terminator).
func (p *bbParse) at(i int) byte {
	if i < len(p.l.text) {
		return p.l.text[i]
	}
	return 0
}

func (p *bbParse) where(i int) (chunk, off int) {
	if len(p.l.text) == 0 {
		return 0, 0
	}
	if i >= len(p.l.text) {
		i = len(p.l.text) - 1
	}
	return p.l.chunk[i], p.l.off[i]
}

func (p *bbParse) fail(i int, msg string) error {
	if p.b.out.err == nil {
		c, o := p.where(i)
		p.b.out.err = &sedSyntax{chunk: c, off: o, msg: msg}
	}
	return errSedStop
}

func (p *bbParse) effect(kind sedEffectKind, cmd string, i int, file string) {
	c, o := p.where(i)
	p.b.out.effects = append(p.b.out.effects, sedEffect{kind: kind, cmd: cmd, chunk: c, off: o, file: file})
}

// bbSeparators are semicolon_whitespace.
const bbSeparators = "; \n\r\t\v"

func (p *bbParse) skipSpace() {
	for isCSpace(int(p.at(p.pos))) && p.pos < len(p.l.text) {
		p.pos++
	}
}

// commands is add_cmd's loop over the commands of one line.
func (p *bbParse) commands() error {
	for p.pos < len(p.l.text) {
		for p.pos < len(p.l.text) && strings.IndexByte(bbSeparators, p.at(p.pos)) >= 0 {
			p.pos++
		}
		if p.pos >= len(p.l.text) {
			return nil
		}
		if p.at(p.pos) == '#' {
			j := p.pos
			for j < len(p.l.text) && p.at(j) != '\n' && p.at(j) != '\r' {
				j++
			}
			if j >= len(p.l.text) {
				return nil
			}
			p.pos = j
			continue
		}
		if err := p.command(); err != nil {
			return err
		}
	}
	return nil
}

// command parses one [addr[,addr]][!]cmd.
func (p *bbParse) command() error {
	n1, err := p.address()
	if err != nil {
		return err
	}
	twoAddr := false
	if p.at(p.pos) == ',' {
		p.pos++
		if p.at(p.pos) == '+' && isDigit(p.at(p.pos+1)) {
			p.pos++
			for isDigit(p.at(p.pos)) {
				p.pos++
			}
		} else {
			n2, err := p.address()
			if err != nil {
				return err
			}
			if n2 == 0 {
				return p.fail(p.pos, "no address after comma")
			}
		}
		twoAddr = true
	}
	_ = n1
	p.skipSpace()
	if p.at(p.pos) == '!' {
		p.pos++
		p.skipSpace()
	}
	if p.pos >= len(p.l.text) {
		return p.fail(p.pos, "missing command")
	}
	at := p.pos
	cmd := p.at(p.pos)
	p.pos++
	return p.args(cmd, at, twoAddr)
}

// address is get_address; it returns how many bytes it read.
func (p *bbParse) address() (int, error) {
	start := p.pos
	switch c := p.at(p.pos); {
	case isDigit(c):
		for isDigit(p.at(p.pos)) {
			p.pos++
		}
	case c == '$':
		p.pos++
	case c == '/' || c == '\\':
		delim := byte('/')
		if c == '\\' {
			p.pos++
			delim = p.at(p.pos)
			if err := p.delimiter(delim); err != nil {
				return 0, err
			}
		}
		p.pos++
		end, err := p.delimited(delim, true)
		if err != nil {
			return 0, err
		}
		p.pos = end + 1
	}
	return p.pos - start, nil
}

// delimiter refuses delimiters the model does not follow: NUL (BusyBox
// reads past the end of the string) and bytes outside ASCII (a signed
// char there turns into another delimiter).
func (p *bbParse) delimiter(d byte) error {
	if d == 0 || d >= 0x80 {
		return p.fail(p.pos, "a delimiter outside printable ASCII, which BusyBox sed reads inconsistently")
	}
	return nil
}

// delimited is index_of_next_unescaped_regexp_delim from p.pos: it
// returns the index of the delimiter; brackets are skipped when brackets
// is set (the regex) and not in the replacement.
func (p *bbParse) delimited(delim byte, brackets bool) (int, error) {
	bracket, escaped := -1, false
	if !brackets {
		bracket = -2
	}
	for i := p.pos; i < len(p.l.text); i++ {
		ch := p.at(i)
		switch {
		case bracket >= 0:
			if ch == ']' && !(bracket == i-1 || (bracket == i-2 && p.at(i-1) == '^')) {
				bracket = -1
			}
		case escaped:
			escaped = false
		case ch == '\\':
			escaped = true
		case bracket == -1 && ch == '[':
			bracket = i
		case ch == delim:
			return i, nil
		}
	}
	return 0, p.fail(len(p.l.text), "unmatched '"+string(delim)+"'")
}

// regexDelim is parse_regex_delim from p.pos (at the delimiter): it
// leaves p.pos at the third delimiter.
func (p *bbParse) regexDelim() error {
	d := p.at(p.pos)
	if p.pos >= len(p.l.text) {
		return p.fail(p.pos, "bad format in substitution expression")
	}
	if err := p.delimiter(d); err != nil {
		return err
	}
	p.pos++
	end, err := p.delimited(d, true)
	if err != nil {
		return err
	}
	p.pos = end + 1
	end, err = p.delimited(d, false)
	if err != nil {
		return err
	}
	p.pos = end
	return nil
}

// fileArg is parse_file_cmd from p.pos: whitespace (newlines included)
// skipped, then the name to the end of the physical line; a name cut by a
// joined newline gets the backslash back. It leaves p.pos at the newline
// or the end.
func (p *bbParse) fileArg() (string, error) {
	p.skipSpace()
	start := p.pos
	eol := start
	for eol < len(p.l.text) && p.at(eol) != '\n' {
		eol++
	}
	if eol == start {
		return "", p.fail(start, "empty filename")
	}
	name := string(p.l.text[start:eol])
	if eol < len(p.l.text) {
		name += "\\"
	}
	p.pos = eol
	return name, nil
}

// args is parse_cmd_args for the command letter cmd at offset at.
func (p *bbParse) args(cmd byte, at int, twoAddr bool) error {
	switch cmd {
	case 's':
		return p.subst(at)
	case 'a', 'i', 'c':
		if cmd != 'c' && twoAddr {
			return p.fail(at, "command '"+string(cmd)+"' uses only one address")
		}
		for p.pos < len(p.l.text) {
			if c := p.at(p.pos); c == '\n' || c == '\\' {
				p.pos++
				break
			} else if !isCSpace(int(c)) {
				break
			}
			p.pos++
		}
		p.pos = len(p.l.text)
		return nil
	case 'r', 'w':
		if cmd == 'r' && twoAddr {
			return p.fail(at, "command 'r' uses only one address")
		}
		name, err := p.fileArg()
		if err != nil {
			return err
		}
		if cmd == 'w' {
			p.effect(sedEffWrite, "w command", at, name)
		} else {
			p.effect(sedEffRead, "r command", at, name)
		}
		return nil
	case ':', 'b', 't', 'T':
		p.skipSpace()
		for p.pos < len(p.l.text) && strings.IndexByte(bbSeparators, p.at(p.pos)) < 0 {
			p.pos++
		}
		return nil
	case 'y':
		if err := p.regexDelim(); err != nil {
			return err
		}
		p.pos++ // y takes no flags: the next command may follow at once
		return nil
	case 'd', 'D', 'g', 'G', 'h', 'H', 'l', 'n', 'N', 'p', 'P', 'q', 'x', '=', '{', '}':
		return nil
	}
	return p.fail(at, "unsupported command "+string(cmd))
}

// subst is parse_subst_cmd: the flags after the third delimiter run to
// ";", "}", a "#" comment (which takes the rest of the joined line) or the
// end; w takes the rest of the physical line.
func (p *bbParse) subst(at int) error {
	if err := p.regexDelim(); err != nil {
		return err
	}
	for {
		p.pos++
		if p.pos >= len(p.l.text) {
			return nil
		}
		c := p.at(p.pos)
		switch {
		case isDigit(c):
			for isDigit(p.at(p.pos + 1)) {
				p.pos++
			}
		case isCSpace(int(c)), c == 'g', c == 'p', c == 'i', c == 'I':
		case c == 'w':
			flag := p.pos
			p.pos++
			name, err := p.fileArg()
			if err != nil {
				return err
			}
			p.effect(sedEffWrite, "w flag of s", flag, name)
			p.pos--
		case c == '#':
			p.pos = len(p.l.text)
			return nil
		case c == ';' || c == '}':
			return nil
		default:
			return p.fail(p.pos, "bad option in substitution expression")
		}
	}
}
