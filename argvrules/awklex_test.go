package argvrules

// lexAwk returns the first reading of src in dialect d (every ambiguous
// "/" read as the earliest-ending regex); awkProgramVerdict looks at all
// readings.
func lexAwk(src string, d *awkDialect) ([]awkTok, error) {
	lx := awkLexer{src: src, dialect: d}
	return lx.lex()
}

// checkAwkProgram is awkProgramVerdict as one refusal: the dangerous
// reading's, else the syntax refusal.
func checkAwkProgram(src string, idx int, d *awkDialect) *Rejection {
	if rej, syntax := awkProgramVerdict(src, idx, d); rej != nil {
		return rej
	} else {
		return syntax
	}
}
