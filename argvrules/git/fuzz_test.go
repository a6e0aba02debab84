package git

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzCheck feeds argv built from a NUL-free, "\x1e"-separated string; the
// verdict must not panic and must be deterministic (same Rejection twice).
func FuzzCheck(f *testing.F) {
	seeds := []string{
		"git\x1estatus", "git\x1egrep\x1e-nOP\x1ex", "git\x1erebase\x1e--ex=sh\x1emain",
		"git\x1e-c\x1ea=b\x1estatus", "git\x1esend-email\x1e--smtp-pass\x1e+identity\x1e--sendmail-cmd=x",
		"git\x1econfig\x1e--get\x1euser.name", "git\x1elog\x1e--output=/tmp/x",
		"git\x1eclone\x1e-qu\x1esh\x1erepo", "git\x1e--attr-source\x1eHEAD\x1econfig",
		"git-grep\x1e-O", "git\x1esend-email\x1e--no\x1e--", "git\x1ehelp\x1e--no-",
	}
	for _, row := range benignGitRows(f) {
		seeds = append(seeds, strings.Join(row, "\x1e"))
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		argv := strings.Split(s, "\x1e")
		a := Check(argv, testDir, nil)
		b := Check(argv, testDir, nil)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("nondeterministic verdict for %q: %+v vs %+v", argv, a, b)
		}
		if a != nil && (a.Code == "" || a.Message == "" || a.Index >= len(argv)) {
			t.Fatalf("malformed rejection for %q: %+v", argv, a)
		}
	})
}
