package argvrules

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
// formats. -C writes NAME.mgc into the working directory (contained by
// construction); -m and -f read files (delegated).
func checkFile(argv []string, ctx Context) *Rejection {
	return fileProgram.check(argv, ctx)
}
