package audit

import (
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules"
)

// Argv redacts a request argv into a new slice. Each program in it is read
// with its own grammar (argvrules.Secrets): the stages between "|" words
// (their "<", ">" and ">>" redirections set aside), the whole argv as one
// command line when it holds such words (execute_command passes them as
// data), the program each wrapper stage runs as the wrapper's grammar
// reads it (the one the policy judges with: timeout, env, xargs ...), and
// the rest of the argv from every word that names a program with a
// grammar (sudo, sshpass, docker exec run it). Every
// credential any reading finds is redacted in the form its grammar gives
// (the password of curl's "user:password", the value of --password=V in
// any spelling the program accepts). Then, for the words no grammar read
// as an option of its own, the generic option rule: the value of an
// option whose name is secret-like ("--api-key V", "-token=V"), unless
// the name ends in a reference word (--password-file) or the value names
// a file. Then every element goes through the value rules (Scalar).
func Argv(argv []string) []string {
	if argv == nil {
		return nil
	}
	m := newMarks(len(argv))
	for _, rd := range readings(argv) {
		m.read(argv, rd.idx, rd.own)
	}
	for i, a := range argv {
		if m.own[i] {
			continue
		}
		if off, ok := genericAttached(a); ok {
			m.add(i, argvrules.Secret{Index: i, Offset: off, Form: argvrules.SecretWhole, Name: -1})
		} else if i+1 < len(argv) && genericTakesNext(a) && !pathLike(argv[i+1]) {
			m.add(i+1, argvrules.Secret{Index: i + 1, Form: argvrules.SecretWhole, Name: -1})
		}
	}
	out := make([]string, len(argv))
	for i, a := range argv {
		for _, sec := range m.secrets[i] {
			if sec.Name >= 0 && !SecretLike(argv[sec.Name]) {
				continue
			}
			a = maskForm(a, sec, argv[i])
		}
		out[i] = element(a)
	}
	return out
}

// element applies the value rules to an argv element: to the value of
// an option word that has one attached ("--header=Authorization: ..."),
// else to the whole; then the length cap.
func element(a string) string {
	if _, off, ok := optionName(a); ok && off > 0 && off < len(a) {
		return Capped(a[:off]+valueRules(a[off:]), maxPlain)
	}
	return Scalar(a)
}

// reading is one way of reading (part of) an argv as a command line: idx
// maps its words to argv indices; own says whether the words its
// grammar knows are exempt from the generic option rule (only the
// stages, the readings a shell would make).
type reading struct {
	idx []int
	own bool
}

// readings are the command lines argv may hold (see Argv).
func readings(argv []string) []reading {
	out := make([]reading, 0, 2)
	operators := false
	stage := make([]int, 0, len(argv))
	flush := func() {
		if len(stage) > 0 {
			out = append(out, reading{idx: stage, own: true})
			out = append(out, wrappedReadings(argv, stage)...)
		}
		stage = stage[len(stage):]
	}
	for i := 0; i < len(argv); i++ {
		switch argv[i] {
		case "|":
			operators = true
			flush()
		case "<", ">", ">>":
			operators = true
			i++ // the redirection's target
		default:
			stage = append(stage, i)
		}
	}
	flush()
	if operators {
		out = append(out, reading{idx: identity(0, len(argv))})
	}
	for i := 1; i < len(argv); i++ {
		if a := argv[i]; a != "" && a[0] != '-' && argvrules.HasSecretGrammar(path.Base(a)) {
			out = append(out, reading{idx: identity(i, len(argv))})
		}
	}
	return out
}

// maxWrapped bounds the wrappers read inside one another, as the policy
// does.
const maxWrapped = 8

// wrappedReadings are the programs a wrapper stage runs, read with the
// wrapper's grammar (argvrules.WrappedAt, the one the policy judges
// with): timeout 5 curl -u U:P is curl's reading from "curl", nested
// wrappers included.
func wrappedReadings(argv []string, stage []int) []reading {
	var out []reading
	for depth := 0; depth < maxWrapped; depth++ {
		words := make([]string, len(stage))
		for k, i := range stage {
			words[k] = argv[i]
		}
		at := argvrules.WrappedAt(words)
		if at <= 0 {
			return out
		}
		stage = stage[at:]
		out = append(out, reading{idx: stage, own: true})
	}
	return out
}

func identity(from, to int) []int {
	idx := make([]int, 0, to-from)
	for i := from; i < to; i++ {
		idx = append(idx, i)
	}
	return idx
}

// marks are the credentials found in each argv element, and the words a
// grammar read as options of its own.
type marks struct {
	secrets [][]argvrules.Secret
	own     []bool
}

func newMarks(n int) *marks {
	return &marks{secrets: make([][]argvrules.Secret, n), own: make([]bool, n)}
}

func (m *marks) add(i int, s argvrules.Secret) { m.secrets[i] = append(m.secrets[i], s) }

// read adds what argvrules.Secrets finds in the command line argv[idx...].
func (m *marks) read(argv []string, idx []int, own bool) {
	sub := make([]string, len(idx))
	for k, i := range idx {
		sub[k] = argv[i]
	}
	r := argvrules.Secrets(sub)
	for _, s := range r.Secrets {
		s.Index = idx[s.Index]
		if s.Name >= 0 {
			s.Name = idx[s.Name]
		}
		m.add(s.Index, s)
	}
	if own {
		for k, o := range r.Own {
			if o {
				m.own[idx[k]] = true
			}
		}
	}
}

// maskForm redacts in a, the element as redacted so far (orig as sent),
// the credential sec describes. Offsets are orig's; an earlier mask has
// only ever replaced a suffix, so a prefix of orig is still a's.
func maskForm(a string, sec argvrules.Secret, orig string) string {
	if sec.Offset > len(orig) || !strings.HasPrefix(a, orig[:sec.Offset]) {
		return a
	}
	head, v := orig[:sec.Offset], orig[sec.Offset:]
	if v == "" {
		return a
	}
	cut := func(sep byte) string {
		if i := strings.IndexByte(v, sep); i >= 0 && i+1 < len(v) {
			return head + v[:i+1] + Redacted
		}
		return a
	}
	switch sec.Form {
	case argvrules.SecretAfterColon:
		return cut(':')
	case argvrules.SecretAfterPercent:
		return cut('%')
	case argvrules.SecretAfterEquals:
		return cut('=')
	case argvrules.SecretPassArg:
		if strings.HasPrefix(v, "pass:") && len(v) > 5 {
			return head + "pass:" + Redacted
		}
		return a
	case argvrules.SecretLogon:
		return head + maskLogon(v)
	case argvrules.SecretCookie:
		if !strings.Contains(v, "=") {
			return a // a cookie file
		}
		return head + maskCookies(v)
	}
	return head + Redacted
}

// maskLogon masks the password of "user/password@connect".
func maskLogon(v string) string {
	slash := strings.IndexByte(v, '/')
	if slash < 0 || v == "/" || strings.EqualFold(v, "/nolog") {
		return v
	}
	rest := v[slash+1:]
	end := strings.IndexByte(rest, '@')
	if strings.HasPrefix(rest, `"`) {
		if q := strings.IndexByte(rest[1:], '"'); q >= 0 {
			end = q + 2
		}
	}
	if end < 0 {
		end = len(rest)
	}
	if end == 0 {
		return v
	}
	return v[:slash+1] + Redacted + rest[end:]
}

// maskCookies masks every value of "name=value; name2=value2".
func maskCookies(v string) string {
	parts := strings.Split(v, ";")
	for i, p := range parts {
		if name, val, ok := strings.Cut(p, "="); ok && strings.TrimSpace(val) != "" {
			parts[i] = name + "=" + Redacted
		}
	}
	return strings.Join(parts, ";")
}

// optionName splits an option word ("--name", "-name", "--name=value")
// into its name and the offset of its attached value (-1 for none); ok
// is false for words that are not options.
func optionName(w string) (name string, off int, ok bool) {
	if len(w) < 2 || w[0] != '-' || w == "--" {
		return "", -1, false
	}
	s := strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-")
	name, _, has := strings.Cut(s, "=")
	if name == "" || len(name) > maxName {
		return "", -1, false
	}
	if has {
		return name, len(w) - len(s) + len(name) + 1, true
	}
	return name, -1, true
}

// referenceWords end option names whose values say where a secret is, or
// what kind it is, not the secret itself (--password-file,
// --passphrase-fd, --token-url, --key-id); leadWords start names of flags
// (--no-password, --ask-password, --with-token).
var (
	referenceWords = map[string]bool{"file": true, "files": true, "path": true, "dir": true, "directory": true, "fd": true,
		"stdin": true, "env": true, "type": true, "format": true, "form": true, "length": true, "size": true, "bits": true,
		"id": true, "name": true, "hint": true, "cmd": true, "command": true, "helper": true, "program": true, "prompt": true,
		"ttl": true, "expiry": true, "url": true, "uri": true, "endpoint": true, "policy": true, "alg": true, "algorithm": true, "mode": true}
	leadWords = map[string]bool{"no": true, "ask": true, "with": true, "use": true, "prompt": true}
)

// secretOption reports an option name the generic rule takes a secret
// after.
func secretOption(name string) bool {
	return SecretLike(name) && !referenceWords[lastWord(name)] && !leadWords[firstWord(name)]
}

// genericAttached is the offset of the secret value attached to an
// option word of a program whose grammar does not know it ("--token=V",
// "-api-key=V"), unless the value names a file.
func genericAttached(w string) (int, bool) {
	name, off, ok := optionName(w)
	if !ok || off < 0 || off >= len(w) || !secretOption(name) || pathLike(w[off:]) || w[off:] == Redacted {
		return 0, false
	}
	return off, true
}

// genericTakesNext reports an option word without a value whose name is
// secret-like and at least two letters ("--password V", "-token V"):
// the next element is taken as its value.
func genericTakesNext(w string) bool {
	name, off, ok := optionName(w)
	return ok && off < 0 && len(name) >= 2 && secretOption(name)
}
