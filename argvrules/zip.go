package argvrules

import (
	"slices"
	"strings"
)

// checkZip is the recognizer of Info-ZIP zip 3.0. zip's own option parser allows
// multi-letter short options (-TT, -FS, -sf) and long options, so the
// rule is lexical and position-independent: every single-dash word that
// contains 'T' (-T tests the archive by running unzip, -TT CMD / -TTCMD
// names the test command, in any cluster such as -qT) and every long
// option that is a prefix of --test or --unzip-command is refused. The
// files zip writes (the archive, --out, -lf, -b) must stay inside the
// working directory (zipOutputs). A call without any operand (zip --help, zip -v) is refused:
// the recognizer admits the archive-building forms, and the reference
// server refused zip as a whole, which its corpus rows keep for these.
func checkZip(argv []string, ctx Context) *Rejection {
	if len(argv) == 0 {
		return nil
	}
	if !slices.ContainsFunc(argv[1:], func(w string) bool { return !strings.HasPrefix(w, "-") }) {
		return ruleZipNoArchive.Reject(0, argv[0], "%q has no archive operand: only zip invocations that build an archive are admitted", strings.Join(argv, " "))
	}
	for j := 1; j < len(argv); j++ {
		w := argv[j]
		if strings.HasPrefix(w, "--") {
			name, _, _, ok := longName(w)
			if ok && (strings.HasPrefix("unzip-command", name) || strings.HasPrefix("test", name)) {
				return ruleZipExecOption.Reject(j, w,
					"argument %d %q selects --test or --unzip-command, which runs a program to test the archive", j, w)
			}
			continue
		}
		if strings.HasPrefix(w, "-") && strings.Contains(w, "T") {
			return ruleZipExecOption.Reject(j, w,
				"argument %d %q contains -T or -TT, which runs unzip or a command of its choosing to test the archive", j, w)
		}
	}
	return zipOutputs(argv, ctx)
}
