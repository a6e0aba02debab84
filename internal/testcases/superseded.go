package testcases

// superseded are the corpus rows whose expectation a later decision of
// the project changed, while the corpora stay verbatim: the new
// expectation and why. Tests judge these rows by Expected.
var superseded = map[string]struct{ expect, why string }{
	// sed became a family (argvrules/sed.go): its scripts are read, not
	// the program refused; r reads a file as cat does.
	"test-sed-003":      {"allow", "sed r reads a file, which is delegated like cat (argvrules sed family)"},
	"code-pipeline-024": {"allow", "s/a/b/ is an everyday sed script (argvrules sed family)"},
	// The command wrappers became families (argvrules/wrap.go): the
	// program a wrapper runs is judged as a stage of its own, and a wrapper
	// that runs none (--help, env alone) runs nothing.
	"test-policy-011": {"allow", "/usr/bin/env alone prints the child environment (argvrules wrapper families)"},
	"test-env-003":    {"allow", "env alone prints the child environment (argvrules wrapper families)"},
	"code-policy-004": {"allow", "env --help (argvrules wrapper families)"},
	"code-policy-007": {"allow", "flock --help (argvrules wrapper families)"},
	"code-policy-016": {"allow", "nice --help (argvrules wrapper families)"},
	"code-policy-018": {"allow", "nohup --help (argvrules wrapper families)"},
	"code-policy-033": {"allow", "stdbuf --help (argvrules wrapper families)"},
	"code-policy-035": {"allow", "time --help (argvrules wrapper families)"},
	"code-policy-036": {"allow", "timeout --help (argvrules wrapper families)"},
	"code-policy-048": {"allow", "/usr/bin/env --help (argvrules wrapper families)"},
	"code-policy-051": {"allow", "/usr/bin/flock --help (argvrules wrapper families)"},
	"code-policy-053": {"allow", "/usr/bin/ionice --help (argvrules wrapper families)"},
	"code-policy-077": {"allow", "/usr/bin/stdbuf --help (argvrules wrapper families)"},
	"code-policy-079": {"allow", "/usr/bin/time --help (argvrules wrapper families)"},
	"code-policy-095": {"allow", "/usr/bin/env ls: ls is judged as a stage of its own, allowed by ALLOW_PATTERNS .* (argvrules wrapper families)"},
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
