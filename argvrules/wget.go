package argvrules

const (
	riskWgetExecute = "runs a wgetrc command, and wgetrc commands set use_askpass (a program to run), output files and every other setting"
	riskWgetAskpass = "runs a program to ask for credentials"
	riskWgetConfig  = "reads a wgetrc file of its choosing, whose use_askpass command names a program to run"
	riskWgetBg      = "detaches into the background with a new session, outliving the call's timeout and process-group kill"
)

// wgetBase is the GNU Wget 1.21 option table ("wget --help", wget
// 1.21.3), before the "--no-NAME" negations every boolean option also
// accepts (added by wgetTable).
var wgetBase = []Option{
	{Long: "version", Short: 'V'},
	{Long: "help", Short: 'h'},
	{Long: "background", Short: 'b', Risk: riskWgetBg, Rule: ruleWgetBackground},
	{Long: "execute", Short: 'e', Arg: RequiredArg, Risk: riskWgetExecute, Rule: ruleWgetExecOption},
	{Long: "output-file", Short: 'o', Arg: RequiredArg},
	{Long: "append-output", Short: 'a', Arg: RequiredArg},
	{Long: "debug", Short: 'd'},
	{Long: "quiet", Short: 'q'},
	{Long: "verbose", Short: 'v'},
	{Short: 'n', Arg: RequiredArg},           // -nv -nc -nd -nH -np
	{Long: "report-speed", Arg: OptionalArg}, // optional in wget 1.21: --report-speed alone is accepted
	{Long: "input-file", Short: 'i', Arg: RequiredArg},
	{Long: "force-html", Short: 'F'},
	{Long: "base", Short: 'B', Arg: RequiredArg},
	{Long: "config", Arg: RequiredArg, Risk: riskWgetConfig, Rule: ruleWgetConfig},
	{Long: "no-config"},
	{Long: "rejected-log", Arg: RequiredArg},
	{Long: "tries", Short: 't', Arg: RequiredArg},
	{Long: "retry-connrefused"},
	{Long: "retry-on-host-error"},
	{Long: "retry-on-http-error", Arg: RequiredArg},
	{Long: "output-document", Short: 'O', Arg: RequiredArg},
	{Long: "no-clobber"},
	{Long: "netrc"},
	{Long: "continue", Short: 'c'},
	{Long: "start-pos", Arg: RequiredArg},
	{Long: "progress", Arg: RequiredArg},
	{Long: "show-progress"},
	{Long: "timestamping", Short: 'N'},
	{Long: "if-modified-since"},
	{Long: "use-server-timestamps"},
	{Long: "server-response", Short: 'S'},
	{Long: "spider"},
	{Long: "timeout", Short: 'T', Arg: RequiredArg},
	{Long: "dns-timeout", Arg: RequiredArg},
	{Long: "connect-timeout", Arg: RequiredArg},
	{Long: "read-timeout", Arg: RequiredArg},
	{Long: "wait", Short: 'w', Arg: RequiredArg},
	{Long: "waitretry", Arg: RequiredArg},
	{Long: "random-wait"},
	{Long: "proxy"},
	{Long: "quota", Short: 'Q', Arg: RequiredArg},
	{Long: "bind-address", Arg: RequiredArg},
	{Long: "limit-rate", Arg: RequiredArg},
	{Long: "dns-cache"},
	{Long: "restrict-file-names", Arg: OptionalArg}, // optional in wget 1.21: --restrict-file-names alone is accepted
	{Long: "ignore-case"},
	{Long: "inet4-only", Short: '4'},
	{Long: "inet6-only", Short: '6'},
	{Long: "prefer-family", Arg: RequiredArg},
	{Long: "user", Arg: RequiredArg},
	{Long: "password", Arg: RequiredArg},
	{Long: "ask-password"},
	{Long: "use-askpass", Arg: RequiredArg, Risk: riskWgetAskpass, Rule: ruleWgetExecOption},
	{Long: "iri"},
	{Long: "local-encoding", Arg: RequiredArg},
	{Long: "remote-encoding", Arg: RequiredArg},
	{Long: "unlink"},
	{Long: "xattr"},
	{Long: "directories"},
	{Long: "force-directories", Short: 'x'},
	{Long: "host-directories"},
	{Long: "protocol-directories"},
	{Long: "directory-prefix", Short: 'P', Arg: RequiredArg},
	{Long: "cut-dirs", Arg: RequiredArg},
	{Long: "http-user", Arg: RequiredArg},
	{Long: "http-password", Arg: RequiredArg},
	{Long: "cache"},
	{Long: "default-page", Arg: RequiredArg},
	{Long: "adjust-extension", Short: 'E'},
	{Long: "html-extension", Key: "adjust-extension"},
	{Long: "ignore-length"},
	{Long: "header", Arg: RequiredArg},
	{Long: "compression", Arg: RequiredArg},
	{Long: "max-redirect", Arg: RequiredArg},
	{Long: "proxy-user", Arg: RequiredArg},
	{Long: "proxy-password", Arg: RequiredArg},
	{Long: "referer", Arg: RequiredArg},
	{Long: "save-headers"},
	{Long: "user-agent", Short: 'U', Arg: RequiredArg},
	{Long: "http-keep-alive"},
	{Long: "cookies"},
	{Long: "load-cookies", Arg: RequiredArg},
	{Long: "save-cookies", Arg: RequiredArg},
	{Long: "keep-session-cookies"},
	{Long: "post-data", Arg: RequiredArg},
	{Long: "post-file", Arg: RequiredArg},
	{Long: "method", Arg: RequiredArg},
	{Long: "body-data", Arg: RequiredArg},
	{Long: "body-file", Arg: RequiredArg},
	{Long: "content-disposition"},
	{Long: "content-on-error"},
	{Long: "auth-no-challenge"},
	{Long: "secure-protocol", Arg: RequiredArg},
	{Long: "https-only"},
	{Long: "check-certificate"},
	{Long: "certificate", Arg: RequiredArg},
	{Long: "certificate-type", Arg: RequiredArg},
	{Long: "private-key", Arg: RequiredArg},
	{Long: "private-key-type", Arg: RequiredArg},
	{Long: "ca-certificate", Arg: RequiredArg},
	{Long: "ca-directory", Arg: RequiredArg},
	{Long: "crl-file", Arg: RequiredArg},
	{Long: "pinnedpubkey", Arg: RequiredArg},
	{Long: "ciphers", Arg: RequiredArg},
	{Long: "hsts"},
	{Long: "hsts-file", Arg: RequiredArg},
	{Long: "ftp-user", Arg: RequiredArg},
	{Long: "ftp-password", Arg: RequiredArg},
	{Long: "remove-listing"},
	{Long: "glob"},
	{Long: "passive-ftp"},
	{Long: "preserve-permissions"},
	{Long: "retr-symlinks"},
	{Long: "ftps-implicit"},
	{Long: "ftps-resume-ssl"},
	{Long: "ftps-clear-data-connection"},
	{Long: "ftps-fallback-to-ftp"},
	{Long: "warc-file", Arg: RequiredArg},
	{Long: "warc-header", Arg: RequiredArg},
	{Long: "warc-max-size", Arg: RequiredArg},
	{Long: "warc-cdx"},
	{Long: "warc-dedup", Arg: RequiredArg},
	{Long: "warc-compression"},
	{Long: "warc-digests"},
	{Long: "warc-keep-log"},
	{Long: "warc-tempdir", Arg: RequiredArg},
	{Long: "recursive", Short: 'r'},
	{Long: "level", Short: 'l', Arg: RequiredArg},
	{Long: "delete-after"},
	{Long: "convert-links", Short: 'k'},
	{Long: "convert-file-only"},
	{Long: "backups", Arg: OptionalArg}, // optional in wget 1.21: --backups alone is accepted
	{Long: "backup-converted", Short: 'K'},
	{Long: "mirror", Short: 'm'},
	{Long: "page-requisites", Short: 'p'},
	{Long: "strict-comments"},
	{Long: "accept", Short: 'A', Arg: RequiredArg},
	{Long: "reject", Short: 'R', Arg: RequiredArg},
	{Long: "accept-regex", Arg: RequiredArg},
	{Long: "reject-regex", Arg: RequiredArg},
	{Long: "regex-type", Arg: RequiredArg},
	{Long: "domains", Short: 'D', Arg: RequiredArg},
	{Long: "exclude-domains", Arg: RequiredArg},
	{Long: "follow-ftp"},
	{Long: "follow-tags", Arg: RequiredArg},
	{Long: "ignore-tags", Arg: RequiredArg},
	{Long: "span-hosts", Short: 'H'},
	{Long: "relative", Short: 'L'},
	{Long: "include-directories", Short: 'I', Arg: RequiredArg},
	{Long: "trust-server-names"},
	{Long: "exclude-directories", Short: 'X', Arg: RequiredArg},
	{Long: "parent"},
}

// withNegations returns opts plus a "no-NAME" row for every long-named
// NoArg row that has none yet (getopt-based programs that accept --no-
// for every boolean: wget, curl). Extra negation rows can only make an
// abbreviation ambiguous, which is refused, never resolve it differently
// to a risky row.
func withNegations(opts []Option) []Option {
	have := make(map[string]bool, len(opts))
	for _, o := range opts {
		have[o.Long] = true
	}
	out := append([]Option(nil), opts...)
	for _, o := range opts {
		if o.Long == "" || o.Arg != NoArg || o.Risk != "" || have["no-"+o.Long] {
			continue
		}
		have["no-"+o.Long] = true
		out = append(out, Option{Long: "no-" + o.Long})
	}
	return out
}

var wgetProgram = &getoptProgram{
	family:  "wget",
	policy:  "wget external program or output",
	grammar: "wget option grammar",
	table:   NewTable("GNU Wget 1.21", false, withNegations(wgetBase)),
	order:   Permute,
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
func Wget(argv []string, ctx Context) *Rejection {
	return wgetProgram.check(argv, ctx)
}
