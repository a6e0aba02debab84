package argvrules

import (
	"path"
	"strings"
)

// Which arguments of a command line are credentials is a fact of the
// program's grammar, like which ones run programs: the value of curl's
// -u in every spelling curl accepts, the operand after "configure set
// aws_secret_access_key", the part of sqlplus's logon between "/" and
// "@". Secrets reads one stage's argv with its program's grammar (the
// family's option table where it has a getopt one, a redaction table
// otherwise: secrettables.go) and says where the credentials are; what
// to write instead is the audit log's business.

// SecretForm says which part of a value is the credential.
type SecretForm uint8

// Forms of credentials.
const (
	// SecretWhole: the whole value (--password=V, -pV, docker login -p V).
	SecretWhole SecretForm = iota + 1
	// SecretAfterColon: "user:password", the part after the first ":"
	// (curl -u, -U; curl -E "cert:password"); a value without ":" is a
	// user or a file name and no secret.
	SecretAfterColon
	// SecretAfterPercent: "user%password" (smbclient -U).
	SecretAfterPercent
	// SecretPassArg: an OpenSSL pass phrase argument (openssl-passphrase-options(1)):
	// only "pass:PHRASE" holds one; env:VAR, file:PATH, fd:N and stdin
	// name where it is.
	SecretPassArg
	// SecretLogon: "user/password@connect" (sqlplus), the part between
	// the first "/" and the next "@"; "/" and "/nolog" hold none.
	SecretLogon
	// SecretCookie: "name=value; name2=value2", every value (curl -b); a
	// value without "=" is a cookie file.
	SecretCookie
	// SecretAfterEquals: "key=value", the value whatever the key
	// (kubectl create secret generic --from-literal).
	SecretAfterEquals
)

// Secret is one credential in an argv: argv[Index][Offset:] holds a value
// of the given form. When Name is not -1 the value is a credential only if
// argv[Name], a setting's name, says so (git config NAME VALUE): the
// caller judges the name as it judges option names.
type Secret struct {
	Index, Offset int
	Form          SecretForm
	Name          int
}

// Reading is what Secrets found in one stage's argv.
type Reading struct {
	Secrets []Secret
	// Own marks the words the grammar read as options of its own (sort
	// --key=2, curl --key FILE, mysql -pPW): their names say nothing
	// about their values beyond what Secrets says. nil when there are
	// none.
	Own []bool
	// Grammar names the grammar argv was read with; "" when its program
	// has none here (the caller's generic rules are all there is).
	Grammar string
}

// secretReader reads one argv (argv[0] the program) for credentials.
type secretReader func(argv []string) Reading

// Secrets reads argv, one stage (argv[0] the program, by basename), with
// its program's grammar and returns where its credentials are. It never
// fails: options it does not know are read as the program would most
// plausibly read them (an unknown option takes no value; after a grammar
// error the reading goes on, as a credential after a mistake is still a
// credential).
func Secrets(argv []string) Reading {
	if len(argv) == 0 {
		return Reading{}
	}
	base := path.Base(argv[0])
	if f := FamilyOf(base); f != nil && f.Secrets != nil {
		return f.Secrets(argv)
	}
	if r := redactionTables()[base]; r != nil {
		return r(argv)
	}
	return Reading{}
}

// HasSecretGrammar reports whether Secrets reads program (a basename)
// with a grammar of its own: a word naming one in another program's
// operands (sudo, timeout, docker exec, sshpass ... run it) is worth
// reading as the start of its command line.
func HasSecretGrammar(program string) bool {
	if f := FamilyOf(program); f != nil && f.Secrets != nil {
		return true
	}
	return redactionTables()[program] != nil
}

// getoptSecrets reads argv with a family's getopt_long table, past
// grammar errors (parseTolerant), where secrets names the options (by
// optKey) whose values are credentials. An ambiguous abbreviation is a
// credential option when any of its candidates is; abbreviations are
// followed even for programs that accept none (curl): the value is then
// a mistyped credential.
func getoptSecrets(name string, t *table, order ordering, secrets map[string]SecretForm) secretReader {
	return func(argv []string) Reading {
		p := t.parseTolerant(argv, 1, order)
		r := Reading{Grammar: name, Own: make([]bool, len(argv))}
		for i := range p.Events {
			ev := &p.Events[i]
			if ev.Kind != optionEvent {
				continue
			}
			form := SecretForm(0)
			if ev.Opt != nil {
				form = secrets[optKey(ev.Opt)]
			}
			for _, c := range ev.Candidates {
				if f := secrets[optKey(c)]; f != 0 && form == 0 {
					form = f
				}
			}
			if form != 0 && ev.HasValue {
				r.Secrets = append(r.Secrets, Secret{Index: ev.ValueIndex, Offset: valueOffset(ev), Form: form, Name: -1})
			}
			if form != 0 || (ev.Opt != nil && ev.Candidates == nil) {
				r.Own[ev.Index] = true
			}
		}
		return r
	}
}

// valueOffset is where ev's value starts in its word.
func valueOffset(ev *event) int {
	if ev.ValueIndex == ev.Index {
		return len(ev.Word) - len(ev.Value)
	}
	return 0
}

// sparseTable is the redaction grammar of a program without a getopt
// table here: the options whose values are credentials, the other
// options whose values must be skipped to find the operands, and rules
// for credentials among the operands. Options it does not name take no
// value.
type sparseTable struct {
	grammar string
	// long are long options (without dashes) whose values are
	// credentials: "--name=V", "--name V".
	long map[string]SecretForm
	// short are letters whose value, attached or the next element, is a
	// credential; attached are letters whose value is attached only
	// ("-pPW"; "-p" alone prompts).
	short, attached map[byte]SecretForm
	// bareNext: a bare "-p" of these letters also takes the next
	// element when it is not an option, conservatively (mysql reads
	// "-p pw" as a prompt and a database named pw, a password typed in
	// the wrong place).
	bareNext string
	// takes are the other short letters that take a value; takesLong the
	// other long options that do.
	takes     string
	takesLong map[string]bool
	// plain are known long options without credentials: Own.
	plain map[string]bool
	// abbrev is the shortest prefix of a credential option's name the
	// program accepts as it (argparse, nopt, my_getopt), 0 for none.
	abbrev int
	// oneDash: long options are spelled with one dash ("-passin V",
	// "-storepass V") and there are no clusters; switches: a word is one
	// letter and its attached value ("-pPW", "-mx=9": 7-Zip, RAR).
	oneDash, switches bool
	// operands finds credentials among the operands (their argv
	// indices, in order).
	operands func(argv []string, ops []int) []Secret
	// commands are the tables of subcommands, by the operand words that
	// name them ("login", "secret set"), read after them.
	commands map[string]*sparseTable
}

// read implements secretReader for t.
func (t *sparseTable) read(argv []string) Reading {
	r := Reading{Grammar: t.grammar, Own: make([]bool, len(argv))}
	t.scan(argv, 1, &r)
	return r
}

// scan reads argv[from:] into r and returns the operands' indices.
func (t *sparseTable) scan(argv []string, from int, r *Reading) []int {
	var ops []int
	// secret records a credential at argv[i][off:]; an attached one
	// (off > 0) is in the option's own word.
	secret := func(i, off int, f SecretForm) {
		r.Secrets = append(r.Secrets, Secret{Index: i, Offset: off, Form: f, Name: -1})
	}
	own := func(i int) { r.Own[i] = true }
	for i := from; i < len(argv); i++ {
		w := argv[i]
		switch {
		case w == "--":
			for j := i + 1; j < len(argv); j++ {
				ops = append(ops, j)
			}
			i = len(argv)
		case len(w) < 2 || w[0] != '-':
			ops = append(ops, i)
		case t.switches:
			if f := t.attached[w[1]]; f != 0 && len(w) > 2 {
				secret(i, 2, f)
				own(i)
			}
		case strings.HasPrefix(w, "--") || t.oneDash:
			name, _, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
			switch f := t.lookupLong(name); {
			case f != 0 && hasValue:
				secret(i, strings.IndexByte(w, '=')+1, f)
				own(i)
			case f != 0:
				own(i)
				if i+1 < len(argv) {
					i++
					secret(i, 0, f)
				}
			case t.takesLong[name] && !hasValue:
				own(i)
				i++
			case t.takesLong[name] || t.plain[name]:
				own(i)
			}
		default:
			j := t.cluster(argv, i, secret)
			if len(r.Secrets) > 0 && r.Secrets[len(r.Secrets)-1].Index >= i {
				own(i) // its letters hold a credential option
			}
			i = j
		}
	}
	if t.operands != nil {
		r.Secrets = append(r.Secrets, t.operands(argv, ops)...)
	}
	if sub, at := t.command(argv, ops); sub != nil {
		sub.scan(argv, at+1, r)
	}
	return ops
}

// cluster reads the short options of argv[i] and returns the last index
// consumed.
func (t *sparseTable) cluster(argv []string, i int, secret func(i, off int, f SecretForm)) int {
	w := argv[i]
	for j := 1; j < len(w); j++ {
		c := w[j]
		if f := t.short[c]; f != 0 {
			if j+1 < len(w) {
				secret(i, j+1, f)
			} else if i+1 < len(argv) {
				secret(i+1, 0, f)
				return i + 1
			}
			return i
		}
		if f := t.attached[c]; f != 0 {
			switch {
			case j+1 < len(w):
				secret(i, j+1, f)
			case strings.IndexByte(t.bareNext, c) >= 0 && j == 1 && i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "-"):
				secret(i+1, 0, f)
				return i + 1
			}
			return i
		}
		if strings.IndexByte(t.takes, c) >= 0 {
			if j+1 == len(w) {
				return i + 1
			}
			return i
		}
	}
	return i
}

// lookupLong is the credential form of long option name, exactly or by
// an abbreviation the program accepts, or 0.
func (t *sparseTable) lookupLong(name string) SecretForm {
	if f := t.long[name]; f != 0 {
		return f
	}
	if t.abbrev == 0 || len(name) < t.abbrev {
		return 0
	}
	for long, f := range t.long {
		if strings.HasPrefix(long, name) {
			return f
		}
	}
	return 0
}

// command is the subcommand table the operands name and the argv index
// of the last word of its name, or nil.
func (t *sparseTable) command(argv []string, ops []int) (*sparseTable, int) {
	if len(t.commands) == 0 {
		return nil, 0
	}
	var best *sparseTable
	at, words := 0, 0
	for n := 1; n <= 3 && n <= len(ops); n++ {
		key := argv[ops[0]]
		for _, o := range ops[1:n] {
			key += " " + argv[o]
		}
		if sub := t.commands[key]; sub != nil && n > words {
			best, at, words = sub, ops[n-1], n
		}
	}
	return best, at
}

// secretLetters and secretLongs build the credential options of a table.
func secretLetters(f SecretForm, letters string) map[byte]SecretForm {
	m := map[byte]SecretForm{}
	for i := range len(letters) {
		m[letters[i]] = f
	}
	return m
}

func secretLongs(f SecretForm, names ...string) map[string]SecretForm {
	m := map[string]SecretForm{}
	for _, n := range names {
		m[n] = f
	}
	return m
}

// settingValue is the operand rule of "PREFIX... NAME VALUE" commands
// (git config, npm config set, aws configure set): after the operand
// words prefix, VALUE is a credential when NAME is secret-like.
func settingValue(prefixes ...[]string) func(argv []string, ops []int) []Secret {
	return func(argv []string, ops []int) []Secret {
		for _, prefix := range prefixes {
			if len(ops) < len(prefix)+2 {
				continue
			}
			match := true
			for k, w := range prefix {
				if argv[ops[k]] != w {
					match = false
					break
				}
			}
			if match {
				n := len(prefix)
				return []Secret{{Index: ops[n+1], Form: SecretWhole, Name: ops[n]}}
			}
		}
		return nil
	}
}

// operandAfter is the operand rule of "WORD TOKEN" commands (cargo login
// TOKEN, vault login TOKEN, mysqladmin password NEW): the operand after
// word is a credential, unless it is an assignment (vault's
// password=...), which the caller's generic rules judge by name.
func operandAfter(word string) func(argv []string, ops []int) []Secret {
	return func(argv []string, ops []int) []Secret {
		for k, o := range ops {
			if argv[o] == word && k+1 < len(ops) && !strings.Contains(argv[ops[k+1]], "=") {
				return []Secret{{Index: ops[k+1], Form: SecretWhole, Name: -1}}
			}
		}
		return nil
	}
}
