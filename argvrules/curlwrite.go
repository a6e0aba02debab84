package argvrules

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// Every path curl 7.88 writes, resolved the way curl resolves it
// (tool_operate.c): -o FILE with "#N" replaced by the text the N-th glob
// of its URL matched (tool_urlglob.c glob_match_url), -O's name taken from
// the URL's last path segment (tool_operate.c get_url_file_name), both
// below --output-dir, and -T FILE uploaded to a file:// URL, which writes
// the URL's path (and appends FILE's name when the URL ends in "/"). -J
// takes the name from the server's Content-Disposition, which no check can
// see. Each must stay inside the working directory (outputPath).

// curlArgs is what the write model needs of a parsed curl argv.
type curlArgs struct {
	urls      []curlArg // URL operands and --url values, in order
	outputs   []curlArg // -o/--output values
	uploads   []curlArg // -T/--upload-file values
	remote    int       // argv index of the first -O/--remote-name(-all), or 0
	header    int       // argv index of -J/--remote-header-name, or 0
	outputDir string
	globoff   bool
	protoFile bool // --proto-default file: scheme-less URLs are file://
}

type curlArg struct {
	value string
	index int
	word  string
}

func curlCollect(p parsed, argv []string) curlArgs {
	var c curlArgs
	for i := range p.Events {
		ev := &p.Events[i]
		word := ev.Word
		if ev.ValueIndex >= 0 && ev.ValueIndex != ev.Index {
			word += " " + ev.Value
		}
		if ev.Kind == operandEvent {
			c.urls = append(c.urls, curlArg{ev.Word, ev.Index, ev.Word})
			continue
		}
		switch ev.Opt.Long {
		case "url":
			c.urls = append(c.urls, curlArg{ev.Value, ev.Index, word})
		case "output":
			c.outputs = append(c.outputs, curlArg{ev.Value, ev.Index, word})
		case "upload-file":
			c.uploads = append(c.uploads, curlArg{ev.Value, ev.Index, word})
		case "output-dir":
			c.outputDir = ev.Value
		case "remote-name", "remote-name-all":
			if c.remote == 0 {
				c.remote = ev.Index
			}
		case "no-remote-name-all":
			c.remote = 0
		case "remote-header-name":
			c.header = ev.Index
		case "globoff":
			c.globoff = true
		case "proto-default":
			c.protoFile = strings.EqualFold(ev.Value, "file")
		}
	}
	return c
}

// curlWrites checks every path the argv makes curl write beyond the
// plain output options (which getoptProgram contains).
func curlWrites(ctx Context, p parsed, argv []string) *Rejection {
	c := curlCollect(p, argv)
	if c.header != 0 {
		return ruleCurlOutputPath.Reject(c.header, argv[c.header],
			"argument %d %q (-J, --remote-header-name) lets the server choose the name of the file curl writes, which may be a configuration file (.gitconfig, .npmrc) or a planted symlink; name the file with -o", c.header, argv[c.header])
	}
	for _, o := range c.outputs {
		if r := curlOutputGlob(ctx, c, o); r != nil {
			return r
		}
	}
	if c.remote != 0 {
		for _, u := range c.urls {
			for _, alt := range curlGlobTexts(u.value, c.globoff) {
				name := curlRemoteName(alt)
				if name == "" {
					continue // curl refuses a URL without a file name
				}
				if r := curlProbe(ctx, c, c.remote, argv[c.remote]+" "+u.word, name); r != nil {
					return r
				}
			}
		}
	}
	for _, up := range c.uploads {
		for _, u := range c.urls {
			if r := curlUpload(ctx, c, up, u); r != nil {
				return r
			}
		}
	}
	return nil
}

// curlProbe contains one file name below --output-dir.
func curlProbe(ctx Context, c curlArgs, index int, word, name string) *Rejection {
	if redirect.Harmless(name) {
		return nil
	}
	p := name
	if c.outputDir != "" && !path.IsAbs(name) {
		p = path.Join(c.outputDir, name)
	}
	return outputPath(ctx, "curl", index, word, p, redirect.File)
}

// curlOutputGlob contains -o FILE for every substitution of its "#N"
// references by the URL globs' texts.
func curlOutputGlob(ctx Context, c curlArgs, o curlArg) *Rejection {
	if !strings.Contains(o.value, "#") || c.globoff {
		return curlProbe(ctx, c, o.index, o.word, o.value)
	}
	for _, u := range c.urls {
		globs := curlGlobs(u.value)
		names, ok := curlSubstitute(o.value, globs)
		if !ok {
			return ruleCurlOutputPath.Reject(o.index, o.word,
				"argument %d %q refers to URL globs of %q in more combinations than this check follows; name the file without #N", o.index, o.word, u.value)
		}
		for _, n := range names {
			if r := curlProbe(ctx, c, o.index, o.word, n); r != nil {
				return r
			}
		}
	}
	return nil
}

// curlGlob is one glob of a URL: its alternatives ({a,b}) or, for a range
// ([1-9], [a-z], [001-100:2]), one representative value (every value of a
// range is letters or digits only, so one stands for all in a path).
type curlGlob []string

// maxCurlGlobs bounds the substitutions curlSubstitute checks.
const maxCurlGlobs = 1024

// curlGlobs parses the {list} and [range] globs of a URL (tool_urlglob.c;
// "\\" escapes a glob character).
func curlGlobs(u string) []curlGlob {
	var out []curlGlob
	for i := 0; i < len(u); i++ {
		switch u[i] {
		case '\\':
			i++
		case '{':
			end := strings.IndexByte(u[i:], '}')
			if end < 0 {
				return out
			}
			out = append(out, strings.Split(u[i+1:i+end], ","))
			i += end
		case '[':
			end := strings.IndexByte(u[i:], ']')
			if end < 0 {
				return out
			}
			body := u[i+1 : i+end]
			if lo, _, ok := strings.Cut(body, "-"); ok {
				out = append(out, curlGlob{lo})
			} else {
				out = append(out, curlGlob{body}) // an IPv6 address: not a glob, but harmless here
			}
			i += end
		}
	}
	return out
}

// curlGlobTexts returns the URL texts a globbed URL expands to (bounded;
// ranges by their first value), or the URL itself with -g.
func curlGlobTexts(u string, globoff bool) []string {
	if globoff || !strings.ContainsAny(u, "{[") {
		return []string{u}
	}
	out := []string{""}
	for i := 0; i < len(u); i++ {
		var alts []string
		switch u[i] {
		case '{':
			if end := strings.IndexByte(u[i:], '}'); end > 0 {
				alts = strings.Split(u[i+1:i+end], ",")
				i += end
			}
		case '[':
			if end := strings.IndexByte(u[i:], ']'); end > 0 {
				lo, _, _ := strings.Cut(u[i+1:i+end], "-")
				alts = []string{lo}
				i += end
			}
		}
		if alts == nil {
			alts = []string{u[i : i+1]}
		}
		var next []string
		for _, prefix := range out {
			for _, a := range alts {
				if len(next) >= maxCurlGlobs {
					return next
				}
				next = append(next, prefix+a)
			}
		}
		out = next
	}
	return out
}

// curlSubstitute expands "#N" in name for every combination of the
// referenced globs' alternatives; ok is false beyond maxCurlGlobs.
func curlSubstitute(name string, globs []curlGlob) ([]string, bool) {
	out := []string{""}
	for i := 0; i < len(name); i++ {
		alts := []string{name[i : i+1]}
		if name[i] == '#' && i+1 < len(name) && isDigit(name[i+1]) {
			j := i + 1
			for j < len(name) && isDigit(name[j]) {
				j++
			}
			n, _ := strconv.Atoi(name[i+1 : j])
			if n >= 1 && n <= len(globs) {
				alts = globs[n-1]
			} else {
				alts = []string{name[i:j]} // curl keeps an unknown #N as written
			}
			i = j - 1
		}
		var next []string
		for _, prefix := range out {
			for _, a := range alts {
				next = append(next, prefix+a)
			}
		}
		if len(next) > maxCurlGlobs {
			return nil, false
		}
		out = next
	}
	return out, true
}

// curlRemoteName is -O's file name for URL u: the last segment of its
// path (no query or fragment), as curl 7.88 takes it; "" when empty. A
// percent-encoded name is returned decoded when that decodes to another
// valid name, so both spellings get checked by the caller's probe of
// whichever is riskier: the decoded one here.
func curlRemoteName(u string) string {
	rest := u
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return ""
	}
	name := rest[strings.LastIndexByte(rest, '/')+1:]
	if dec, err := url.PathUnescape(name); err == nil && !strings.ContainsAny(dec, "/\x00") {
		name = dec
	}
	return name
}

// curlUpload contains the file a -T upload writes through a file:// URL
// (or a scheme-less one with --proto-default file). Other schemes send
// the file over the network (delegated).
func curlUpload(ctx Context, c curlArgs, up, u curlArg) *Rejection {
	for _, text := range curlGlobTexts(u.value, c.globoff) {
		target, isFile := curlFileURLPath(text, c.protoFile)
		if !isFile {
			continue
		}
		if strings.HasSuffix(target, "/") {
			target += path.Base(up.value)
		}
		rel, ok := relativeToDir(ctx, target)
		word := up.word + " " + u.word
		if !ok {
			return ruleCurlOutputPath.Reject(up.index, word,
				"argument %d %q uploads to %q, a file:// URL, which makes curl write %s outside the working directory", up.index, word, u.value, target)
		}
		if r := outputPath(ctx, "curl", up.index, word, rel, redirect.File); r != nil {
			return r
		}
	}
	return nil
}

// curlFileURLPath returns the local path a file:// URL names (percent
// decoded; host empty or localhost), and whether u is a file URL.
func curlFileURLPath(u string, protoFile bool) (string, bool) {
	rest := u
	switch {
	case len(u) >= 5 && strings.EqualFold(u[:5], "file:"):
		rest = u[5:] // curl takes "file:/path" as well as "file:///path"
	case strings.Contains(u, "://") || !protoFile:
		return "", false
	}
	if r, ok := strings.CutPrefix(rest, "//"); ok {
		host, p, _ := strings.Cut(r, "/")
		if host != "" && !strings.EqualFold(host, "localhost") && !strings.EqualFold(host, "127.0.0.1") {
			return "/" + r, true // curl refuses other hosts; judged as a path anyway
		}
		rest = "/" + p
	}
	if !strings.HasPrefix(rest, "/") {
		rest = "/" + rest // a relative file: URL is resolved from the root
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	if dec, err := url.PathUnescape(rest); err == nil {
		rest = dec
	}
	return rest, true
}

// relativeToDir turns an absolute path inside the working directory into
// a relative one (lexically; ProbeWrite then resolves symlinks).
func relativeToDir(ctx Context, p string) (string, bool) {
	dir := ctx.dirPath()
	if dir == "" {
		return "", false
	}
	clean := path.Clean(p)
	if clean == dir {
		return ".", true
	}
	rel, ok := strings.CutPrefix(clean, dir+"/")
	return rel, ok
}
