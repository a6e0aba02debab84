package argvrules

// The GNU sed 4.9 model: sed/compile.c compile_program and its helpers
// (match_slash, snarf_char_class, read_text, read_filename, read_label,
// mark_subst_opts, compile_address, read_end_of_cmd), byte for byte in
// the C and UTF-8 locales, where no ASCII byte is ever part of a
// multibyte character (mbcs.c is_mb_char): the checker refuses non-ASCII
// delimiters and non-ASCII script text under other multibyte locales.
// Regex and replacement contents are not validated: a script GNU sed
// refuses to compile runs nothing, and the files its w commands opened
// before the error are checked all the same.

// sedPosix is GNU sed's posixicity (sed.h posixicity_types).
type sedPosix uint8

const (
	// posixExtended: GNU extensions on (the default).
	posixExtended sedPosix = iota
	// posixCorrect: POSIXLY_CORRECT in the environment; extensions stay,
	// but /dev/stdout and friends are ordinary files.
	posixCorrect
	// posixBasic: --posix; extensions are errors.
	posixBasic
)

// gnuSedVersion is the version the v command compares against.
const gnuSedVersion = "4.9"

// gnuSedEOF is inchar's EOF.
const gnuSedEOF = -1

// gnuSed compiles chunks one after another, keeping what compile.c keeps
// in statics between them: the pending a/i/c text ("sed -e 'a\' -e
// text"), the open blocks, the labels and jumps, and the posixicity
// (which options between chunks and the v command change).
type gnuSed struct {
	posix   sedPosix
	sandbox bool // --sandbox: e, r and w are errors
	pending bool // a/i/c text continues into the next chunk
	blocks  int
	labels  map[string]bool
	jumps   []string

	out sedScript
	// the chunk being compiled
	src   string
	pos   int
	chunk int
}

func newGnuSed(posix sedPosix) *gnuSed {
	return &gnuSed{posix: posix, labels: map[string]bool{}}
}

// fail records the first error at the current position.
func (g *gnuSed) fail(msg string) error {
	if g.out.err == nil {
		g.out.err = &sedSyntax{chunk: g.chunk, off: g.pos, msg: msg}
	}
	return errSedStop
}

var errSedStop = &sedStopError{}

type sedStopError struct{}

func (*sedStopError) Error() string { return "sed: compilation stopped" }

func (g *gnuSed) inchar() int {
	if g.pos < len(g.src) {
		c := g.src[g.pos]
		g.pos++
		return int(c)
	}
	return gnuSedEOF
}

func (g *gnuSed) savchar(ch int) {
	if ch != gnuSedEOF && g.pos > 0 {
		g.pos--
	}
}

func (g *gnuSed) inNonblank() int {
	ch := g.inchar()
	for isBlank(ch) {
		ch = g.inchar()
	}
	return ch
}

func (g *gnuSed) effect(kind sedEffectKind, cmd string, off int, file string) {
	g.out.effects = append(g.out.effects, sedEffect{kind: kind, cmd: cmd, chunk: g.chunk, off: off, file: file})
}

// compile compiles one chunk (compile_string or compile_file).
func (g *gnuSed) compile(chunk int, src string) {
	if g.out.err != nil {
		return
	}
	g.src, g.pos, g.chunk = src, 0, chunk
	_ = g.program()
}

// finish applies check_final_program: unmatched "{" and jumps to labels
// that do not exist are errors (after every w file has been opened).
func (g *gnuSed) finish() sedScript {
	if g.out.err == nil {
		switch {
		case g.blocks > 0:
			g.out.err = &sedSyntax{chunk: g.chunk, off: g.pos, msg: "unmatched `{'"}
		default:
			for _, j := range g.jumps {
				if j != "" && !g.labels[j] {
					g.out.err = &sedSyntax{chunk: g.chunk, off: g.pos, msg: "can't find label for jump to `" + j + "'"}
					break
				}
			}
		}
	}
	return g.out
}

// program is compile_program.
func (g *gnuSed) program() error {
	if g.pending {
		if err := g.readText('\n'); err != nil {
			return err
		}
	}
	for {
		ch := g.inchar()
		for ch == ';' || isCSpace(ch) {
			ch = g.inchar()
		}
		if ch == gnuSedEOF {
			break
		}
		if err := g.command(ch); err != nil {
			return err
		}
	}
	if g.posix == posixBasic && g.pending {
		return g.fail("incomplete command")
	}
	return nil
}

// gnuAddr is what compile_address read.
type gnuAddr struct {
	ok, num0, regex, step bool
}

// command compiles one command starting with ch: its addresses, "!" and
// the command letter with its arguments.
func (g *gnuSed) command(ch int) error {
	a1, err := g.address(ch)
	if err != nil {
		return err
	}
	var a2 gnuAddr
	if a1.ok {
		if a1.step {
			return g.fail("invalid usage of +N or ~N as first address")
		}
		ch = g.inNonblank()
		if ch == ',' {
			if a2, err = g.address(g.inNonblank()); err != nil {
				return err
			}
			if !a2.ok {
				return g.fail("unexpected `,'")
			}
			ch = g.inNonblank()
		}
		if a1.num0 && ((!a2.ok && ch != 'r') || (a2.ok && !a2.regex) || g.posix == posixBasic) {
			return g.fail("invalid usage of line address 0")
		}
	}
	if ch == '!' {
		if ch = g.inNonblank(); ch == '!' {
			return g.fail("multiple `!'s")
		}
	}
	if g.posix == posixBasic {
		switch ch {
		case 'e', 'F', 'v', 'z', 'L', 'Q', 'T', 'R', 'W':
			return g.fail("unknown command: `" + string(rune(ch)) + "'")
		case 'a', 'i', 'l', '=', 'r':
			if a2.ok {
				return g.fail("command only uses one address")
			}
		}
	}
	return g.letter(ch, a1.ok, a2.ok)
}

// letter compiles the command letter ch and its arguments.
func (g *gnuSed) letter(ch int, hasA1, hasA2 bool) error {
	at := g.pos - 1
	switch ch {
	case '#':
		if hasA1 {
			return g.fail("comments don't accept any addresses")
		}
		for ch = g.inchar(); ch != gnuSedEOF && ch != '\n'; ch = g.inchar() {
		}
		return nil
	case 'v':
		v := g.readLabel()
		if v == "" {
			v = "4.0"
		}
		if !gnuVersionOK(v) {
			return g.fail("expected newer version of sed")
		}
		g.posix = posixExtended
		return nil
	case '{':
		g.blocks++
		return nil
	case '}':
		if g.blocks == 0 {
			return g.fail("unexpected `}'")
		}
		if hasA1 {
			return g.fail("`}' doesn't want any addresses")
		}
		g.blocks--
		return g.endOfCmd()
	case 'e':
		if g.sandbox {
			return g.fail("e/r/w commands disabled in sandbox mode")
		}
		g.effect(sedEffExec, "e command", at, "")
		ch = g.inNonblank()
		if ch == gnuSedEOF || ch == '\n' {
			return nil
		}
		return g.textArg(ch)
	case 'a', 'i', 'c':
		return g.textArg(g.inNonblank())
	case ':':
		if hasA1 {
			return g.fail(": doesn't want any addresses")
		}
		l := g.readLabel()
		if l == "" {
			return g.fail("\":\" lacks a label")
		}
		g.labels[l] = true
		return nil
	case 'T', 'b', 't':
		g.jumps = append(g.jumps, g.readLabel())
		return nil
	case 'Q', 'q', 'L', 'l':
		if (ch == 'Q' || ch == 'q') && hasA2 {
			return g.fail("command only uses one address")
		}
		ch = g.inNonblank()
		if isDigit(byte(ch)) && ch >= 0 && g.posix != posixBasic {
			for isDigit(byte(ch)) && ch >= 0 {
				ch = g.inchar()
			}
		}
		g.savchar(ch)
		return g.endOfCmd()
	case '=', 'd', 'D', 'F', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'z', 'x':
		return g.endOfCmd()
	case 'r':
		name, err := g.readFilename()
		if err != nil {
			return err
		}
		if name == "" {
			return g.fail("missing filename in r/R/w/W commands")
		}
		g.effect(sedEffRead, "r command", at, name)
		return nil
	case 'R', 'W', 'w':
		name, err := g.openFile()
		if err != nil {
			return err
		}
		kind := sedEffWrite
		if ch == 'R' {
			kind = sedEffRead
		}
		g.effect(kind, string(rune(ch))+" command", at, name)
		return nil
	case 's':
		return g.subst(at)
	case 'y':
		return g.translit()
	case gnuSedEOF:
		return g.fail("missing command")
	}
	return g.fail("unknown command: `" + string(rune(ch)) + "'")
}

// gnuVersionOK reports whether the v command's version is at most the
// modelled one, compared as GNU sed compares it (strverscmp).
func gnuVersionOK(v string) bool { return strverscmp(v, gnuSedVersion) <= 0 }

// strverscmp is glibc's string/strverscmp.c: strings compared byte by
// byte, runs of digits by value, a run with leading zeros as a fraction.
func strverscmp(s1, s2 string) int {
	const (
		sN, sI, sF, sZ = 0, 3, 6, 9
		cmp, length    = 2, 3
	)
	next := [...]int{sN, sI, sZ, sN, sI, sI, sN, sF, sF, sN, sF, sZ}
	result := [...]int{
		cmp, cmp, cmp, cmp, length, cmp, cmp, cmp, cmp,
		cmp, -1, -1, +1, length, length, +1, length, length,
		cmp, cmp, cmp, cmp, cmp, cmp, cmp, cmp, cmp,
		cmp, +1, +1, -1, cmp, cmp, -1, cmp, cmp,
	}
	at := func(s string, i int) int {
		if i < len(s) {
			return int(s[i])
		}
		return 0
	}
	class := func(c int) int {
		n := 0
		if c == '0' {
			n++
		}
		if c >= '0' && c <= '9' {
			n++
		}
		return n
	}
	i := 0
	c1, c2 := at(s1, 0), at(s2, 0)
	state := sN + class(c1)
	for c1 == c2 {
		if c1 == 0 {
			return 0
		}
		state = next[state]
		i++
		c1, c2 = at(s1, i), at(s2, i)
		state += class(c1)
	}
	diff := c1 - c2
	switch r := result[state*3+class(c2)]; r {
	case cmp:
		return diff
	case length:
		for j := i + 1; ; j++ {
			if !isDigit(byte(at(s1, j))) || at(s1, j) == 0 {
				if isDigit(byte(at(s2, j))) && at(s2, j) != 0 {
					return -1
				}
				return diff
			}
			if !isDigit(byte(at(s2, j))) || at(s2, j) == 0 {
				return 1
			}
		}
	default:
		return r
	}
}

// textArg is read_text_to_slash: the text of a, i, c (and e's command)
// after the command letter, ch being the first non-blank byte.
func (g *gnuSed) textArg(ch int) error {
	if ch == gnuSedEOF {
		return g.fail("expected \\ after `a', `c' or `i'")
	}
	if ch == '\\' {
		ch = g.inchar()
	} else {
		if g.posix == posixBasic {
			return g.fail("expected \\ after `a', `c' or `i'")
		}
		g.savchar(ch)
		ch = '\n'
	}
	return g.readText(ch)
}

// readText is read_text: the text runs to an unescaped newline; a
// backslash at the end of the chunk leaves it pending, to be continued by
// the next chunk.
func (g *gnuSed) readText(leadin int) error {
	g.pending = true
	if leadin == gnuSedEOF {
		return nil
	}
	ch := g.inchar()
	for ch != gnuSedEOF && ch != '\n' {
		if ch == '\\' {
			ch = g.inchar()
		}
		if ch == gnuSedEOF {
			return nil
		}
		ch = g.inchar()
	}
	g.pending = false
	return nil
}

// readLabel is read_label: blanks skipped, then up to a newline, blank,
// ";", "}" or "#", which is put back.
func (g *gnuSed) readLabel() string {
	start := -1
	ch := g.inNonblank()
	if ch != gnuSedEOF {
		start = g.pos - 1
	}
	for ch != gnuSedEOF && ch != '\n' && !isBlank(ch) && ch != ';' && ch != '}' && ch != '#' {
		ch = g.inchar()
	}
	g.savchar(ch)
	if start < 0 {
		return ""
	}
	return g.src[start:g.pos]
}

// readFilename is read_filename: blanks skipped, then every byte to the
// end of the line (";", "}" and trailing blanks included).
func (g *gnuSed) readFilename() (string, error) {
	if g.sandbox {
		return "", g.fail("e/r/w commands disabled in sandbox mode")
	}
	ch := g.inNonblank()
	start := g.pos - 1
	if ch == gnuSedEOF {
		return "", nil
	}
	for ch != gnuSedEOF && ch != '\n' {
		ch = g.inchar()
	}
	end := g.pos
	if ch == '\n' {
		end--
	}
	return g.src[start:end], nil
}

// openFile is get_openfile: a file name that may not be empty.
func (g *gnuSed) openFile() (string, error) {
	name, err := g.readFilename()
	if err != nil {
		return "", err
	}
	if name == "" {
		return "", g.fail("missing filename in r/R/w/W commands")
	}
	return name, nil
}

// endOfCmd is read_end_of_cmd.
func (g *gnuSed) endOfCmd() error {
	ch := g.inNonblank()
	switch ch {
	case '}', '#':
		g.savchar(ch)
	case gnuSedEOF, '\n', ';':
	default:
		return g.fail("extra characters after command")
	}
	return nil
}

// address is compile_address; ok is false (nothing read) when ch does not
// start an address.
func (g *gnuSed) address(ch int) (gnuAddr, error) {
	switch {
	case ch == '/' || ch == '\\':
		if ch == '\\' {
			ch = g.inchar()
		}
		if err := g.delimiter(ch); err != nil {
			return gnuAddr{}, err
		}
		if !g.matchSlash(ch, true) {
			return gnuAddr{}, g.fail("unterminated address regex")
		}
		for {
			ch = g.inNonblank()
			if g.posix != posixBasic && (ch == 'I' || ch == 'M') {
				continue
			}
			g.savchar(ch)
			return gnuAddr{ok: true, regex: true}, nil
		}
	case ch >= 0 && isDigit(byte(ch)):
		n := g.integer(ch)
		if ch = g.inNonblank(); ch != '~' || g.posix == posixBasic {
			g.savchar(ch)
		} else if g.integer(g.inNonblank()) > 0 {
			return gnuAddr{ok: true}, nil // first~step: ADDR_IS_NUM_MOD, never line 0
		}
		return gnuAddr{ok: true, num0: n == 0}, nil
	case (ch == '+' || ch == '~') && g.posix != posixBasic:
		step := g.integer(g.inNonblank())
		return gnuAddr{ok: true, step: step != 0}, nil
	case ch == '$':
		return gnuAddr{ok: true}, nil
	}
	return gnuAddr{}, nil
}

// integer is in_integer: the digits from ch on; the byte after them is put
// back. A number too large to matter saturates.
func (g *gnuSed) integer(ch int) uint64 {
	var n uint64
	for ch >= 0 && isDigit(byte(ch)) {
		if n < 1<<60 {
			n = n*10 + uint64(ch-'0')
		}
		ch = g.inchar()
	}
	g.savchar(ch)
	return n
}

// delimiter refuses a delimiter the model cannot follow in every locale:
// a multibyte lead byte is an error in UTF-8 and a delimiter in C, and
// NUL is one or the other as well.
func (g *gnuSed) delimiter(ch int) error {
	if ch == 0 || ch >= 0x80 {
		return g.fail("a delimiter outside printable ASCII, which sed reads differently in each locale")
	}
	return nil
}

// matchSlash is match_slash: it consumes up to and including the
// unescaped delimiter and reports whether one was found before the end of
// the line. In regex mode a "[" starts a bracket expression, inside which
// the delimiter is an ordinary byte.
func (g *gnuSed) matchSlash(slash int, regex bool) bool {
	for {
		ch := g.inchar()
		if ch == gnuSedEOF || ch == '\n' {
			g.savchar(ch)
			return false
		}
		switch {
		case ch == slash:
			return true
		case ch == '\\':
			if g.inchar() == gnuSedEOF {
				return false
			}
		case ch == '[' && regex:
			if end := g.charClass(); end != ']' {
				g.savchar(end) // a newline ended it: put back, as match_slash does
				return false
			}
		}
	}
}

// charClass is snarf_char_class after the "[": it returns the byte that
// ended the bracket expression (']' when it closed, '\n' or EOF when the
// line ended first).
func (g *gnuSed) charClass() int {
	ch := g.inchar()
	if ch == '^' {
		ch = g.inchar()
	}
	if ch == ']' {
		ch = g.inchar()
	}
	state, delim := 0, 0
	for ; ; ch = g.inchar() {
		switch ch {
		case gnuSedEOF, '\n':
			return ch
		case '.', ':', '=':
			if state == 1 {
				delim, state = ch, 2
				continue
			}
			if state == 2 && ch == delim {
				state = 3
				continue
			}
		case '[':
			if state == 0 {
				state = 1
			}
			continue
		case ']':
			if state == 0 || state == 1 {
				return ch
			}
			if state == 3 {
				state = 0
			}
		}
		state &^= 1
	}
}

// subst compiles the s command whose letter is at offset at: the regex,
// the replacement and the flags (mark_subst_opts).
func (g *gnuSed) subst(at int) error {
	slash := g.inchar()
	if err := g.delimiter(slash); err != nil {
		return err
	}
	if slash == gnuSedEOF || !g.matchSlash(slash, true) || !g.matchSlash(slash, false) {
		return g.fail("unterminated `s' command")
	}
	seen := map[int]bool{}
	eval := false
	done := func() error {
		if eval && g.sandbox {
			return g.fail("e/r/w commands disabled in sandbox mode")
		}
		return nil
	}
	for {
		ch := g.inNonblank()
		flag := g.pos - 1
		switch ch {
		case 'i', 'I', 'm', 'M':
			if g.posix == posixBasic {
				return g.fail("unknown option to `s'")
			}
		case 'e':
			if g.posix == posixBasic {
				return g.fail("unknown option to `s'")
			}
			g.effect(sedEffExec, "e flag of s", flag, "")
			eval = true
		case 'p', 'g':
			if seen[ch] {
				return g.fail("multiple `" + string(rune(ch)) + "' options to `s' command")
			}
			seen[ch] = true
		case 'w':
			name, err := g.openFile()
			if err != nil {
				return err
			}
			g.effect(sedEffWrite, "w flag of s", flag, name)
			return done()
		case '}', '#':
			g.savchar(ch)
			return done()
		case gnuSedEOF, '\n', ';':
			return done()
		case '\r':
			if g.inchar() == '\n' {
				return done()
			}
			return g.fail("unknown option to `s'")
		default:
			if ch >= 0 && isDigit(byte(ch)) {
				if seen['0'] {
					return g.fail("multiple number options to `s' command")
				}
				seen['0'] = true
				if g.integer(ch) == 0 {
					return g.fail("number option to `s' command may not be zero")
				}
				continue
			}
			return g.fail("unknown option to `s'")
		}
	}
}

// translit compiles the y command: two strings of equal length (counted
// after escapes, for ASCII strings; others are not counted), then the end
// of the command.
func (g *gnuSed) translit() error {
	slash := g.inchar()
	if err := g.delimiter(slash); err != nil {
		return err
	}
	var lens [2]int
	ascii := true
	for i := range lens {
		start := g.pos
		if slash == gnuSedEOF || !g.matchSlash(slash, false) {
			return g.fail("unterminated `y' command")
		}
		n, ok := gnuYLen(g.src[start:g.pos-1], byte(slash))
		lens[i], ascii = n, ascii && ok
	}
	if ascii && lens[0] != lens[1] {
		return g.fail("strings for `y' command are different lengths")
	}
	return g.endOfCmd()
}

// gnuYLen is the length of a y string after match_slash and
// normalize_text (TEXT_BUFFER): "\" before the delimiter, a newline or
// any other byte stands for one byte; ok is false for non-ASCII text,
// whose length counts characters in a multibyte locale.
func gnuYLen(s string, slash byte) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return 0, false
		}
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if c := s[i]; c == 'd' || c == 'o' || c == 'x' || c == 'c' {
				return 0, false // numeric and control escapes: length not modelled
			}
		}
		n++
	}
	return n, true
}
