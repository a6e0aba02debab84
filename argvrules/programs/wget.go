package programs

import "github.com/seed-b63acb1b/mcp-shell-server/argvrules"

const (
	riskWgetExecute = "runs a wgetrc command, and wgetrc commands set use_askpass (a program to run), output files and every other setting"
	riskWgetAskpass = "runs a program to ask for credentials"
	riskWgetConfig  = "reads a wgetrc file of its choosing, whose use_askpass command names a program to run"
	riskWgetBg      = "detaches into the background with a new session, outliving the call's timeout and process-group kill"
)

// wgetBase is the GNU Wget 1.21 option table ("wget --help", wget
// 1.21.3), before the "--no-NAME" negations every boolean option also
// accepts (added by wgetTable).
var wgetBase = []argvrules.Option{
	{Long: "version", Short: 'V'},
	{Long: "help", Short: 'h'},
	{Long: "background", Short: 'b', Risk: riskWgetBg, Rule: "wget.background"},
	{Long: "execute", Short: 'e', Arg: argvrules.RequiredArg, Risk: riskWgetExecute, Rule: "wget.exec-option"},
	{Long: "output-file", Short: 'o', Arg: argvrules.RequiredArg},
	{Long: "append-output", Short: 'a', Arg: argvrules.RequiredArg},
	{Long: "debug", Short: 'd'},
	{Long: "quiet", Short: 'q'},
	{Long: "verbose", Short: 'v'},
	{Short: 'n', Arg: argvrules.RequiredArg},           // -nv -nc -nd -nH -np
	{Long: "report-speed", Arg: argvrules.OptionalArg}, // optional in wget 1.21: --report-speed alone is accepted
	{Long: "input-file", Short: 'i', Arg: argvrules.RequiredArg},
	{Long: "force-html", Short: 'F'},
	{Long: "base", Short: 'B', Arg: argvrules.RequiredArg},
	{Long: "config", Arg: argvrules.RequiredArg, Risk: riskWgetConfig, Rule: "wget.config"},
	{Long: "no-config"},
	{Long: "rejected-log", Arg: argvrules.RequiredArg},
	{Long: "tries", Short: 't', Arg: argvrules.RequiredArg},
	{Long: "retry-connrefused"},
	{Long: "retry-on-host-error"},
	{Long: "retry-on-http-error", Arg: argvrules.RequiredArg},
	{Long: "output-document", Short: 'O', Arg: argvrules.RequiredArg},
	{Long: "no-clobber"},
	{Long: "netrc"},
	{Long: "continue", Short: 'c'},
	{Long: "start-pos", Arg: argvrules.RequiredArg},
	{Long: "progress", Arg: argvrules.RequiredArg},
	{Long: "show-progress"},
	{Long: "timestamping", Short: 'N'},
	{Long: "if-modified-since"},
	{Long: "use-server-timestamps"},
	{Long: "server-response", Short: 'S'},
	{Long: "spider"},
	{Long: "timeout", Short: 'T', Arg: argvrules.RequiredArg},
	{Long: "dns-timeout", Arg: argvrules.RequiredArg},
	{Long: "connect-timeout", Arg: argvrules.RequiredArg},
	{Long: "read-timeout", Arg: argvrules.RequiredArg},
	{Long: "wait", Short: 'w', Arg: argvrules.RequiredArg},
	{Long: "waitretry", Arg: argvrules.RequiredArg},
	{Long: "random-wait"},
	{Long: "proxy"},
	{Long: "quota", Short: 'Q', Arg: argvrules.RequiredArg},
	{Long: "bind-address", Arg: argvrules.RequiredArg},
	{Long: "limit-rate", Arg: argvrules.RequiredArg},
	{Long: "dns-cache"},
	{Long: "restrict-file-names", Arg: argvrules.OptionalArg}, // optional in wget 1.21: --restrict-file-names alone is accepted
	{Long: "ignore-case"},
	{Long: "inet4-only", Short: '4'},
	{Long: "inet6-only", Short: '6'},
	{Long: "prefer-family", Arg: argvrules.RequiredArg},
	{Long: "user", Arg: argvrules.RequiredArg},
	{Long: "password", Arg: argvrules.RequiredArg},
	{Long: "ask-password"},
	{Long: "use-askpass", Arg: argvrules.RequiredArg, Risk: riskWgetAskpass, Rule: "wget.exec-option"},
	{Long: "iri"},
	{Long: "local-encoding", Arg: argvrules.RequiredArg},
	{Long: "remote-encoding", Arg: argvrules.RequiredArg},
	{Long: "unlink"},
	{Long: "xattr"},
	{Long: "directories"},
	{Long: "force-directories", Short: 'x'},
	{Long: "host-directories"},
	{Long: "protocol-directories"},
	{Long: "directory-prefix", Short: 'P', Arg: argvrules.RequiredArg},
	{Long: "cut-dirs", Arg: argvrules.RequiredArg},
	{Long: "http-user", Arg: argvrules.RequiredArg},
	{Long: "http-password", Arg: argvrules.RequiredArg},
	{Long: "cache"},
	{Long: "default-page", Arg: argvrules.RequiredArg},
	{Long: "adjust-extension", Short: 'E'},
	{Long: "html-extension", Key: "adjust-extension"},
	{Long: "ignore-length"},
	{Long: "header", Arg: argvrules.RequiredArg},
	{Long: "compression", Arg: argvrules.RequiredArg},
	{Long: "max-redirect", Arg: argvrules.RequiredArg},
	{Long: "proxy-user", Arg: argvrules.RequiredArg},
	{Long: "proxy-password", Arg: argvrules.RequiredArg},
	{Long: "referer", Arg: argvrules.RequiredArg},
	{Long: "save-headers"},
	{Long: "user-agent", Short: 'U', Arg: argvrules.RequiredArg},
	{Long: "http-keep-alive"},
	{Long: "cookies"},
	{Long: "load-cookies", Arg: argvrules.RequiredArg},
	{Long: "save-cookies", Arg: argvrules.RequiredArg},
	{Long: "keep-session-cookies"},
	{Long: "post-data", Arg: argvrules.RequiredArg},
	{Long: "post-file", Arg: argvrules.RequiredArg},
	{Long: "method", Arg: argvrules.RequiredArg},
	{Long: "body-data", Arg: argvrules.RequiredArg},
	{Long: "body-file", Arg: argvrules.RequiredArg},
	{Long: "content-disposition"},
	{Long: "content-on-error"},
	{Long: "auth-no-challenge"},
	{Long: "secure-protocol", Arg: argvrules.RequiredArg},
	{Long: "https-only"},
	{Long: "check-certificate"},
	{Long: "certificate", Arg: argvrules.RequiredArg},
	{Long: "certificate-type", Arg: argvrules.RequiredArg},
	{Long: "private-key", Arg: argvrules.RequiredArg},
	{Long: "private-key-type", Arg: argvrules.RequiredArg},
	{Long: "ca-certificate", Arg: argvrules.RequiredArg},
	{Long: "ca-directory", Arg: argvrules.RequiredArg},
	{Long: "crl-file", Arg: argvrules.RequiredArg},
	{Long: "pinnedpubkey", Arg: argvrules.RequiredArg},
	{Long: "ciphers", Arg: argvrules.RequiredArg},
	{Long: "hsts"},
	{Long: "hsts-file", Arg: argvrules.RequiredArg},
	{Long: "ftp-user", Arg: argvrules.RequiredArg},
	{Long: "ftp-password", Arg: argvrules.RequiredArg},
	{Long: "remove-listing"},
	{Long: "glob"},
	{Long: "passive-ftp"},
	{Long: "preserve-permissions"},
	{Long: "retr-symlinks"},
	{Long: "ftps-implicit"},
	{Long: "ftps-resume-ssl"},
	{Long: "ftps-clear-data-connection"},
	{Long: "ftps-fallback-to-ftp"},
	{Long: "warc-file", Arg: argvrules.RequiredArg},
	{Long: "warc-header", Arg: argvrules.RequiredArg},
	{Long: "warc-max-size", Arg: argvrules.RequiredArg},
	{Long: "warc-cdx"},
	{Long: "warc-dedup", Arg: argvrules.RequiredArg},
	{Long: "warc-compression"},
	{Long: "warc-digests"},
	{Long: "warc-keep-log"},
	{Long: "warc-tempdir", Arg: argvrules.RequiredArg},
	{Long: "recursive", Short: 'r'},
	{Long: "level", Short: 'l', Arg: argvrules.RequiredArg},
	{Long: "delete-after"},
	{Long: "convert-links", Short: 'k'},
	{Long: "convert-file-only"},
	{Long: "backups", Arg: argvrules.OptionalArg}, // optional in wget 1.21: --backups alone is accepted
	{Long: "backup-converted", Short: 'K'},
	{Long: "mirror", Short: 'm'},
	{Long: "page-requisites", Short: 'p'},
	{Long: "strict-comments"},
	{Long: "accept", Short: 'A', Arg: argvrules.RequiredArg},
	{Long: "reject", Short: 'R', Arg: argvrules.RequiredArg},
	{Long: "accept-regex", Arg: argvrules.RequiredArg},
	{Long: "reject-regex", Arg: argvrules.RequiredArg},
	{Long: "regex-type", Arg: argvrules.RequiredArg},
	{Long: "domains", Short: 'D', Arg: argvrules.RequiredArg},
	{Long: "exclude-domains", Arg: argvrules.RequiredArg},
	{Long: "follow-ftp"},
	{Long: "follow-tags", Arg: argvrules.RequiredArg},
	{Long: "ignore-tags", Arg: argvrules.RequiredArg},
	{Long: "span-hosts", Short: 'H'},
	{Long: "relative", Short: 'L'},
	{Long: "include-directories", Short: 'I', Arg: argvrules.RequiredArg},
	{Long: "trust-server-names"},
	{Long: "exclude-directories", Short: 'X', Arg: argvrules.RequiredArg},
	{Long: "parent"},
}

// withNegations returns opts plus a "no-NAME" row for every long-named
// NoArg row that has none yet (getopt-based programs that accept --no-
// for every boolean: wget, curl). Extra negation rows can only make an
// abbreviation ambiguous, which is refused, never resolve it differently
// to a risky row.
func withNegations(opts []argvrules.Option) []argvrules.Option {
	have := make(map[string]bool, len(opts))
	for _, o := range opts {
		have[o.Long] = true
	}
	out := append([]argvrules.Option(nil), opts...)
	for _, o := range opts {
		if o.Long == "" || o.Arg != argvrules.NoArg || o.Risk != "" || have["no-"+o.Long] {
			continue
		}
		have["no-"+o.Long] = true
		out = append(out, argvrules.Option{Long: "no-" + o.Long})
	}
	return out
}

var wgetProgram = &getoptProgram{
	family:  "wget",
	policy:  "wget external program or output",
	grammar: "wget option grammar",
	table:   argvrules.NewTable("GNU Wget 1.21", false, withNegations(wgetBase)),
	order:   argvrules.Permute,
	outputs: map[string]outKind{
		"output-document":  outFile,
		"output-file":      outFile,
		"append-output":    outFile,
		"directory-prefix": outDir,
		"save-cookies":     outFile,
		"rejected-log":     outFile,
		"hsts-file":        outFile,
		"warc-file":        outFile,
		"warc-tempdir":     outDir,
	},
}

// Wget is the recognizer of GNU Wget 1.21. Refused in every getopt_long
// spelling (abbreviations such as --use-ask and --exe, short clusters such
// as -qe CMD, options after URLs): -e/--execute (wgetrc commands, which
// include use_askpass), --use-askpass, --config=FILE, and -b/--background
// (it forks into a new session the runner's process-group kill cannot
// reach). Files wget writes by option must stay inside the working
// directory: -O/--output-document, -o/--output-file, -a/--append-output,
// --save-cookies, --rejected-log, --hsts-file and --warc-file, and the
// directories -P/--directory-prefix and --warc-tempdir ("-" and
// /dev/null are accepted). Files wget reads (-i, --post-file,
// --load-cookies ...), what it downloads into the working directory and
// its network access are delegated, as are /etc/wgetrc and ~/.wgetrc.
func Wget(argv []string, ctx argvrules.Context) *argvrules.Rejection {
	return wgetProgram.check(argv, ctx)
}
