package argvrules

// Families returns the recognizers of this package by family name:
// "find", "awk", "sort" and "tar". The map is new on every call.
func Families() map[string]Recognizer {
	return map[string]Recognizer{
		"find": Find,
		"awk":  Awk,
		"sort": Sort,
		"tar":  Tar,
	}
}

// familyNames maps executable basenames and aliases to families; the
// reference server's alias map (bfind, gfind, bsdtar, gtar, gawk, mawk,
// nawk) plus gsort.
var familyNames = map[string]string{
	"find": "find", "gfind": "find", "bfind": "find",
	"awk": "awk", "gawk": "awk", "mawk": "awk", "nawk": "awk",
	"sort": "sort", "gsort": "sort",
	"tar": "tar", "gtar": "tar", "bsdtar": "tar",
}

// FamilyOf returns the family of an executable basename (as produced by
// filepath.Base of argv[0]): "find", "awk", "sort", "tar", or "" when the
// name belongs to none of them. The comparison is exact (case-sensitive).
func FamilyOf(base string) string {
	return familyNames[base]
}
