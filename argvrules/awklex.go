package argvrules

import (
	"errors"
	"fmt"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// awkTokKind classifies awk tokens.
type awkTokKind uint8

const (
	awkEOF awkTokKind = iota
	awkNewline
	awkIdent
	awkNumber
	awkString
	awkRegex
	awkPunct
)

// awkTok is one token; text is the identifier, operator, or the raw
// contents of a string or regex literal (between the delimiters); pos and
// end are the byte offsets of its first byte and just past its last.
type awkTok struct {
	kind awkTokKind
	text string
	pos  int
	end  int
}

// Lexer errors; the program is refused rather than guessed at.
var (
	errAwkString = errors.New("unterminated string")
	errAwkRegex  = errors.New("unterminated regular expression")
)

// awkSlashRole is what a "/" may be, given the token before it.
type awkSlashRole uint8

const (
	slashRegex  awkSlashRole = iota // only a regex literal makes sense
	slashDivide                     // every awk reads a division
	slashEither                     // awks disagree or the grammar decides
)

// awkSlashAfter classifies a "/" by the token before it (nil at the start
// of the program) in dialect d. Only operands (a name that is not one of
// d's keywords, a number, a string, a regex, "]") make it a division, and
// only operators or d's keywords after which a division is a syntax error
// make it a regex. Where d's grammar decides (d.eitherAfter, d.punct)
// both readings are checked: measured, gawk reads "if (0) / +/" as a
// regex where mawk divides, and mawk reads "x++ /a/" as a regex where
// gawk divides.
func awkSlashAfter(prev *awkTok, d *awkDialect) awkSlashRole {
	if prev == nil {
		return slashRegex
	}
	switch prev.kind {
	case awkNumber, awkString, awkRegex:
		return slashDivide
	case awkIdent:
		switch {
		case d.eitherAfter[prev.text]:
			return slashEither
		case d.regexAfter[prev.text]:
			return slashRegex
		}
		return slashDivide
	case awkPunct:
		if role, ok := d.punct[prev.text]; ok {
			return role
		}
		if prev.text == "]" {
			return slashDivide
		}
	}
	return slashRegex
}

// awkOps are the multi-byte operators, longest first within each lead
// byte, as gawk 5.x and mawk 1.3.4 scan them.
var awkOps = []string{
	"**=", "||", "|&", "&&", "==", "!=", "!~", "<=", ">=", ">>", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "^=", "**", "::",
}

// awkLexer tokenizes one reading of a program. At each point where the
// reading is not certain (a "/" after an ambiguous token, a regex whose end
// differs between bracket-expression dialects) it takes a decision:
// decisions are replayed from choices and recorded in taken, with the
// number of options of each in arity, so awkReadings can enumerate every
// reading depth first.
type awkLexer struct {
	src     string
	dialect *awkDialect
	choices []int
	taken   []int
	arity   []int
	work    *int // bytes left for regex-extent scans, shared by all readings
}

// errAwkCostly stops a lexer whose regex-extent scans used up the work
// budget (long lines full of "[" make them quadratic).
var errAwkCostly = errors.New("too costly to read every way")

// decide picks one of n options (n ≥ 2) at the next decision point.
func (lx *awkLexer) decide(n int) int {
	c := 0
	if k := len(lx.taken); k < len(lx.choices) && lx.choices[k] < n {
		c = lx.choices[k]
	}
	lx.taken = append(lx.taken, c)
	lx.arity = append(lx.arity, n)
	return c
}

// lex splits the program into tokens under the lexer's decisions.
func (lx *awkLexer) lex() ([]awkTok, error) {
	src := lx.src
	toks := make([]awkTok, 0, len(src)/2+1)
	var prev *awkTok
	emit := func(t awkTok) {
		toks = append(toks, t)
		prev = &toks[len(toks)-1]
	}
	for pos := 0; pos < len(src); {
		c := src[pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			pos++
		case c == '\\' && pos+1 < len(src) && (src[pos+1] == '\n' || src[pos+1] == '\r'):
			pos += 2 // line continuation
		case c == '\n':
			emit(awkTok{kind: awkNewline, pos: pos, end: pos + 1})
			pos++
		case c == '#':
			for pos < len(src) && src[pos] != '\n' {
				pos++
			}
		case c == '"':
			end, err := scanAwkString(src, pos)
			if err != nil {
				return nil, fmt.Errorf("%w at byte %d", err, pos)
			}
			emit(awkTok{kind: awkString, text: src[pos+1 : end-1], pos: pos, end: end})
			pos = end
		case c == '/':
			end, err := lx.slash(prev, pos)
			if err != nil {
				return nil, err
			}
			if end > 0 {
				emit(awkTok{kind: awkRegex, text: src[pos+1 : end-1], pos: pos, end: end})
				pos = end
				continue
			}
			op := awkOperator(src, pos)
			emit(awkTok{kind: awkPunct, text: op, pos: pos, end: pos + len(op)})
			pos += len(op)
		case isDigit(c) || (c == '.' && pos+1 < len(src) && isDigit(src[pos+1])):
			end := scanAwkNumber(src, pos)
			emit(awkTok{kind: awkNumber, text: src[pos:end], pos: pos, end: end})
			pos = end
		case isAlpha(c) || c == '_':
			end := pos + 1
			for end < len(src) && (isAlpha(src[end]) || isDigit(src[end]) || src[end] == '_') {
				end++
			}
			emit(awkTok{kind: awkIdent, text: src[pos:end], pos: pos, end: end})
			pos = end
		default:
			op := awkOperator(src, pos)
			emit(awkTok{kind: awkPunct, text: op, pos: pos, end: pos + len(op)})
			pos += len(op)
		}
	}
	return append(toks, awkTok{kind: awkEOF, pos: len(src), end: len(src)}), nil
}

// slash decides what the "/" at src[pos] is in this reading: it returns
// the end of a regex literal, or 0 for a division operator.
func (lx *awkLexer) slash(prev *awkTok, pos int) (int, error) {
	role := awkSlashAfter(prev, lx.dialect)
	if role == slashDivide {
		return 0, nil
	}
	ends, steps := awkRegexEnds(lx.src, pos)
	if lx.work != nil {
		if *lx.work -= steps; *lx.work < 0 {
			return 0, errAwkCostly
		}
	}
	n := len(ends)
	if role == slashEither {
		n++ // the last option is the division
	}
	switch {
	case n == 0:
		return 0, fmt.Errorf("%w at byte %d", errAwkRegex, pos)
	case n == 1 && len(ends) == 0:
		return 0, nil
	case n == 1:
		return ends[0], nil
	}
	if c := lx.decide(n); c < len(ends) {
		return ends[c], nil
	}
	return 0, nil
}

// awkOperator returns the operator starting at src[pos]: the longest of
// awkOps, else the single byte.
func awkOperator(src string, pos int) string {
	for _, o := range awkOps {
		if strings.HasPrefix(src[pos:], o) {
			return o
		}
	}
	return src[pos : pos+1]
}

// scanAwkString returns the index just past the closing quote of the
// string starting at src[start]; backslash escapes anything, including a
// newline (gawk continuation), and a bare newline is an error.
func scanAwkString(src string, start int) (int, error) {
	for i := start + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		case '\n':
			return 0, errAwkString
		}
	}
	return 0, errAwkString
}

// awkBracketDialect is one way an awk lexer may treat a bracket
// expression while it looks for the "/" that ends a regex literal.
type awkBracketDialect struct {
	brackets     bool // a "/" inside [...] does not end the regex
	classes      bool // [:alpha:], [.x.] and [=x=] are skipped whole
	firstLiteral bool // "]" right after "[" or "[^" is a member
	escapes      bool // "\" escapes the next byte inside [...] too
	nested       bool // "[:" nests and each "]" closes one level
}

// awkBracketDialects are the plausible readings of a regex literal's
// extent: none (onetrue awk before bracket support: the first unescaped
// "/" ends it), POSIX brackets with or without backslash escapes inside,
// brackets without class support, with and without the leading-"]" rule,
// and gawk 5's nesting count on "[:". gawk 5.2 and mawk 1.3.4 agree that
// the "/" in /[[:alpha:]/]+/ does not end the regex.
var awkBracketDialects = []awkBracketDialect{
	{},
	{brackets: true, classes: true, firstLiteral: true, escapes: true},
	{brackets: true, classes: true, firstLiteral: true},
	{brackets: true, firstLiteral: true, escapes: true},
	{brackets: true, escapes: true},
	{brackets: true, firstLiteral: true, escapes: true, nested: true},
}

// awkRegexEnds returns, in increasing order and without repeats, every
// index just past a "/" that ends the regex literal starting at
// src[start] in some bracket dialect; none when every dialect runs into a
// newline or the end of the program; steps is the number of bytes the
// dialects scanned.
func awkRegexEnds(src string, start int) (ends []int, steps int) {
	for _, d := range awkBracketDialects {
		end := d.scan(src, start)
		if end < 0 {
			steps += strings.IndexByte(src[start:]+"\n", '\n')
		} else {
			steps += end - start
		}
		if end < 0 {
			continue
		}
		k := 0
		for k < len(ends) && ends[k] < end {
			k++
		}
		if k == len(ends) || ends[k] != end {
			ends = append(ends[:k], append([]int{end}, ends[k:]...)...)
		}
	}
	return ends, steps
}

// scan returns the index just past the "/" closing the regex literal at
// src[start] in dialect d, or -1 when a newline or the end comes first.
func (d awkBracketDialect) scan(src string, start int) int {
	depth := 0
	for i := start + 1; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			return -1
		case c == '\\' && (depth == 0 || d.escapes):
			i++
		case c == '/' && depth == 0:
			return i + 1
		case !d.brackets:
		case c == '[' && depth == 0:
			depth = 1
			i = d.bracketStart(src, i)
		case c == '[' && i+1 < len(src) && (src[i+1] == ':' || src[i+1] == '.' || src[i+1] == '='):
			if d.nested && src[i+1] == ':' {
				depth++
			} else if d.classes {
				i = skipAwkClass(src, i)
			}
		case c == ']' && depth > 0:
			depth--
		}
	}
	return -1
}

// bracketStart skips an opening "[" at src[i], its "^" and, in dialects
// with the leading-"]" rule, a literal "]"; it returns the last index
// consumed.
func (d awkBracketDialect) bracketStart(src string, i int) int {
	if i+1 < len(src) && src[i+1] == '^' {
		i++
	}
	if d.firstLiteral && i+1 < len(src) && src[i+1] == ']' {
		i++
	}
	return i
}

// skipAwkClass returns the index of the "]" closing the [:name:], [.x.]
// or [=x=] at src[i], or i when it is not closed on this line (then "["
// is an ordinary member).
func skipAwkClass(src string, i int) int {
	delim := src[i+1]
	for j := i + 2; j+1 < len(src) && src[j] != '\n'; j++ {
		if src[j] == delim && src[j+1] == ']' {
			return j + 1
		}
	}
	return i
}

func scanAwkNumber(src string, pos int) int {
	end := pos
	for end < len(src) {
		c := src[end]
		switch {
		case isDigit(c) || isAlpha(c) || c == '.':
			end++
		case (c == '+' || c == '-') && (src[end-1] == 'e' || src[end-1] == 'E') && !strings.HasPrefix(src[pos:], "0x") && !strings.HasPrefix(src[pos:], "0X"):
			end++
		default:
			return end
		}
	}
	return end
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// awkStdStreams are redirection targets that name the standard streams in
// gawk and mawk; "print ... > \"/dev/stderr\"" writes no file.
var awkStdStreams = map[string]bool{
	"/dev/stdout": true, "/dev/stderr": true, "/dev/fd/1": true, "/dev/fd/2": true,
}

// awkMaxReadings bounds how many readings of one program are checked; a
// program with more ambiguous "/" is refused as awk.ambiguous rather than
// explored exponentially.
const awkMaxReadings = 64

// awkMaxWork is the base budget, in bytes scanned, for finding the end of
// regex literals under every bracket dialect; awkProgramVerdict adds
// awkMaxReadings bytes per program byte, so a program costs linear time.
const awkMaxWork = 1 << 20

// awkProgramVerdict judges awk program text (argv[idx]): rej when any
// plausible reading of it can run a command or write a file, syntax when
// no reading tokenizes (apart: an argv read in several dialects is refused
// for syntax only when no dialect tokenizes the text, since an awk that
// cannot tokenize it stops before running anything). A reading fixes each
// ambiguous "/" as a regex or a division (awkSlashAfter) and each regex
// literal's extent under one bracket dialect (awkBracketDialects);
// readings that do not tokenize are dropped, since an awk that reads the
// program that way stops with a syntax error. rej is awk.ambiguous beyond
// awkMaxReadings readings, and otherwise the first refusal of
// checkAwkTokens, checkGawkTokens (gawk dialects) or checkAwkRawSystem on
// any reading.
func awkProgramVerdict(src string, idx int, d *awkDialect) (rej, syntax *Rejection) {
	calls := awkRawSystemCalls(src)
	var firstErr error
	var choices []int
	tokenized := false
	work := awkMaxWork + awkMaxReadings*len(src)
	for n := 1; ; n++ {
		if n > awkMaxReadings {
			return ruleAwkAmbiguous.Reject(idx, src,
				"argument %d (awk program) has more than %d readings of its ambiguous \"/\" (regex or division, bracket expressions), so it is refused", idx, awkMaxReadings), nil
		}
		lx := awkLexer{src: src, dialect: d, choices: choices, work: &work}
		toks, err := lx.lex()
		if errors.Is(err, errAwkCostly) {
			return ruleAwkAmbiguous.Reject(idx, src,
				"argument %d (awk program) has regex literals whose extent is %v, so it is refused", idx, err), nil
		}
		if err == nil {
			tokenized = true
			if rej := checkAwkReading(toks, calls, idx, src, d); rej != nil {
				return rej, nil
			}
		} else if firstErr == nil {
			firstErr = err
		}
		i := len(lx.taken) - 1
		for i >= 0 && lx.taken[i]+1 >= lx.arity[i] {
			i--
		}
		if i < 0 {
			break
		}
		choices = append(lx.taken[:i:i], lx.taken[i]+1)
	}
	if !tokenized {
		return nil, ruleAwkSyntax.Reject(idx, src, "argument %d: the awk program cannot be tokenized (%v), so it is refused", idx, firstErr)
	}
	return nil, nil
}

// checkAwkReading applies every token check to one reading.
func checkAwkReading(toks []awkTok, calls []int, idx int, src string, d *awkDialect) *Rejection {
	if rej := checkAwkTokens(toks, idx, src); rej != nil {
		return rej
	}
	if d.gawk {
		if rej := checkGawkTokens(toks, idx, src); rej != nil {
			return rej
		}
	}
	return checkAwkRawSystem(toks, calls, idx, src)
}

// awkRawSystemCalls returns the byte offsets of every "system" in src that
// is a whole identifier followed by optional blanks (spaces, tabs,
// newlines, backslash-newline) and "(". This is defence in depth: the
// token check already refuses system as code in every reading, but a
// lexer mistake about where a regex or comment ends is exactly how
// system() can be hidden from it, so the raw text is searched without
// trusting the lexer, and only occurrences inside string literals in
// every reading are let through (print "system(x)" is everyday text).
func awkRawSystemCalls(src string) []int {
	var out []int
	for from := 0; ; {
		i := strings.Index(src[from:], "system")
		if i < 0 {
			return out
		}
		i += from
		from = i + len("system")
		if i > 0 && (isAlpha(src[i-1]) || isDigit(src[i-1]) || src[i-1] == '_') {
			continue
		}
		j := from
		for j < len(src) {
			if c := src[j]; c == ' ' || c == '\t' || c == '\r' || c == '\n' {
				j++
			} else if c == '\\' && j+1 < len(src) && (src[j+1] == '\n' || src[j+1] == '\r') {
				j += 2
			} else {
				break
			}
		}
		if j < len(src) && src[j] == '(' {
			out = append(out, i)
		}
	}
}

// checkAwkRawSystem refuses when an offset of calls lies outside every
// string literal of this reading (in code, a regex or a comment).
func checkAwkRawSystem(toks []awkTok, calls []int, idx int, src string) *Rejection {
	k := 0 // toks and calls are both in increasing byte order
	for _, at := range calls {
		for k < len(toks) && toks[k].end <= at {
			k++
		}
		if k == len(toks) || toks[k].kind != awkString || toks[k].pos >= at {
			return ruleAwkSystem.Reject(idx, src,
				"argument %d (awk program) contains \"system(\" at byte %d outside a string literal (as code, in a regex or in a comment); it is refused because an awk that ends a regex or comment elsewhere runs it", idx, at)
		}
	}
	return nil
}

// checkAwkTokens refuses one reading of awk program text (argv[idx]) that can run a
// command or write a file: a call of system(); any "|" or "|&" token
// (print | cmd, cmd | getline, coprocesses; "||" is logical-or); a ">" or
// ">>" at the parenthesis depth of a print or printf statement, which awk
// parses as output redirection, except to /dev/stdout or /dev/stderr
// ("print ($1 > 5)" and "$1 > 5 { print }" are comparisons); gawk's
// @include, @load and indirect calls @f(...); the gawk 4 extension()
// builtin; and string literals naming gawk's /inet network files. Input
// redirection (getline < file) reads a file and is delegated like cat.
func checkAwkTokens(toks []awkTok, idx int, src string) *Rejection {
	depth, printDepth := 0, -1
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		switch t.kind {
		case awkIdent:
			switch t.text {
			case "system":
				return awkReject(ruleAwkSystem, idx, src, t, "calls system(), which runs a shell command")
			case "extension":
				if toks[k+1].text == "(" {
					return awkReject(ruleAwkProgramFile, idx, src, t, "calls extension(), which loads a shared library in gawk 4")
				}
			case "print", "printf":
				if printDepth < 0 {
					printDepth = depth
				}
			}
		case awkNewline:
			if printDepth >= 0 && depth <= printDepth && !awkContinues(toks, k) {
				printDepth = -1
			}
		case awkPunct:
			if rej := checkAwkPunct(toks, k, &depth, &printDepth, idx, src); rej != nil {
				return rej
			}
		}
	}
	return nil
}

func checkAwkPunct(toks []awkTok, k int, depth, printDepth *int, idx int, src string) *Rejection {
	t := toks[k]
	switch t.text {
	case "(", "[":
		*depth++
	case ")", "]":
		if *depth > 0 {
			*depth--
		}
	case "|", "|&":
		return awkReject(ruleAwkPipe, idx, src, t, "pipes to or from a command with "+t.text)
	case ">", ">>":
		if *printDepth >= 0 && *depth == *printDepth && !awkStdStreamTarget(toks, k) {
			return awkReject(ruleAwkRedirect, idx, src, t, "redirects print output to a file with "+t.text)
		}
	case ";", "{", "}":
		if *printDepth >= 0 && *depth <= *printDepth {
			*printDepth = -1
		}
	case "@":
		next := toks[k+1]
		switch {
		case next.kind == awkRegex:
		case next.kind == awkIdent && next.text == "namespace":
		case next.kind == awkIdent && (next.text == "include" || next.text == "load"):
			return awkReject(ruleAwkProgramFile, idx, src, t, "uses @"+next.text+", which reads code from a file")
		default:
			return awkReject(ruleAwkIndirectCall, idx, src, t, "makes a gawk indirect function call with @, which can call system()")
		}
	}
	return nil
}

// awkContinues reports whether the token before the newline at k lets the
// statement continue on the next line.
func awkContinues(toks []awkTok, k int) bool {
	if k == 0 {
		return false
	}
	switch p := toks[k-1]; p.text {
	case ",", "&&", "||", "{", "do", "else":
		return p.kind == awkPunct || p.kind == awkIdent
	}
	return false
}

// awkStdStreamTarget reports whether the redirection at k goes to a
// standard stream: a literal "/dev/stdout"-like target ending the statement.
func awkStdStreamTarget(toks []awkTok, k int) bool {
	if k+2 >= len(toks) {
		return false
	}
	target, after := toks[k+1], toks[k+2]
	if target.kind != awkString || !awkStdStreams[target.text] {
		return false
	}
	switch after.kind {
	case awkEOF, awkNewline:
		return true
	case awkPunct:
		return after.text == ";" || after.text == "}"
	}
	return false
}

func awkReject(rule refusal.Rule, idx int, src string, t awkTok, what string) *Rejection {
	return rule.Reject(idx, src, "argument %d (awk program), at byte %d (%q): %s", idx, t.pos, src[t.pos:t.end], what)
}
