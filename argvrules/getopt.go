package argvrules

import (
	"fmt"
	"strings"
	"sync"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// argKind says whether an option takes a value; it is getopt_long's
// has_arg (no_argument, required_argument, optional_argument).
type argKind uint8

// The three getopt_long argument kinds.
const (
	// noArg options take no value; "--name=value" is an error.
	noArg argKind = iota
	// requiredArg options take the rest of a short cluster, the text after
	// "=", or else the next argv element, whatever it looks like.
	requiredArg
	// optionalArg options take a value only when it is attached
	// ("-pFILE", "--profile=FILE"); a separate next element is an operand.
	optionalArg
)

// option is one row of a program's option table.
type option struct {
	// Long is the long name without the leading "--"; "" for short-only.
	Long string
	// Short is the short option letter; 0 for long-only options.
	Short byte
	// Arg is the option's argument kind.
	Arg argKind
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
func (o *option) key() string {
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
func (o *option) Display() string {
	if o.Long != "" {
		return "--" + o.Long
	}
	return "-" + string(o.Short)
}

// Risky reports whether selecting o with (hasValue) a value is refused.
func (o *option) Risky(hasValue bool) bool {
	return o.Risk != "" && (!o.RiskIfValue || hasValue)
}

// table is a program's option table for the GNU getopt_long grammar.
// Build it with newTable or newTableFunc; it is immutable afterwards and
// safe for concurrent use. Its rows are indexed on first use, not at
// package initialization, which every process of this binary pays (the
// watchdog and the re-executed launcher too); tables lists every table so
// a test can load them all.
type table struct {
	// Program names the grammar in messages, e.g. "GNU sort 9.x".
	Program string
	// LongW is getopt's "W;" extension: "-W name[=value]" (or "-Wname")
	// is the long option --name (gawk).
	LongW bool

	build func() []option
	once  sync.Once
	// loaded and byShort are valid only after rows: read them through
	// rows, Short and LookupLong.
	loaded  []option
	byShort [256]int16 // index+1 into loaded, 0 when absent
}

// tables is every table built, for the test that loads them all.
var tables []*table

// newTable builds a table of opts. Short letters must be unique.
func newTable(program string, longW bool, opts []option) *table {
	return newTableFunc(program, longW, func() []option { return opts })
}

// newTableFunc builds a table whose rows build returns on first use (a
// derived table, such as withNegations', costs nothing until a command
// line of its program is read). Short letters must be unique.
func newTableFunc(program string, longW bool, build func() []option) *table {
	t := &table{Program: program, LongW: longW, build: build}
	tables = append(tables, t)
	return t
}

// rows returns the table's rows, indexing them on first use.
func (t *table) rows() []option {
	t.once.Do(func() {
		opts := t.build()
		for i := range opts {
			if c := opts[i].Short; c != 0 {
				if t.byShort[c] != 0 {
					panic(fmt.Sprintf("argvrules: duplicate short option -%c in %s table", c, t.Program))
				}
				t.byShort[c] = int16(i + 1)
			}
		}
		t.loaded, t.build = opts, nil
	})
	return t.loaded
}

// Short returns the row for letter c, or nil.
func (t *table) Short(c byte) *option {
	opts := t.rows()
	if i := t.byShort[c]; i != 0 {
		return &opts[i-1]
	}
	return nil
}

// LookupLong resolves a long option name the way glibc getopt_long does:
// an exact name wins; otherwise a unique prefix, where candidates that are
// all aliases of one another count as unique. It returns the row (nil when
// none or ambiguous), whether name was an abbreviation, and, when the
// prefix is ambiguous, every candidate.
func (t *table) LookupLong(name string) (opt *option, abbrev bool, ambiguous []*option) {
	var first *option
	distinct := false
	opts := t.rows()
	for i := range opts {
		o := &opts[i]
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
	for i := range opts {
		o := &opts[i]
		if o.Long != "" && strings.HasPrefix(o.Long, name) {
			ambiguous = append(ambiguous, o)
		}
	}
	return nil, false, ambiguous
}

// ordering is getopt's treatment of operands before options.
type ordering uint8

const (
	// permute scans every element: options after operands are still
	// options (GNU default; also RETURN_IN_ORDER, "-" optstrings).
	permute ordering = iota
	// requireOrder stops at the first operand (POSIXLY_CORRECT or a "+"
	// optstring).
	requireOrder
)

// eventKind tells options from operands in a parse.
type eventKind uint8

// Event kinds.
const (
	optionEvent eventKind = iota
	operandEvent
)

// event is one parsed option or operand. Index is the argv position of
// the word that holds the option (or the operand); a value taken from the
// following element is at ValueIndex, which equals Index when the value is
// attached and is -1 when there is no value.
type event struct {
	Kind       eventKind
	Opt        *option
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
	// Candidates are every option an ambiguous prefix may mean, in a
	// tolerant parse (Opt is then the first that takes a value, or the
	// first); an unknown option there has a nil Opt.
	Candidates []*option
}

// parseErrorKind classifies grammar errors.
type parseErrorKind uint8

// Grammar error kinds.
const (
	parseUnknown parseErrorKind = iota
	parseAmbiguous
	parseMissingValue
	parseUnexpectedValue
)

// parseError is the first grammar error of a parse; the real program
// exits with a usage error there.
type parseError struct {
	Kind       parseErrorKind
	Index      int
	Word       string
	Name       string
	Candidates []*option // for ErrAmbiguous
	Program    string
}

// Error describes the error with the argv position and word.
func (e *parseError) Error() string {
	switch e.Kind {
	case parseAmbiguous:
		names := make([]string, len(e.Candidates))
		for i, c := range e.Candidates {
			names[i] = c.Display()
		}
		return fmt.Sprintf("argument %d %q: %s is ambiguous in %s (%s)", e.Index, e.Word, e.Name, e.Program, strings.Join(names, ", "))
	case parseMissingValue:
		return fmt.Sprintf("argument %d %q: %s requires a value in %s", e.Index, e.Word, e.Name, e.Program)
	case parseUnexpectedValue:
		return fmt.Sprintf("argument %d %q: %s takes no value in %s", e.Index, e.Word, e.Name, e.Program)
	default:
		return fmt.Sprintf("argument %d %q: %s is not a known %s option", e.Index, e.Word, e.Name, e.Program)
	}
}

// parsed is the result of a parse: every option and operand in argv
// order, the first grammar error (parsing stops there), and the index of
// the unconsumed "--" that ended options (-1 when none).
type parsed struct {
	Events []event
	Err    *parseError
	End    int
	// tolerant parses go on past grammar errors (parseTolerant).
	tolerant bool
}

// Parse parses argv[start:] with the GNU getopt_long grammar: short
// clusters with attached or following values, long options with "=" or a
// following value, unique-prefix abbreviation, "--" ending options, "-"
// as an operand. A value consumed by an option is never rescanned.
func (t *table) Parse(argv []string, start int, order ordering) parsed {
	return t.parse(parsed{End: -1, Events: make([]event, 0, len(argv))}, argv, start, order)
}

// parseTolerant parses like Parse but goes on past grammar errors, the
// way a reader of the command line must who cannot stop where the
// program would (the audit log's redaction: a credential after an
// unknown option is still a credential). An ambiguous prefix becomes an
// event with its Candidates, an unknown long option one with a nil Opt
// (its "=value" attached, never the next element), and an unknown letter
// of a cluster is skipped. Err is the first error.
func (t *table) parseTolerant(argv []string, start int, order ordering) parsed {
	return t.parse(parsed{End: -1, Events: make([]event, 0, len(argv)), tolerant: true}, argv, start, order)
}

func (t *table) parse(p parsed, argv []string, start int, order ordering) parsed {
	for i := start; i < len(argv); i++ {
		w := argv[i]
		switch {
		case w == "--":
			p.End = i
			p.operands(argv, i+1)
			return p
		case len(w) < 2 || w[0] != '-':
			p.Events = append(p.Events, event{Kind: operandEvent, Index: i, Word: w, ValueIndex: -1})
			if order == requireOrder {
				p.operands(argv, i+1)
				return p
			}
			continue
		case w[1] == '-':
			i = t.long(&p, argv, i, i, w[2:], "--", "")
		default:
			i = t.cluster(&p, argv, i)
		}
		if p.Err != nil && !p.tolerant {
			return p
		}
	}
	return p
}

// fail records a grammar error: the first one, in a tolerant parse.
func (p *parsed) fail(e *parseError) {
	if p.Err == nil || !p.tolerant {
		p.Err = e
	}
}

func (p *parsed) operands(argv []string, from int) {
	for j := from; j < len(argv); j++ {
		p.Events = append(p.Events, event{Kind: operandEvent, Index: j, Word: argv[j], ValueIndex: -1})
	}
}

// long parses the long option text spec (name[=value]) found in argv[at]
// (for "-W name" the option word is argv[idx] and the text is argv[at]).
// It returns the last argv index it consumed.
func (t *table) long(p *parsed, argv []string, idx, at int, spec, prefix, via string) int {
	name, value, hasValue := strings.Cut(spec, "=")
	opt, abbrev, amb := t.LookupLong(name)
	word := argv[idx]
	spelled := prefix + name
	switch {
	case amb != nil:
		p.fail(&parseError{Kind: parseAmbiguous, Index: idx, Word: word, Name: spelled, Candidates: amb, Program: t.Program})
		if !p.tolerant {
			return at
		}
		opt, abbrev = amb[0], true
		for _, c := range amb {
			if c.Arg != noArg {
				opt = c
				break
			}
		}
	case opt == nil:
		p.fail(&parseError{Kind: parseUnknown, Index: idx, Word: word, Name: spelled, Program: t.Program})
		if p.tolerant {
			ev := event{Kind: optionEvent, Index: idx, Word: word, Name: spelled, ValueIndex: -1, Via: via}
			if hasValue {
				ev.Value, ev.HasValue, ev.ValueIndex = value, true, at
			}
			p.Events = append(p.Events, ev)
		}
		return at
	}
	ev := event{Kind: optionEvent, Opt: opt, Index: idx, Word: word, Name: spelled, Abbrev: abbrev, ValueIndex: -1, Via: via, Candidates: amb}
	switch {
	case hasValue && opt.Arg == noArg:
		p.fail(&parseError{Kind: parseUnexpectedValue, Index: idx, Word: word, Name: spelled, Program: t.Program})
		p.Events = append(p.Events, ev)
		return at
	case hasValue:
		ev.Value, ev.HasValue, ev.ValueIndex = value, true, at
	case opt.Arg == requiredArg:
		if at+1 >= len(argv) {
			p.fail(&parseError{Kind: parseMissingValue, Index: idx, Word: word, Name: spelled, Program: t.Program})
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
func (t *table) cluster(p *parsed, argv []string, i int) int {
	w := argv[i]
	multi := len(w) > 2
	for j := 1; j < len(w); j++ {
		c := w[j]
		opt := t.Short(c)
		if opt == nil {
			p.fail(&parseError{Kind: parseUnknown, Index: i, Word: w, Name: "-" + string(c), Program: t.Program})
			if p.tolerant {
				continue
			}
			return i
		}
		rest := w[j+1:]
		if c == 'W' && t.LongW {
			if rest != "" {
				return t.long(p, argv, i, i, rest, "-W ", "-W")
			}
			if i+1 >= len(argv) {
				p.fail(&parseError{Kind: parseMissingValue, Index: i, Word: w, Name: "-W", Program: t.Program})
				return i
			}
			return t.long(p, argv, i, i+1, argv[i+1], "-W ", "-W")
		}
		ev := event{Kind: optionEvent, Opt: opt, Index: i, Word: w, Name: "-" + string(c), Cluster: multi, ValueIndex: -1}
		switch opt.Arg {
		case noArg:
			p.Events = append(p.Events, ev)
			continue
		case optionalArg:
			if rest != "" {
				ev.Value, ev.HasValue, ev.ValueIndex = rest, true, i
			}
		case requiredArg:
			switch {
			case rest != "":
				ev.Value, ev.HasValue, ev.ValueIndex = rest, true, i
			case i+1 < len(argv):
				i++
				ev.Value, ev.HasValue, ev.ValueIndex = argv[i], true, i
			default:
				p.fail(&parseError{Kind: parseMissingValue, Index: i, Word: w, Name: ev.Name, Program: t.Program})
				p.Events = append(p.Events, ev)
				return i
			}
		}
		p.Events = append(p.Events, ev)
		return i
	}
	return i
}
