package git

import (
	"sort"
	"strings"
	"sync"

	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// git-send-email.perl (git 2.53) parses its arguments with Getopt::Long in
// pass_through mode, three times over the remaining argv: the identity
// options, then the help/alias-listing options, then the main table. The
// model below follows Getopt::Long's documented rules: option names are
// case-insensitive and may be written with "--", "-" or (unless
// POSIXLY_CORRECT is set) "+"; a unique prefix abbreviates, an exact name
// wins; "!" options also accept no-NAME and noNAME; a mandatory string takes
// the next argument whatever it is; an optional string or integer takes it
// only when it does not look like an option; tokens that fail (unknown,
// ambiguous, flags given "=value", empty or missing mandatory values,
// invalid integers) stay in argv for the next pass; "--" ends processing and
// stays in argv. In the default permute mode operands are skipped over; in
// POSIXLY_CORRECT's require_order mode processing stops at the first operand
// or unrecognised token. Both modes are simulated and a selector reachable
// in either is refused.

// geoKind is a Getopt::Long value type.
type geoKind uint8

const (
	geoFlag geoKind = iota
	geoStrReq
	geoStrOpt
	geoIntReq
	geoIntOpt
)

// geoOpt is one Getopt::Long option: its canonical name, its aliases and
// kind; neg marks "!" (negatable); selector marks a program selector.
type geoOpt struct {
	names    []string
	kind     geoKind
	neg      bool
	selector string // "cmd" (always refused) or "smtp-server" (value-checked)
}

var sendEmailPass1 = []geoOpt{
	{names: []string{"identity"}, kind: geoStrReq},
	{names: []string{"no-identity"}},
}

var sendEmailPass2 = []geoOpt{
	{names: []string{"h"}},
	{names: []string{"dump-aliases"}},
	{names: []string{"translate-aliases"}},
}

// sendEmailPass3 is git-send-email.perl's %options (git 2.53).
var sendEmailPass3 = []geoOpt{
	{names: []string{"sender", "from"}, kind: geoStrReq},
	{names: []string{"in-reply-to"}, kind: geoStrReq},
	{names: []string{"reply-to"}, kind: geoStrReq},
	{names: []string{"subject"}, kind: geoStrReq},
	{names: []string{"to"}, kind: geoStrReq},
	{names: []string{"to-cmd"}, kind: geoStrReq, selector: "cmd"},
	{names: []string{"no-to"}},
	{names: []string{"cc"}, kind: geoStrReq},
	{names: []string{"no-cc"}},
	{names: []string{"bcc"}, kind: geoStrReq},
	{names: []string{"no-bcc"}},
	{names: []string{"chain-reply-to"}, neg: true},
	{names: []string{"sendmail-cmd"}, kind: geoStrReq, selector: "cmd"},
	{names: []string{"smtp-server"}, kind: geoStrReq, selector: "smtp-server"},
	{names: []string{"smtp-server-option"}, kind: geoStrReq},
	{names: []string{"smtp-server-port"}, kind: geoStrReq},
	{names: []string{"smtp-user"}, kind: geoStrReq},
	{names: []string{"smtp-pass"}, kind: geoStrOpt},
	{names: []string{"smtp-ssl"}},
	{names: []string{"smtp-encryption"}, kind: geoStrReq},
	{names: []string{"smtp-ssl-cert-path"}, kind: geoStrReq},
	{names: []string{"smtp-debug"}, kind: geoIntOpt},
	{names: []string{"smtp-domain"}, kind: geoStrOpt},
	{names: []string{"smtp-auth"}, kind: geoStrReq},
	{names: []string{"no-smtp-auth"}},
	{names: []string{"imap-sent-folder"}, kind: geoStrReq},
	{names: []string{"use-imap-only"}, neg: true},
	{names: []string{"annotate"}, neg: true},
	{names: []string{"compose"}},
	{names: []string{"quiet"}},
	{names: []string{"cc-cmd"}, kind: geoStrReq, selector: "cmd"},
	{names: []string{"header-cmd"}, kind: geoStrReq, selector: "cmd"},
	{names: []string{"no-header-cmd"}},
	{names: []string{"suppress-from"}, neg: true},
	{names: []string{"suppress-cc"}, kind: geoStrReq},
	{names: []string{"signed-off-cc", "signed-off-by-cc"}, neg: true},
	{names: []string{"cc-cover"}, neg: true},
	{names: []string{"to-cover"}, neg: true},
	{names: []string{"confirm"}, kind: geoStrReq},
	{names: []string{"dry-run"}},
	{names: []string{"envelope-sender"}, kind: geoStrReq},
	{names: []string{"thread"}, neg: true},
	{names: []string{"validate"}, neg: true},
	{names: []string{"transfer-encoding"}, kind: geoStrReq},
	{names: []string{"mailmap"}, neg: true},
	{names: []string{"use-mailmap"}, neg: true},
	{names: []string{"format-patch"}, neg: true},
	{names: []string{"8bit-encoding"}, kind: geoStrReq},
	{names: []string{"compose-encoding"}, kind: geoStrReq},
	{names: []string{"force"}},
	{names: []string{"xmailer"}, neg: true},
	{names: []string{"batch-size"}, kind: geoIntReq},
	{names: []string{"relogin-delay"}, kind: geoIntReq},
	{names: []string{"git-completion-helper"}},
	{names: []string{"v"}, kind: geoStrReq},
	{names: []string{"outlook-id-fix"}, neg: true},
}

// geoTok is an argv element still in play, with its argv index.
type geoTok struct {
	s   string
	idx int
}

// geoHit is a selected selector (or an ambiguous abbreviation including
// one) found by a pass.
type geoHit struct {
	tok      geoTok
	opt      *geoOpt
	value    string
	hasValue bool
	amb      bool
}

// geoTable maps every accepted (lower-case) spelling to its option; keys
// holds the spellings sorted, so abbreviation lookups are deterministic.
type geoTable struct {
	exact map[string]*geoOpt
	keys  []string
}

func geoNames(opts []geoOpt) *geoTable {
	t := &geoTable{exact: make(map[string]*geoOpt)}
	for k := range opts {
		o := &opts[k]
		for _, n := range o.names {
			t.exact[n] = o
			if o.neg {
				t.exact["no-"+n] = o
				t.exact["no"+n] = o
			}
		}
	}
	for n := range t.exact {
		t.keys = append(t.keys, n)
	}
	sort.Strings(t.keys)
	return t
}

var (
	geoPass1 = sync.OnceValue(func() *geoTable { return geoNames(sendEmailPass1) })
	geoPass2 = sync.OnceValue(func() *geoTable { return geoNames(sendEmailPass2) })
	geoPass3 = sync.OnceValue(func() *geoTable { return geoNames(sendEmailPass3) })
)

// geoSplit recognises an option-looking token: it returns the name (lower
// case) and attached value.
func geoSplit(s string, plus bool) (name, val string, hasVal, ok bool) {
	var body string
	switch {
	case strings.HasPrefix(s, "--"):
		body = s[2:]
	case strings.HasPrefix(s, "-"):
		body = s[1:]
	case plus && strings.HasPrefix(s, "+"):
		body = s[1:]
	default:
		return "", "", false, false
	}
	if body == "" {
		return "", "", false, false
	}
	name, val, hasVal = strings.Cut(body, "=")
	return strings.ToLower(name), val, hasVal, true
}

// geoLookup resolves name against names: exact, else unique prefix (by
// option, so aliases and negations of one option count once).
func geoLookup(name string, names *geoTable) (opt *geoOpt, neg bool, amb []*geoOpt) {
	if o, ok := names.exact[name]; ok {
		return o, o.neg && !contains(o.names, name), nil
	}
	seen := map[*geoOpt]bool{}
	for _, n := range names.keys {
		o := names.exact[n]
		if strings.HasPrefix(n, name) && !seen[o] {
			seen[o] = true
			amb = append(amb, o)
			neg = o.neg && !contains(o.names, n)
		}
	}
	switch len(amb) {
	case 0:
		return nil, false, nil
	case 1:
		return amb[0], neg, nil
	}
	return nil, false, amb
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func isGeoInt(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// geoPass runs one GetOptions call over toks and returns the residual argv
// and the selectors it selected.
func geoPass(toks []geoTok, names *geoTable, permute bool) ([]geoTok, []geoHit) {
	var rest []geoTok
	var hits []geoHit
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.s == "--" {
			return append(rest, toks[i:]...), hits
		}
		name, val, hasVal, isOpt := geoSplit(t.s, permute)
		if !isOpt {
			if !permute {
				return append(rest, toks[i:]...), hits
			}
			rest = append(rest, t)
			continue
		}
		opt, neg, amb := geoLookup(name, names)
		if len(amb) > 0 {
			for _, o := range amb {
				if o.selector != "" {
					hits = append(hits, geoHit{tok: t, opt: o, amb: true})
					break
				}
			}
		}
		consumed, ok := geoTake(opt, neg, hasVal, val, toks, i, permute)
		if opt != nil && !ok && opt.selector != "" && !neg && opt.kind != geoFlag {
			// An empty or missing value leaves the token residual in
			// Getopt; the selector is refused all the same.
			hits = append(hits, geoHit{tok: t, opt: opt, value: val, hasValue: hasVal})
		}
		if opt == nil || !ok {
			if !permute {
				return append(rest, toks[i:]...), hits
			}
			rest = append(rest, t)
			continue
		}
		if opt.selector != "" && !neg {
			h := geoHit{tok: t, opt: opt}
			if hasVal {
				h.value, h.hasValue = val, true
			} else if consumed > 0 {
				h.value, h.hasValue = toks[i+1].s, true
			}
			hits = append(hits, h)
		}
		i += consumed
	}
	return rest, hits
}

// geoTake decides whether option opt at toks[i] is processed and how many
// following tokens its value consumes. ok=false leaves the token residual.
func geoTake(opt *geoOpt, neg, hasVal bool, val string, toks []geoTok, i int, permute bool) (int, bool) {
	if opt == nil {
		return 0, false
	}
	if opt.kind == geoFlag || neg {
		return 0, !hasVal
	}
	next, haveNext := "", i+1 < len(toks)
	if haveNext {
		next = toks[i+1].s
	}
	switch opt.kind {
	case geoStrReq:
		if hasVal {
			return 0, val != ""
		}
		return 1, haveNext
	case geoIntReq:
		if hasVal {
			return 0, isGeoInt(val)
		}
		return 1, haveNext && isGeoInt(next)
	case geoStrOpt:
		if hasVal || !haveNext {
			return 0, true
		}
		if _, _, _, looks := geoSplit(next, permute); next == "--" || looks {
			return 0, true
		}
		return 1, true
	case geoIntOpt:
		if hasVal {
			return 0, isGeoInt(val)
		}
		if haveNext && isGeoInt(next) {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// smtpServerIsProgram applies the --smtp-server value rule: missing, empty,
// or beginning with "/", "\" or an ASCII drive letter and colon.
func smtpServerIsProgram(h geoHit) bool {
	v := h.value
	if !h.hasValue || v == "" || v[0] == '/' || v[0] == '\\' {
		return true
	}
	return len(v) >= 2 && v[1] == ':' && isASCIILetter(v[0])
}

// checkSendEmail runs the three passes in both modes.
func checkSendEmail(args []string, base int, g globals) *refusal.Rejection {
	toks := make([]geoTok, len(args))
	for k, a := range args {
		toks[k] = geoTok{s: a, idx: base + k}
	}
	for _, permute := range []bool{true, false} {
		rest, _ := geoPass(toks, geoPass1(), permute)
		rest, _ = geoPass(rest, geoPass2(), permute)
		_, hits := geoPass(rest, geoPass3(), permute)
		for _, h := range hits {
			if rej := sendEmailVerdict(h); rej != nil {
				return rej
			}
		}
	}
	return nil
}

func sendEmailVerdict(h geoHit) *refusal.Rejection {
	name := "--" + h.opt.names[0]
	switch {
	case h.amb:
		return ruleAmbiguous.Reject(h.tok.idx, h.tok.s,
			"%q is an ambiguous git send-email abbreviation that includes %s; refused conservatively",
			h.tok.s, name)
	case h.opt.selector == "cmd" && (!h.hasValue || h.value == ""):
		return ruleSendEmail.Reject(h.tok.idx, h.tok.s,
			"%q names git send-email's program selector %s; it is refused even with an empty or missing value",
			h.tok.s, name)
	case h.opt.selector == "cmd":
		return ruleSendEmail.Reject(h.tok.idx, h.tok.s,
			"%q selects git send-email's %s, which runs a program", h.tok.s, name)
	case smtpServerIsProgram(h):
		return ruleSendEmail.Reject(h.tok.idx, h.tok.s,
			"%q gives --smtp-server a missing, empty or path-like value (%q), which git send-email runs as a sendmail program",
			h.tok.s, h.value)
	}
	return nil
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
