package argvrules

import "github.com/seed-b63acb1b/mcp-shell-server/redirect"

const (
	riskWgetAskpass = "runs a program to ask for credentials"
	riskWgetConfig  = "reads a wgetrc file of its choosing, whose use_askpass command names a program to run"
	riskWgetBg      = "detaches into the background with a new session, outliving the call's timeout and process-group kill"
)

// wgetBase is the GNU Wget 1.21 option table ("wget --help", wget
// 1.21.3), before the "--no-NAME" negations every boolean option also
// accepts (added by wgetTable).
var wgetBase = []option{
	{Long: "version", Short: 'V'},
	{Long: "help", Short: 'h'},
	{Long: "background", Short: 'b', Risk: riskWgetBg, Rule: ruleWgetBackground},
	{Long: "execute", Short: 'e', Arg: requiredArg},
	{Long: "output-file", Short: 'o', Arg: requiredArg},
	{Long: "append-output", Short: 'a', Arg: requiredArg},
	{Long: "debug", Short: 'd'},
	{Long: "quiet", Short: 'q'},
	{Long: "verbose", Short: 'v'},
	{Short: 'n', Arg: requiredArg},           // -nv -nc -nd -nH -np
	{Long: "report-speed", Arg: optionalArg}, // optional in wget 1.21: --report-speed alone is accepted
	{Long: "input-file", Short: 'i', Arg: requiredArg},
	{Long: "force-html", Short: 'F'},
	{Long: "base", Short: 'B', Arg: requiredArg},
	{Long: "config", Arg: requiredArg, Risk: riskWgetConfig, Rule: ruleWgetConfig},
	{Long: "no-config"},
	{Long: "rejected-log", Arg: requiredArg},
	{Long: "tries", Short: 't', Arg: requiredArg},
	{Long: "retry-connrefused"},
	{Long: "retry-on-host-error"},
	{Long: "retry-on-http-error", Arg: requiredArg},
	{Long: "output-document", Short: 'O', Arg: requiredArg},
	{Long: "no-clobber"},
	{Long: "netrc"},
	{Long: "continue", Short: 'c'},
	{Long: "start-pos", Arg: requiredArg},
	{Long: "progress", Arg: requiredArg},
	{Long: "show-progress"},
	{Long: "timestamping", Short: 'N'},
	{Long: "if-modified-since"},
	{Long: "use-server-timestamps"},
	{Long: "server-response", Short: 'S'},
	{Long: "spider"},
	{Long: "timeout", Short: 'T', Arg: requiredArg},
	{Long: "dns-timeout", Arg: requiredArg},
	{Long: "connect-timeout", Arg: requiredArg},
	{Long: "read-timeout", Arg: requiredArg},
	{Long: "wait", Short: 'w', Arg: requiredArg},
	{Long: "waitretry", Arg: requiredArg},
	{Long: "random-wait"},
	{Long: "proxy"},
	{Long: "quota", Short: 'Q', Arg: requiredArg},
	{Long: "bind-address", Arg: requiredArg},
	{Long: "limit-rate", Arg: requiredArg},
	{Long: "dns-cache"},
	{Long: "restrict-file-names", Arg: optionalArg}, // optional in wget 1.21: --restrict-file-names alone is accepted
	{Long: "ignore-case"},
	{Long: "inet4-only", Short: '4'},
	{Long: "inet6-only", Short: '6'},
	{Long: "prefer-family", Arg: requiredArg},
	{Long: "user", Arg: requiredArg},
	{Long: "password", Arg: requiredArg},
	{Long: "ask-password"},
	{Long: "use-askpass", Arg: requiredArg, Risk: riskWgetAskpass, Rule: ruleWgetExecOption},
	{Long: "iri"},
	{Long: "local-encoding", Arg: requiredArg},
	{Long: "remote-encoding", Arg: requiredArg},
	{Long: "unlink"},
	{Long: "xattr"},
	{Long: "directories"},
	{Long: "force-directories", Short: 'x'},
	{Long: "host-directories"},
	{Long: "protocol-directories"},
	{Long: "directory-prefix", Short: 'P', Arg: requiredArg},
	{Long: "cut-dirs", Arg: requiredArg},
	{Long: "http-user", Arg: requiredArg},
	{Long: "http-password", Arg: requiredArg},
	{Long: "cache"},
	{Long: "default-page", Arg: requiredArg},
	{Long: "adjust-extension", Short: 'E'},
	{Long: "html-extension", Key: "adjust-extension"},
	{Long: "ignore-length"},
	{Long: "header", Arg: requiredArg},
	{Long: "compression", Arg: requiredArg},
	{Long: "max-redirect", Arg: requiredArg},
	{Long: "proxy-user", Arg: requiredArg},
	{Long: "proxy-password", Arg: requiredArg},
	{Long: "referer", Arg: requiredArg},
	{Long: "save-headers"},
	{Long: "user-agent", Short: 'U', Arg: requiredArg},
	{Long: "http-keep-alive"},
	{Long: "cookies"},
	{Long: "load-cookies", Arg: requiredArg},
	{Long: "save-cookies", Arg: requiredArg},
	{Long: "keep-session-cookies"},
	{Long: "post-data", Arg: requiredArg},
	{Long: "post-file", Arg: requiredArg},
	{Long: "method", Arg: requiredArg},
	{Long: "body-data", Arg: requiredArg},
	{Long: "body-file", Arg: requiredArg},
	{Long: "content-disposition"},
	{Long: "content-on-error"},
	{Long: "auth-no-challenge"},
	{Long: "secure-protocol", Arg: requiredArg},
	{Long: "https-only"},
	{Long: "check-certificate"},
	{Long: "certificate", Arg: requiredArg},
	{Long: "certificate-type", Arg: requiredArg},
	{Long: "private-key", Arg: requiredArg},
	{Long: "private-key-type", Arg: requiredArg},
	{Long: "ca-certificate", Arg: requiredArg},
	{Long: "ca-directory", Arg: requiredArg},
	{Long: "crl-file", Arg: requiredArg},
	{Long: "pinnedpubkey", Arg: requiredArg},
	{Long: "ciphers", Arg: requiredArg},
	{Long: "hsts"},
	{Long: "hsts-file", Arg: requiredArg},
	{Long: "ftp-user", Arg: requiredArg},
	{Long: "ftp-password", Arg: requiredArg},
	{Long: "remove-listing"},
	{Long: "glob"},
	{Long: "passive-ftp"},
	{Long: "preserve-permissions"},
	{Long: "retr-symlinks"},
	{Long: "ftps-implicit"},
	{Long: "ftps-resume-ssl"},
	{Long: "ftps-clear-data-connection"},
	{Long: "ftps-fallback-to-ftp"},
	{Long: "warc-file", Arg: requiredArg},
	{Long: "warc-header", Arg: requiredArg},
	{Long: "warc-max-size", Arg: requiredArg},
	{Long: "warc-cdx"},
	{Long: "warc-dedup", Arg: requiredArg},
	{Long: "warc-compression"},
	{Long: "warc-digests"},
	{Long: "warc-keep-log"},
	{Long: "warc-tempdir", Arg: requiredArg},
	{Long: "recursive", Short: 'r'},
	{Long: "level", Short: 'l', Arg: requiredArg},
	{Long: "delete-after"},
	{Long: "convert-links", Short: 'k'},
	{Long: "convert-file-only"},
	{Long: "backups", Arg: optionalArg}, // optional in wget 1.21: --backups alone is accepted
	{Long: "backup-converted", Short: 'K'},
	{Long: "mirror", Short: 'm'},
	{Long: "page-requisites", Short: 'p'},
	{Long: "strict-comments"},
	{Long: "accept", Short: 'A', Arg: requiredArg},
	{Long: "reject", Short: 'R', Arg: requiredArg},
	{Long: "accept-regex", Arg: requiredArg},
	{Long: "reject-regex", Arg: requiredArg},
	{Long: "regex-type", Arg: requiredArg},
	{Long: "domains", Short: 'D', Arg: requiredArg},
	{Long: "exclude-domains", Arg: requiredArg},
	{Long: "follow-ftp"},
	{Long: "follow-tags", Arg: requiredArg},
	{Long: "ignore-tags", Arg: requiredArg},
	{Long: "span-hosts", Short: 'H'},
	{Long: "relative", Short: 'L'},
	{Long: "include-directories", Short: 'I', Arg: requiredArg},
	{Long: "trust-server-names"},
	{Long: "exclude-directories", Short: 'X', Arg: requiredArg},
	{Long: "parent"},
}

// withNegations returns opts plus a "no-NAME" row for every long-named
// NoArg row that has none yet (getopt-based programs that accept --no-
// for every boolean: wget, curl). Extra negation rows can only make an
// abbreviation ambiguous, which is refused, never resolve it differently
// to a risky row.
func withNegations(opts []option) []option {
	have := make(map[string]bool, len(opts))
	for _, o := range opts {
		have[o.Long] = true
	}
	out := append([]option(nil), opts...)
	for _, o := range opts {
		if o.Long == "" || o.Arg != noArg || o.Risk != "" || have["no-"+o.Long] {
			continue
		}
		have["no-"+o.Long] = true
		out = append(out, option{Long: "no-" + o.Long})
	}
	return out
}

// wgetCredentials are the wget options whose values are passwords
// (wget 1.21 --help); the user names (--user, --http-user ...) are not
// secrets, and -e http_password=... and --header are the caller's generic
// rules.
var wgetCredentials = map[string]SecretForm{
	"password": SecretWhole, "http-password": SecretWhole, "ftp-password": SecretWhole, "proxy-password": SecretWhole,
}

var wgetProgram = &getoptProgram{
	family:  "wget",
	policy:  "wget external program or output",
	grammar: "wget option grammar",
	table:   newTableFunc("GNU Wget 1.21", false, func() []option { return withNegations(wgetBase) }),
	order:   permute,
	outputs: map[string]redirect.Kind{
		"output-document":  redirect.File,
		"output-file":      redirect.File,
		"append-output":    redirect.File,
		"directory-prefix": redirect.Dir,
		"save-cookies":     redirect.File,
		"rejected-log":     redirect.File,
		"hsts-file":        redirect.File,
		"warc-file":        redirect.File,
		"warc-tempdir":     redirect.Dir,
	},
}

// checkWget is the recognizer of GNU checkWget 1.21. Refused in every getopt_long
// spelling (abbreviations such as --use-ask and --exe, short clusters such
// as -qe CMD, options after URLs): -e/--execute commands that run a program
// or are unknown (wgetExecute: robots=off and the other inert commands are
// allowed, output commands contained), --use-askpass, --config=FILE, and -b/--background
// (it forks into a new session the runner's process-group kill cannot
// reach). Files wget writes by option must stay inside the working
// directory: -O/--output-document, -o/--output-file, -a/--append-output,
// --save-cookies, --rejected-log, --hsts-file and --warc-file, and the
// directories -P/--directory-prefix and --warc-tempdir ("-" and
// /dev/null are accepted). Files wget reads (-i, --post-file,
// --load-cookies ...), what it downloads into the working directory and
// its network access are delegated, as are /etc/wgetrc and ~/.wgetrc.
func checkWget(argv []string, ctx Context) *Rejection {
	g := *wgetProgram
	g.value = func(ev *event) *Rejection {
		if ev.Opt.Long == "execute" && ev.HasValue {
			return wgetExecute(ctx, ev)
		}
		return nil
	}
	if r := g.check(argv, ctx); r != nil {
		return r
	}
	return wgetDefaultNames(ctx, g.table.Parse(argv, 1, g.order), argv)
}
