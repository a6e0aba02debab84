package argvrules

import (
	"errors"
	"fmt"
	"strings"
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
// contents of a string or regex literal (between the delimiters).
type awkTok struct {
	kind awkTokKind
	text string
	pos  int
}

// Lexer errors; the program is refused rather than guessed at.
var (
	errAwkString = errors.New("unterminated string")
	errAwkRegex  = errors.New("unterminated regular expression")
)

// awkRegexAfter lists the keywords after which "/" starts a regular
// expression literal rather than a division (print /re/, return /re/).
var awkRegexAfter = map[string]bool{
	"print": true, "printf": true, "return": true, "case": true, "do": true, "else": true,
}

// awkOps are the multi-byte operators, longest first within each lead
// byte, as gawk 5.x and mawk 1.3.4 scan them.
var awkOps = []string{
	"**=", "||", "|&", "&&", "==", "!=", "!~", "<=", ">=", ">>", "++", "--",
	"+=", "-=", "*=", "/=", "%=", "^=", "**", "::",
}

// lexAwk splits an awk program into tokens. It tracks the one context
// awk's own lexer needs: whether "/" may start a regex (after an operator,
// "(", ",", a newline, a statement start, or print-like keywords) or is a
// division (after an operand: name, number, string, regex, ")", "]",
// "++", "--"). When unsure it chooses division, so the text of a would-be
// regex is still scanned as code: a wrong guess can only refuse more.
func lexAwk(src string) ([]awkTok, error) {
	toks := make([]awkTok, 0, len(src)/2+1)
	operand := false
	for pos := 0; pos < len(src); {
		c := src[pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			pos++
		case c == '\\' && pos+1 < len(src) && (src[pos+1] == '\n' || src[pos+1] == '\r'):
			pos += 2 // line continuation
		case c == '\n':
			toks = append(toks, awkTok{kind: awkNewline, pos: pos})
			operand = false
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
			toks = append(toks, awkTok{kind: awkString, text: src[pos+1 : end-1], pos: pos})
			operand, pos = true, end
		case c == '/' && !operand:
			end, err := scanAwkRegex(src, pos)
			if err != nil {
				return nil, fmt.Errorf("%w at byte %d", err, pos)
			}
			toks = append(toks, awkTok{kind: awkRegex, text: src[pos+1 : end-1], pos: pos})
			operand, pos = true, end
		case isDigit(c) || (c == '.' && pos+1 < len(src) && isDigit(src[pos+1])):
			end := scanAwkNumber(src, pos)
			toks = append(toks, awkTok{kind: awkNumber, text: src[pos:end], pos: pos})
			operand, pos = true, end
		case isAlpha(c) || c == '_':
			end := pos + 1
			for end < len(src) && (isAlpha(src[end]) || isDigit(src[end]) || src[end] == '_') {
				end++
			}
			word := src[pos:end]
			toks = append(toks, awkTok{kind: awkIdent, text: word, pos: pos})
			operand, pos = !awkRegexAfter[word], end
		default:
			op := string(c)
			for _, o := range awkOps {
				if strings.HasPrefix(src[pos:], o) {
					op = o
					break
				}
			}
			toks = append(toks, awkTok{kind: awkPunct, text: op, pos: pos})
			operand = op == ")" || op == "]" || op == "++" || op == "--"
			pos += len(op)
		}
	}
	return append(toks, awkTok{kind: awkEOF, pos: len(src)}), nil
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

// scanAwkRegex returns the index just past the "/" closing the regex
// literal at src[start]. A "/" inside a bracket expression does not close
// it (gawk), "]" right after "[" or "[^" is literal, and a newline is an
// error.
func scanAwkRegex(src string, start int) (int, error) {
	inBracket := false
	for i := start + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '\n':
			return 0, errAwkRegex
		case '[':
			if !inBracket {
				inBracket = true
				if i+1 < len(src) && src[i+1] == '^' {
					i++
				}
				if i+1 < len(src) && src[i+1] == ']' {
					i++
				}
			}
		case ']':
			inBracket = false
		case '/':
			if !inBracket {
				return i + 1, nil
			}
		}
	}
	return 0, errAwkRegex
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

// checkAwkProgram refuses awk program text (argv[idx]) that can run a
// command or write a file: a call of system(); any "|" or "|&" token
// (print | cmd, cmd | getline, coprocesses; "||" is logical-or); a ">" or
// ">>" at the parenthesis depth of a print or printf statement, which awk
// parses as output redirection, except to /dev/stdout or /dev/stderr
// ("print ($1 > 5)" and "$1 > 5 { print }" are comparisons); gawk's
// @include, @load and indirect calls @f(...); the gawk 4 extension()
// builtin; and string literals naming gawk's /inet network files. Input
// redirection (getline < file) reads a file and is delegated like cat.
func checkAwkProgram(src string, idx int) *Rejection {
	toks, err := lexAwk(src)
	if err != nil {
		return Reject("awk.syntax", awkPolicy, idx, src, "argument %d: the awk program cannot be tokenized (%v), so it is refused", idx, err)
	}
	depth, printDepth := 0, -1
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		switch t.kind {
		case awkIdent:
			switch t.text {
			case "system":
				return awkReject("awk.system", idx, src, t, "calls system(), which runs a shell command")
			case "extension":
				if toks[k+1].text == "(" {
					return awkReject(ruleAwkProgFile, idx, src, t, "calls extension(), which loads a shared library in gawk 4")
				}
			case "print", "printf":
				if printDepth < 0 {
					printDepth = depth
				}
			}
		case awkString:
			if strings.HasPrefix(t.text, "/inet") {
				return awkReject("awk.network", idx, src, t, "names a gawk /inet special file, which opens a network connection")
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
		return awkReject("awk.pipe", idx, src, t, "pipes to or from a command with "+t.text)
	case ">", ">>":
		if *printDepth >= 0 && *depth == *printDepth && !awkStdStreamTarget(toks, k) {
			return awkReject("awk.redirect", idx, src, t, "redirects print output to a file with "+t.text)
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
			return awkReject(ruleAwkProgFile, idx, src, t, "uses @"+next.text+", which reads code from a file")
		default:
			return awkReject("awk.indirect-call", idx, src, t, "makes a gawk indirect function call with @, which can call system()")
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

func awkReject(rule string, idx int, src string, t awkTok, what string) *Rejection {
	return Reject(rule, awkPolicy, idx, src, "argument %d (awk program) %s at byte %d", idx, what, t.pos)
}
