package testcases

// superseded are the corpus rows whose expectation a later decision of
// the project changed, while the corpora stay verbatim: the new
// expectation and why. Tests judge these rows by Expected.
var superseded = map[string]struct{ expect, why string }{
	// sed became a family (argvrules/sed.go): its scripts are read, not
	// the program refused; r reads a file as cat does.
	"test-sed-003":      {"allow", "sed r reads a file, which is delegated like cat (argvrules sed family)"},
	"code-pipeline-024": {"allow", "s/a/b/ is an everyday sed script (argvrules sed family)"},
}

// Expected is the verdict c must get: its expect field, or the
// superseding one.
func (c Case) Expected() string {
	if s, ok := superseded[c.ID]; ok {
		return s.expect
	}
	return c.Expect
}

// SupersededWhy says why c's expectation was changed, "" when it was not.
func (c Case) SupersededWhy() string { return superseded[c.ID].why }
