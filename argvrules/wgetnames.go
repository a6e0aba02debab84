package argvrules

import (
	"bufio"
	"errors"
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/argvrules/internal/fsview"
	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// wget without -O names each file it saves after the URL (url.c
// url_file_name): the last path segment, or index.html for a directory
// URL, below -P; with -r, -m, -p or -x it creates a directory per host
// (host[:port], unless -nH) and per path segment (unless -nd). Those names
// are contained like -O FILE. Names wget takes from the server
// (--content-disposition, --trust-server-names) cannot be known before
// the call and are refused; URLs read from a file (-i FILE) are read from
// it, and from standard input or a URL (-i -, -i http://...) refused.

// wgetNaming is what wget's options say about file names.
type wgetNaming struct {
	document, prefix, input string
	hasDocument, hasInput   bool
	tree, noDirs, noHost    bool
	serverNames             int // argv index of an option letting the server pick names
	inputIndex              int
}

func wgetNamingOf(p parsed) (wgetNaming, []curlArg) {
	var n wgetNaming
	var urls []curlArg
	for i := range p.Events {
		ev := &p.Events[i]
		if ev.Kind == operandEvent {
			urls = append(urls, curlArg{ev.Word, ev.Index, ev.Word})
			continue
		}
		switch ev.Opt.Long {
		case "output-document":
			n.document, n.hasDocument = ev.Value, true
		case "directory-prefix":
			n.prefix = ev.Value
		case "input-file":
			n.input, n.hasInput, n.inputIndex = ev.Value, true, ev.Index
		case "recursive", "mirror", "page-requisites", "force-directories":
			n.tree = true
		case "no-directories":
			n.noDirs = true
		case "no-host-directories":
			n.noHost = true
		case "content-disposition", "trust-server-names":
			n.serverNames = ev.Index
		case "execute":
			wgetExecuteNaming(&n, ev)
		}
		if ev.Opt.Short == 'n' && ev.HasValue {
			n.noDirs = n.noDirs || strings.Contains(ev.Value, "d")
			n.noHost = n.noHost || strings.Contains(ev.Value, "H")
		}
	}
	return n, urls
}

// wgetExecuteNaming applies the -e commands that change naming.
func wgetExecuteNaming(n *wgetNaming, ev *event) {
	name, value, _ := strings.Cut(ev.Value, "=")
	key := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(strings.TrimSpace(name)))
	on := !strings.EqualFold(strings.TrimSpace(value), "off")
	switch key {
	case "contentdisposition", "trustservernames":
		if on {
			n.serverNames = ev.Index
		}
	case "recursive", "mirror", "pagerequisites", "dirstruct":
		n.tree = n.tree || on
	}
}

// wgetDefaultNames contains the files wget names itself.
func wgetDefaultNames(ctx Context, p parsed, argv []string) *Rejection {
	n, urls := wgetNamingOf(p)
	if n.hasDocument && !n.tree {
		return nil // -O FILE is contained as an option
	}
	if n.serverNames != 0 {
		w := argv[n.serverNames]
		return familyRule("wget", kindOutputPath, "output path outside the working directory").Reject(n.serverNames, w,
			"argument %d %q lets the server choose the names of the files wget writes, which may be a configuration file (.gitconfig, .npmrc) or a planted symlink; name the file with -O", n.serverNames, w)
	}
	if n.hasInput {
		more, r := wgetInputURLs(ctx, n, argv)
		if r != nil {
			return r
		}
		urls = append(urls, more...)
	}
	for _, u := range urls {
		name, kind := wgetName(u.value, n)
		if name == "" {
			continue
		}
		if n.prefix != "" {
			name = path.Join(n.prefix, name)
		}
		if r := outputPath(ctx, "wget", u.index, u.word, name, kind); r != nil {
			return r
		}
		if kind == redirect.Dir {
			if r := defaultOutputs(ctx, "wget", u.index, u.word, name, func(string) bool { return true }); r != nil {
				return r
			}
		}
	}
	return nil
}

// wgetName is the file (or, for a tree, the top directory) wget saves
// URL u under.
func wgetName(u string, n wgetNaming) (string, redirect.Kind) {
	rest := u
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	host, p, _ := strings.Cut(rest, "/")
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
	if n.tree && !n.noDirs {
		if !n.noHost {
			return host, redirect.Dir
		}
		if len(segs) > 1 {
			return segs[0], redirect.Dir
		}
	}
	if len(segs) == 0 || strings.HasSuffix(p, "/") {
		return "index.html", redirect.File
	}
	return segs[len(segs)-1], redirect.File
}

// maxInputURLs bounds the lines of an -i file read.
const maxInputURLs = 10000

// wgetInputURLs reads the URLs of -i FILE from the working directory.
func wgetInputURLs(ctx Context, n wgetNaming, argv []string) ([]curlArg, *Rejection) {
	w := argv[n.inputIndex]
	refuse := func(why string) *Rejection {
		return familyRule("wget", kindOutputPath, "output path outside the working directory").Reject(n.inputIndex, w,
			"argument %d %q %s, so the names of the files wget writes cannot be checked; name the file with -O", n.inputIndex, w, why)
	}
	if n.input == "-" || strings.Contains(n.input, "://") {
		return nil, refuse("reads the URLs from standard input or the network")
	}
	if ctx.Dir == nil || redirect.Check(n.input) != nil {
		return nil, refuse("reads the URLs from a file outside the working directory")
	}
	f, err := fsview.OpenRegular(ctx.Dir.Root(), n.input)
	switch {
	case errors.Is(err, fsview.ErrNotRegular):
		return nil, refuse("is not a regular file (a FIFO or device can carry URLs this check cannot read first)")
	case err != nil:
		return nil, nil // wget fails too
	}
	defer f.Close()
	var out []curlArg
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(out) < maxInputURLs {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			out = append(out, curlArg{line, n.inputIndex, w + " (" + line + ")"})
		}
	}
	if sc.Err() != nil || len(out) >= maxInputURLs {
		return nil, refuse("lists more URLs than this check reads")
	}
	return out, nil
}
