package argvrules

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// curlRisks are the curl options refused outright, by long name.
var curlRisks = map[string]string{
	"engine":               "loads an OpenSSL crypto engine, a shared library of its choosing, into curl",
	"config":               "reads further curl options from a file (or standard input with -K -), which this check cannot see",
	"unix-socket":          "connects to a local Unix socket such as a container daemon's, whose API runs programs",
	"abstract-unix-socket": "connects to a local abstract Unix socket such as a daemon's control socket",
}

// curlCredentials are the curl options whose values hold credentials
// (curl 7.88 --help all): -u/--user and -U/--proxy-user USER:PASSWORD,
// -E/--cert and --proxy-cert CERT:PASSWORD, --pass and --proxy-pass
// (key pass phrases), --oauth2-bearer TOKEN, --tlspassword and
// --proxy-tlspassword, and -b/--cookie NAME=VALUE (a value without "="
// is a cookie file). Header and form values are judged by the caller's
// generic rules (Authorization:, password=).
var curlCredentials = map[string]SecretForm{
	"user": SecretAfterColon, "proxy-user": SecretAfterColon, "cert": SecretAfterColon, "proxy-cert": SecretAfterColon,
	"pass": SecretWhole, "proxy-pass": SecretWhole, "oauth2-bearer": SecretWhole, "tlspassword": SecretWhole, "proxy-tlspassword": SecretWhole,
	"cookie": SecretCookie,
}

// curlOutputs are the curl options that name a file or directory curl
// writes; "-" and /dev/null are always accepted.
var curlOutputs = map[string]redirect.Kind{
	"output":      redirect.File,
	"dump-header": redirect.File,
	"output-dir":  redirect.Dir,
	"cookie-jar":  redirect.File,
	"trace":       redirect.File,
	"trace-ascii": redirect.File,
	"libcurl":     redirect.File,
	"stderr":      redirect.File,
	"etag-save":   redirect.File,
	"hsts":        redirect.File,
	"alt-svc":     redirect.File,
}

// annotate returns opts with Risk and Rule set on the rows named in risks.
func annotate(opts []option, rule refusal.Rule, risks map[string]string) []option {
	out := append([]option(nil), opts...)
	for i := range out {
		if r, ok := risks[out[i].Long]; ok {
			out[i].Risk, out[i].Rule = r, rule
		}
	}
	return out
}

var curlProgram = &getoptProgram{
	family:  "curl",
	policy:  "curl external code or output",
	grammar: "curl option grammar",
	table:   newTableFunc("curl 7.88", false, func() []option { return withNegations(annotate(curlBase, ruleCurlExecOption, curlRisks)) }),
	order:   permute,
	exact:   true,
	outputs: curlOutputs,
	value:   curlValue,
}

// curlValue refuses a -w/--write-out format that uses %output{FILE}
// (curl 8.3+), which writes the rest of the output to FILE, and a format
// read from a file (-w @FILE, -w @- for standard input).
func curlValue(ev *event) *Rejection {
	if ev.Opt.Long == "write-out" && strings.HasPrefix(ev.Value, "@") {
		return ruleCurlOutputPath.Reject(ev.Index, ev.Word,
			"%s reading the format from %q, which this check cannot see and which may use %%output{FILE} to write a file (curl 8.3+)", describeEvent(ev), ev.Value[1:])
	}
	if ev.Opt.Long == "write-out" && strings.Contains(ev.Value, "%output{") {
		return ruleCurlOutputPath.Reject(ev.Index, ev.Word,
			"%s with a %%output{FILE} variable, which writes to a file of its own choosing (curl 8.3+)", describeEvent(ev))
	}
	return nil
}

// checkCurl is the recognizer of curl. It parses argv with the curl 7.88
// option table (exact long names only; curl does not abbreviate;
// "--no-NAME" for booleans; short clusters such as -sSLo FILE; options
// after URLs; "--" ends options). Refused: --engine (loads a shared
// library), -K/--config (options from a file or standard input),
// --unix-socket and --abstract-unix-socket (local daemon sockets, whose
// APIs can run programs), and -w/--write-out formats with %output{FILE}.
// Files curl writes by option must stay inside the working directory:
// -o/--output, -D/--dump-header, --output-dir (a directory),
// -c/--cookie-jar, --trace, --trace-ascii, --libcurl, --stderr,
// --etag-save, --hsts and --alt-svc ("-" and /dev/null are accepted).
// Beyond the output options, every path curl writes is resolved as curl
// resolves it and contained (curlWrites): -o with #N glob references,
// -O's name from the URL, --output-dir, and -T uploads to file:// URLs;
// -J (a name the server chooses) is refused. Delegated: what curl reads
// (file:// URLs, -T/--upload-file, -d @FILE, -F name=@FILE, ~/.curlrc),
// uploads over the network, and network access.
func checkCurl(argv []string, ctx Context) *Rejection {
	if r := curlProgram.check(argv, ctx); r != nil {
		return r
	}
	return curlWrites(ctx, curlProgram.table.Parse(argv, 1, curlProgram.order), argv)
}
