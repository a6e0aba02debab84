package argvrules

import "strings"

// gawk opens a network connection for any file name that starts with
// "/inet/", "/inet4/" or "/inet6/" (io.c inetfile): in getline and print
// redirections, as an input file named on the command line or put into
// ARGV at run time. A name built at run time cannot be read before the
// call, so in a gawk reading the policy admits only names it can decode:
// a redirection target must be a string literal (escapes decoded), ARGV
// is not written, and SYMTAB (which can write any variable) is not used.

// gawkInet reports whether s, after gawk's escape processing (node.c
// make_str_node → parse_escape), names a /inet special file. Both the
// two-digit \x of gawk 5 and the unbounded \x of gawk 4 are tried.
func gawkInet(s string) bool {
	return strings.HasPrefix(awkUnescape(s, 2), "/inet") || strings.HasPrefix(awkUnescape(s, -1), "/inet")
}

// awkUnescape decodes the escapes gawk processes in string literals, -v
// values and command-line assignments: \a \b \f \n \r \t \v, up to three
// octal digits, \x followed by up to maxHex hex digits (-1: any number,
// keeping the low byte), and any other escaped byte as itself (\/ is /).
func awkUnescape(s string, maxHex int) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; {
		case strings.IndexByte("abfnrtv", e) >= 0:
			b.WriteByte("\a\b\f\n\r\t\v"[strings.IndexByte("abfnrtv", e)])
		case e >= '0' && e <= '7':
			v, n := 0, 0
			for ; n < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7'; n++ {
				v = v*8 + int(s[i]-'0')
				i++
			}
			i--
			b.WriteByte(byte(v))
		case e == 'x' && i+1 < len(s) && isHex(s[i+1]):
			v, n := 0, 0
			for i++; i < len(s) && isHex(s[i]) && (maxHex < 0 || n < maxHex); n++ {
				v = v*16 + hexVal(s[i])
				i++
			}
			i--
			b.WriteByte(byte(v))
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

func isHex(c byte) bool { return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'f' }

func hexVal(c byte) int {
	if isDigit(c) {
		return int(c - '0')
	}
	return int(c|0x20-'a') + 10
}

// checkGawkTokens refuses, in a gawk reading, what makes gawk open a file
// the policy cannot name before the call: a string literal that decodes
// to a /inet name, a getline redirection whose target is not a string
// literal, a write to ARGV (gawk reads every ARGV element as an input
// file), and any use of SYMTAB.
func checkGawkTokens(toks []awkTok, idx int, src string) *Rejection {
	var calls []string // for each open "(": the identifier before it
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		switch {
		case t.kind == awkString && gawkInet(t.text):
			return awkReject(ruleAwkNetwork, idx, src, t, "names a gawk /inet special file, which opens a network connection")
		case t.kind == awkPunct && t.text == "(":
			name := ""
			if k > 0 && toks[k-1].kind == awkIdent {
				name = toks[k-1].text
			}
			calls = append(calls, name)
		case t.kind == awkPunct && t.text == ")" && len(calls) > 0:
			calls = calls[:len(calls)-1]
		case t.kind == awkIdent && t.text == "getline":
			if rej := checkGetlineTarget(toks, k, idx, src); rej != nil {
				return rej
			}
		case t.kind == awkIdent && t.text == "SYMTAB":
			return awkReject(ruleAwkNetwork, idx, src, t, "uses SYMTAB, through which gawk can set any variable (ARGV included) at run time")
		case t.kind == awkIdent && t.text == "ARGV":
			if rej := checkArgvUse(toks, k, calls, idx, src); rej != nil {
				return rej
			}
		}
	}
	return nil
}

// checkGetlineTarget finds the "<" of the getline at toks[k] (the first
// one at the getline's own parenthesis depth before its expression ends)
// and requires a string literal, or a parenthesised one, after it.
func checkGetlineTarget(toks []awkTok, k, idx int, src string) *Rejection {
	depth := 0
	for j := k + 1; j < len(toks); j++ {
		t := toks[j]
		switch {
		case t.kind == awkEOF, t.kind == awkNewline && !awkContinues(toks, j):
			return nil
		case t.kind != awkPunct:
			continue
		}
		switch t.text {
		case "(", "[":
			depth++
		case ")", "]":
			if depth--; depth < 0 {
				return nil
			}
		case ";", "{", "}", ",", "&&", "||", "?", ":":
			if depth == 0 {
				return nil
			}
		case "<":
			if depth > 0 {
				continue
			}
			if literalTarget(toks, j+1) {
				return nil
			}
			return awkReject(ruleAwkNetwork, idx, src, t, "reads with getline from a file whose name is computed at run time (gawk opens /inet names as network connections); only a string literal is admitted")
		}
	}
	return nil
}

// literalTarget reports whether toks[j] starts a string literal, possibly
// in parentheses, or a number (a file named "0").
func literalTarget(toks []awkTok, j int) bool {
	open := 0
	for j < len(toks) && toks[j].kind == awkPunct && toks[j].text == "(" {
		open++
		j++
	}
	if j >= len(toks) || (toks[j].kind != awkString && toks[j].kind != awkNumber) {
		return false
	}
	for ; open > 0; open-- {
		j++
		if j >= len(toks) || toks[j].kind != awkPunct || toks[j].text != ")" {
			return false
		}
	}
	return true
}

// awkAssignOps are the operators that store into the operand before them.
var awkAssignOps = words("= += -= *= /= %= ^= **= ++ --")

// argvReaders are the builtins that take an array argument without
// changing it.
var argvReaders = words("length isarray typeof")

// checkArgvUse refuses a use of ARGV at toks[k] that can change it: the
// array passed anywhere ("k in ARGV" and length(ARGV) excepted), an element
// assigned, incremented, read into with getline, or named inside sub() or
// gsub(), which replace in their third argument.
func checkArgvUse(toks []awkTok, k int, calls []string, idx int, src string) *Rejection {
	t := toks[k]
	prev := awkTok{}
	if k > 0 {
		prev = toks[k-1]
	}
	if toks[k+1].kind != awkPunct || toks[k+1].text != "[" {
		if prev.text == "in" || (prev.text == "(" && k > 1 && argvReaders[toks[k-2].text] && toks[k+1].text == ")") {
			return nil
		}
		return awkReject(ruleAwkNetwork, idx, src, t, "passes the ARGV array, whose elements gawk opens as input files (a /inet name connects)")
	}
	end := k + 1
	for depth := 0; end < len(toks); end++ {
		if toks[end].kind == awkPunct && toks[end].text == "[" {
			depth++
		} else if toks[end].kind == awkPunct && toks[end].text == "]" {
			if depth--; depth == 0 {
				break
			}
		}
	}
	after := awkTok{}
	if end+1 < len(toks) {
		after = toks[end+1]
	}
	switch {
	case after.kind == awkPunct && awkAssignOps[after.text],
		prev.kind == awkPunct && (prev.text == "++" || prev.text == "--"),
		prev.kind == awkIdent && prev.text == "getline":
		return awkReject(ruleAwkNetwork, idx, src, t, "writes an ARGV element, which gawk opens as an input file (a /inet name connects)")
	}
	for _, c := range calls {
		if c == "sub" || c == "gsub" {
			return awkReject(ruleAwkNetwork, idx, src, t, "names an ARGV element inside "+c+"(), which can replace its value")
		}
	}
	return nil
}
