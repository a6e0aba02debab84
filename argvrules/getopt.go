package argvrules

import (
	"fmt"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// ArgKind says whether an option takes a value; it is getopt_long's
// has_arg (no_argument, required_argument, optional_argument).
type ArgKind uint8

// The three getopt_long argument kinds.
const (
	// NoArg options take no value; "--name=value" is an error.
	NoArg ArgKind = iota
	// RequiredArg options take the rest of a short cluster, the text after
	// "=", or else the next argv element, whatever it looks like.
	RequiredArg
	// OptionalArg options take a value only when it is attached
	// ("-pFILE", "--profile=FILE"); a separate next element is an operand.
	OptionalArg
)

// Option is one row of a program's option table.
type Option struct {
	// Long is the long name without the leading "--"; "" for short-only.
	Long string
	// Short is the short option letter; 0 for long-only options.
	Short byte
	// Arg is the option's argument kind.
	Arg ArgKind
	// Key names what the option does. Rows with equal Key and Arg are
	// aliases: glibc getopt_long does not call a prefix ambiguous when all
	// its candidates are aliases of one another (same has_arg, flag, val).
	// Empty means the short letter, or the long name for long-only rows.
	Key string
	// Risk, when non-empty, completes the sentence "…, which <Risk>" and
	// marks the option as refused.
	Risk string
	// RiskIfValue limits Risk to uses that carry a value (gawk's
	// "--profile=FILE" writes FILE; bare "--profile" writes ./awkprof.out).
	RiskIfValue bool
	// Rule is the rule (code and phrase) reported when Risk applies.
	Rule refusal.Rule
}

// key returns the identity used for glibc's alias rule.
func (o *Option) key() string {
	if o.Key != "" {
		return o.Key
	}
	if o.Short != 0 {
		return string(o.Short)
	}
	return o.Long
}

// Display is the option's canonical spelling: "--long" when it has a long
// name, "-x" otherwise.
func (o *Option) Display() string {
	if o.Long != "" {
		return "--" + o.Long
	}
	return "-" + string(o.Short)
}

// Risky reports whether selecting o with (hasValue) a value is refused.
func (o *Option) Risky(hasValue bool) bool {
	return o.Risk != "" && (!o.RiskIfValue || hasValue)
}

// Table is a program's option table for the GNU getopt_long grammar.
// Build it with NewTable; it is immutable afterwards and safe for
// concurrent use.
type Table struct {
	// Program names the grammar in messages, e.g. "GNU sort 9.x".
	Program string
	// LongW is getopt's "W;" extension: "-W name[=value]" (or "-Wname")
	// is the long option --name (gawk).
	LongW   bool
	options []Option
	short   [256]int16 // index+1 into options, 0 when absent
}

// NewTable builds a Table. Short letters must be unique.
func NewTable(program string, longW bool, opts []Option) *Table {
	t := &Table{Program: program, LongW: longW, options: opts}
	for i := range opts {
		if c := opts[i].Short; c != 0 {
			if t.short[c] != 0 {
				panic(fmt.Sprintf("argvrules: duplicate short option -%c in %s table", c, program))
			}
			t.short[c] = int16(i + 1)
		}
	}
	return t
}

// Options returns the table rows; callers must not modify them.
func (t *Table) Options() []Option { return t.options }

// Short returns the row for letter c, or nil.
func (t *Table) Short(c byte) *Option {
	if i := t.short[c]; i != 0 {
		return &t.options[i-1]
	}
	return nil
}

// LookupLong resolves a long option name the way glibc getopt_long does:
// an exact name wins; otherwise a unique prefix, where candidates that are
// all aliases of one another count as unique. It returns the row (nil when
// none or ambiguous), whether name was an abbreviation, and, when the
// prefix is ambiguous, every candidate.
func (t *Table) LookupLong(name string) (opt *Option, abbrev bool, ambiguous []*Option) {
	var first *Option
	distinct := false
	for i := range t.options {
		o := &t.options[i]
		if o.Long == "" || !strings.HasPrefix(o.Long, name) {
			continue
		}
		if len(o.Long) == len(name) {
			return o, false, nil
		}
		if first == nil {
			first = o
		} else if o.key() != first.key() || o.Arg != first.Arg {
			distinct = true
		}
	}
	if first == nil {
		return nil, false, nil
	}
	if !distinct {
		return first, true, nil
	}
	for i := range t.options {
		o := &t.options[i]
		if o.Long != "" && strings.HasPrefix(o.Long, name) {
			ambiguous = append(ambiguous, o)
		}
	}
	return nil, false, ambiguous
}

// Ordering is getopt's treatment of operands before options.
type Ordering uint8

const (
	// Permute scans every element: options after operands are still
	// options (GNU default; also RETURN_IN_ORDER, "-" optstrings).
	Permute Ordering = iota
	// RequireOrder stops at the first operand (POSIXLY_CORRECT or a "+"
	// optstring).
	RequireOrder
)

// EventKind tells options from operands in a parse.
type EventKind uint8

// Event kinds.
const (
	OptionEvent EventKind = iota
	OperandEvent
)

// Event is one parsed option or operand. Index is the argv position of
// the word that holds the option (or the operand); a value taken from the
// following element is at ValueIndex, which equals Index when the value is
// attached and is -1 when there is no value.
type Event struct {
	Kind       EventKind
	Opt        *Option
	Index      int
	Word       string
	Name       string // the option as spelled: "--use-comp", "-I", "-W exec"
	Value      string
	HasValue   bool
	ValueIndex int
	Abbrev     bool // Name was a unique abbreviation of Opt.Long
	Cluster    bool // a short option sharing its word with other letters
	OldStyle   bool // a letter of tar's old-style first word
	Via        string
}

// ParseErrorKind classifies grammar errors.
type ParseErrorKind uint8

// Grammar error kinds.
const (
	ErrUnknown ParseErrorKind = iota
	ErrAmbiguous
	ErrMissingValue
	ErrUnexpectedValue
)

// ParseError is the first grammar error of a parse; the real program
// exits with a usage error there.
type ParseError struct {
	Kind       ParseErrorKind
	Index      int
	Word       string
	Name       string
	Candidates []*Option // for ErrAmbiguous
	Program    string
}

// Error describes the error with the argv position and word.
func (e *ParseError) Error() string {
	switch e.Kind {
	case ErrAmbiguous:
		names := make([]string, len(e.Candidates))
		for i, c := range e.Candidates {
			names[i] = c.Display()
		}
		return fmt.Sprintf("argument %d %q: %s is ambiguous in %s (%s)", e.Index, e.Word, e.Name, e.Program, strings.Join(names, ", "))
	case ErrMissingValue:
		return fmt.Sprintf("argument %d %q: %s requires a value in %s", e.Index, e.Word, e.Name, e.Program)
	case ErrUnexpectedValue:
		return fmt.Sprintf("argument %d %q: %s takes no value in %s", e.Index, e.Word, e.Name, e.Program)
	default:
		return fmt.Sprintf("argument %d %q: %s is not a known %s option", e.Index, e.Word, e.Name, e.Program)
	}
}

// Parsed is the result of a parse: every option and operand in argv
// order, the first grammar error (parsing stops there), and the index of
// the unconsumed "--" that ended options (-1 when none).
type Parsed struct {
	Events []Event
	Err    *ParseError
	End    int
}

// Parse parses argv[start:] with the GNU getopt_long grammar: short
// clusters with attached or following values, long options with "=" or a
// following value, unique-prefix abbreviation, "--" ending options, "-"
// as an operand. A value consumed by an option is never rescanned.
func (t *Table) Parse(argv []string, start int, order Ordering) Parsed {
	p := Parsed{End: -1, Events: make([]Event, 0, len(argv))}
	for i := start; i < len(argv); i++ {
		w := argv[i]
		switch {
		case w == "--":
			p.End = i
			p.operands(argv, i+1)
			return p
		case len(w) < 2 || w[0] != '-':
			p.Events = append(p.Events, Event{Kind: OperandEvent, Index: i, Word: w, ValueIndex: -1})
			if order == RequireOrder {
				p.operands(argv, i+1)
				return p
			}
			continue
		case w[1] == '-':
			i = t.long(&p, argv, i, i, w[2:], "--", "")
		default:
			i = t.cluster(&p, argv, i)
		}
		if p.Err != nil {
			return p
		}
	}
	return p
}

func (p *Parsed) operands(argv []string, from int) {
	for j := from; j < len(argv); j++ {
		p.Events = append(p.Events, Event{Kind: OperandEvent, Index: j, Word: argv[j], ValueIndex: -1})
	}
}

// long parses the long option text spec (name[=value]) found in argv[at]
// (for "-W name" the option word is argv[idx] and the text is argv[at]).
// It returns the last argv index it consumed.
func (t *Table) long(p *Parsed, argv []string, idx, at int, spec, prefix, via string) int {
	name, value, hasValue := strings.Cut(spec, "=")
	opt, abbrev, amb := t.LookupLong(name)
	word := argv[idx]
	spelled := prefix + name
	switch {
	case amb != nil:
		p.Err = &ParseError{Kind: ErrAmbiguous, Index: idx, Word: word, Name: spelled, Candidates: amb, Program: t.Program}
		return at
	case opt == nil:
		p.Err = &ParseError{Kind: ErrUnknown, Index: idx, Word: word, Name: spelled, Program: t.Program}
		return at
	}
	ev := Event{Kind: OptionEvent, Opt: opt, Index: idx, Word: word, Name: spelled, Abbrev: abbrev, ValueIndex: -1, Via: via}
	switch {
	case hasValue && opt.Arg == NoArg:
		p.Err = &ParseError{Kind: ErrUnexpectedValue, Index: idx, Word: word, Name: spelled, Program: t.Program}
		p.Events = append(p.Events, ev)
		return at
	case hasValue:
		ev.Value, ev.HasValue, ev.ValueIndex = value, true, at
	case opt.Arg == RequiredArg:
		if at+1 >= len(argv) {
			p.Err = &ParseError{Kind: ErrMissingValue, Index: idx, Word: word, Name: spelled, Program: t.Program}
			p.Events = append(p.Events, ev)
			return at
		}
		at++
		ev.Value, ev.HasValue, ev.ValueIndex = argv[at], true, at
	}
	p.Events = append(p.Events, ev)
	return at
}

// cluster parses the short option word argv[i] and returns the last argv
// index it consumed.
func (t *Table) cluster(p *Parsed, argv []string, i int) int {
	w := argv[i]
	multi := len(w) > 2
	for j := 1; j < len(w); j++ {
		c := w[j]
		opt := t.Short(c)
		if opt == nil {
			p.Err = &ParseError{Kind: ErrUnknown, Index: i, Word: w, Name: "-" + string(c), Program: t.Program}
			return i
		}
		rest := w[j+1:]
		if c == 'W' && t.LongW {
			if rest != "" {
				return t.long(p, argv, i, i, rest, "-W ", "-W")
			}
			if i+1 >= len(argv) {
				p.Err = &ParseError{Kind: ErrMissingValue, Index: i, Word: w, Name: "-W", Program: t.Program}
				return i
			}
			return t.long(p, argv, i, i+1, argv[i+1], "-W ", "-W")
		}
		ev := Event{Kind: OptionEvent, Opt: opt, Index: i, Word: w, Name: "-" + string(c), Cluster: multi, ValueIndex: -1}
		switch opt.Arg {
		case NoArg:
			p.Events = append(p.Events, ev)
			continue
		case OptionalArg:
			if rest != "" {
				ev.Value, ev.HasValue, ev.ValueIndex = rest, true, i
			}
		case RequiredArg:
			switch {
			case rest != "":
				ev.Value, ev.HasValue, ev.ValueIndex = rest, true, i
			case i+1 < len(argv):
				i++
				ev.Value, ev.HasValue, ev.ValueIndex = argv[i], true, i
			default:
				p.Err = &ParseError{Kind: ErrMissingValue, Index: i, Word: w, Name: ev.Name, Program: t.Program}
				p.Events = append(p.Events, ev)
				return i
			}
		}
		p.Events = append(p.Events, ev)
		return i
	}
	return i
}
