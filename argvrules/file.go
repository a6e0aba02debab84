package argvrules

import (
	"path"
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

const riskFileUncompress = "looks inside compressed files, running external decompression programs for formats file does not decode itself (the same reason rg -z is refused)"

// fileTable is the file 5.4x option table ("file --help", file 5.44).
var fileTable = newTable("file 5.4x", false, []option{
	{Long: "help"},
	{Long: "version", Short: 'v'},
	{Long: "magic-file", Short: 'm', Arg: requiredArg},
	{Long: "uncompress", Short: 'z', Risk: riskFileUncompress, Rule: ruleFileExecOption},
	{Long: "uncompress-noreport", Short: 'Z', Risk: riskFileUncompress, Rule: ruleFileExecOption},
	{Long: "brief", Short: 'b'},
	{Long: "checking-printout", Short: 'c'},
	{Long: "exclude", Short: 'e', Arg: requiredArg},
	{Long: "exclude-quiet", Arg: requiredArg},
	{Long: "files-from", Short: 'f', Arg: requiredArg},
	{Long: "separator", Short: 'F', Arg: requiredArg},
	{Long: "mime", Short: 'i'},
	{Long: "apple"},
	{Long: "extension"},
	{Long: "mime-type"},
	{Long: "mime-encoding"},
	{Long: "keep-going", Short: 'k'},
	{Long: "list", Short: 'l'},
	{Long: "dereference", Short: 'L'},
	{Long: "no-dereference", Short: 'h'},
	{Long: "no-buffer", Short: 'n'},
	{Long: "no-pad", Short: 'N'},
	{Long: "print0", Short: '0'},
	{Long: "preserve-date", Short: 'p'},
	{Long: "parameter", Short: 'P', Arg: requiredArg},
	{Long: "raw", Short: 'r'},
	{Long: "special-files", Short: 's'},
	{Long: "no-sandbox", Short: 'S'},
	{Long: "compile", Short: 'C'},
	{Long: "debug", Short: 'd'},
})

var fileProgram = &getoptProgram{
	family: "file", policy: "file external program", grammar: "file option grammar",
	table: fileTable, order: permute,
}

// checkFile is the recognizer of file(1) 5.4x. It refuses -z/--uncompress and
// -Z/--uncompress-noreport, which run external decompressors for some
// formats. -C/--compile writes NAME.mgc into the working directory for
// each -m NAME (magic.mgc without -m; file.c main, apprentice.c mkdbname),
// each contained like an output option, since a planted NAME.mgc symlink
// would be followed; -m and -f read files (delegated).
func checkFile(argv []string, ctx Context) *Rejection {
	if r := fileProgram.check(argv, ctx); r != nil {
		return r
	}
	p := fileTable.Parse(argv, 1, permute)
	compile, at := false, 0
	var magic []string
	for i := range p.Events {
		ev := &p.Events[i]
		switch {
		case ev.Kind != optionEvent:
		case ev.Opt.Long == "compile":
			compile, at = true, ev.Index
		case ev.Opt.Long == "magic-file" && ev.HasValue:
			for _, m := range strings.Split(ev.Value, ":") {
				magic = append(magic, path.Base(m)+".mgc")
			}
		}
	}
	if !compile {
		return nil
	}
	if len(magic) == 0 {
		magic = []string{"magic.mgc"}
	}
	for _, name := range magic {
		if r := outputPath(ctx, "file", at, argv[at], name, redirect.File); r != nil {
			return r
		}
	}
	return nil
}
