package policy

// RefusedGroup is one group of the categorical refusal list (refused.go,
// refusedwin.go): programs of one kind, the category a refusal names, and
// where the entries come from.
type RefusedGroup struct {
	Category string
	Source   string
	Names    []string
	// WindowsOnly marks groups refused only where the server runs on
	// Windows (script extensions); the other Windows groups are refused
	// on every platform.
	WindowsOnly bool
}

// RefusedGroups returns the categorical refusal list, for the
// documentation generator (internal/docgen), with the name shapes of
// refusedPrefixes as groups of their own. The version and variant
// stripping of refusalCandidates (python3.12, vim.basic) applies to every
// Unix name and is not spelled out.
func RefusedGroups() []RefusedGroup {
	var out []RefusedGroup
	add := func(groups []refusedGroup, windowsOnly bool) {
		for _, g := range groups {
			out = append(out, RefusedGroup{Category: g.category, Source: g.source, Names: append([]string(nil), g.names...), WindowsOnly: windowsOnly})
		}
	}
	add(refusedGroups, false)
	add(windowsGroups, false)
	add(windowsOnlyGroups, true)
	for _, p := range refusedPrefixes {
		shape := p.prefix + "*"
		if p.contains != "" {
			shape += p.contains + "*"
		}
		out = append(out, RefusedGroup{Category: p.category, Source: "the name's shape", Names: []string{shape}})
	}
	return out
}
