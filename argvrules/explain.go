package argvrules

import (
	"fmt"
	"strings"
)

// describeEvent says how argv word ev.Word selects ev.Opt, in the words of
// the grammar: exact long name, abbreviation, -W indirection, short letter
// alone or in a cluster, or a letter of tar's old-style first word.
func describeEvent(ev *event) string {
	canon := ev.Opt.Display()
	switch {
	case ev.OldStyle:
		return fmt.Sprintf("argument %d %q is an old-style option word whose letter %s selects %s", ev.Index, ev.Word, strings.TrimPrefix(ev.Name, "-"), canon)
	case ev.Via != "" && ev.Abbrev:
		return fmt.Sprintf("argument %d %q uses %s with an abbreviation of %s", ev.Index, ev.Word, ev.Via, canon)
	case ev.Via != "":
		return fmt.Sprintf("argument %d %q uses %s to select %s", ev.Index, ev.Word, ev.Via, canon)
	case ev.Abbrev:
		return fmt.Sprintf("argument %d %q is an abbreviation of %s", ev.Index, ev.Word, canon)
	case strings.HasPrefix(ev.Name, "--"):
		return fmt.Sprintf("argument %d %q selects %s", ev.Index, ev.Word, canon)
	case ev.Cluster:
		return fmt.Sprintf("argument %d %q contains %s (%s) in a short-option cluster", ev.Index, ev.Word, ev.Name, canon)
	case canon != ev.Name:
		return fmt.Sprintf("argument %d %q is %s (%s)", ev.Index, ev.Word, ev.Name, canon)
	default:
		return fmt.Sprintf("argument %d %q selects %s", ev.Index, ev.Word, canon)
	}
}

// grammarNote names the reading in which a rejection was found, for
// families checked under several grammars.
func grammarNote(program string) string {
	if program == "" {
		return ""
	}
	return " (" + program + " reading)"
}

// optionRejection refuses a risky option event.
func optionRejection(ev *event, policy, program string) *Rejection {
	return ev.Opt.Rule.Reject(ev.Index, ev.Word, "%s, which %s%s",
		describeEvent(ev), ev.Opt.Risk, grammarNote(program))
}

// grammarRejection refuses an argv the grammar does not accept. An
// ambiguous prefix whose candidates include a risky option says which
// readings are risky. exact programs (no abbreviations: clap, curl) see
// every non-exact long name as unknown.
func grammarRejection(family, dangerPolicy, grammarPolicy string, e *parseError, exact bool) *Rejection {
	if e.Kind == parseAmbiguous && exact {
		return familyRule(family, kindUnknownOption, grammarPolicy).Reject(e.Index, e.Word,
			"argument %d %q is not an exact option name, and %s accepts no abbreviations (only known options are allowed)",
			e.Index, e.Word, e.Program)
	}
	policy := grammarPolicy
	if e.Kind == parseAmbiguous {
		names := make([]string, len(e.Candidates))
		var risky []string
		for i, c := range e.Candidates {
			names[i] = c.Display()
			if c.Risk != "" {
				risky = append(risky, c.Display()+" "+c.Risk)
			}
		}
		detail := fmt.Sprintf("argument %d %q is an ambiguous abbreviation in %s: it could be %s",
			e.Index, e.Word, e.Program, strings.Join(names, ", "))
		if len(risky) > 0 {
			detail += "; the reading " + strings.Join(risky, "; the reading ")
			policy = dangerPolicy
		}
		return familyRule(family, kindAmbiguousOption, policy).Reject(e.Index, e.Word, "%s", detail)
	}
	kind := kindUnknownOption
	switch e.Kind {
	case parseMissingValue:
		kind = kindMissingValue
	case parseUnexpectedValue:
		kind = kindUnexpectedValue
	}
	return familyRule(family, kind, policy).Reject(e.Index, e.Word, "%s (only known options are allowed)", e.Error())
}

// baseName returns the last path element of argv[0] ("" for empty argv).
func baseName(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	s := strings.TrimSpace(argv[0])
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	return s
}
