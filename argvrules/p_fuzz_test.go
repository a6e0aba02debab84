package argvrules

import (
	"reflect"
	"strings"
	"testing"
)

// sep joins argv elements in fuzz inputs; any other byte, NUL and invalid
// UTF-8 included, is argument data.
const sep = "\x1f"

// fuzzFamily is the shared body of the per-recognizer fuzz targets: seed
// from the table rows of the family, then check that the recognizer never
// panics, is deterministic, and returns a well-formed Rejection.
func fuzzFamily(f *testing.F, family string) {
	rec := recOf(family)
	if rec == nil {
		f.Fatalf("no recognizer %q", family)
	}
	seeded := 0
	for _, r := range append(append([]row(nil), tableRows...), redTeamRows...) {
		if famName(baseName(r.argv)) == family {
			f.Add(strings.Join(r.argv[1:], sep))
			seeded++
		}
	}
	f.Add("")
	f.Add("--" + sep + "-" + sep + "--=" + sep + "-\x00" + sep + "\xff\xfe")
	dir := pinCtx(f, testDir(f))
	f.Fuzz(func(t *testing.T, in string) {
		argv := append([]string{family}, strings.Split(in, sep)...)
		if in == "" {
			argv = argv[:1]
		}
		for _, ctx := range []Context{{}, dir} {
			r1 := rec(argv, ctx)
			r2 := rec(argv, ctx)
			if !reflect.DeepEqual(r1, r2) {
				t.Fatalf("%q: not deterministic: %v then %v", argv, r1, r2)
			}
			if r1 != nil && (r1.Index < 0 || r1.Index >= len(argv) || r1.Code == "" || r1.Message == "") {
				t.Fatalf("%q: malformed rejection %+v", argv, r1)
			}
		}
	})
}

// FuzzSplitQuotedFields checks that splitting never panics and that
// re-quoting the fields and splitting again gives the same fields.
func FuzzSplitQuotedFields(f *testing.F) {
	for _, s := range []string{"", "-s -w", "-X 'main.v=a b' -s", `"-o" /x`, `'a'b`, `a'b c'`, `'x`, "\t-N\n-l\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fields, err := splitQuotedFields(s)
		if err != nil {
			return
		}
		var b strings.Builder
		for _, fl := range fields {
			switch {
			case !strings.Contains(fl, "'"):
				b.WriteString("'" + fl + "' ")
			case !strings.Contains(fl, `"`):
				b.WriteString(`"` + fl + `" `)
			default:
				return
			}
		}
		again, err := splitQuotedFields(b.String())
		if err != nil || !reflect.DeepEqual(again, fields) {
			t.Fatalf("%q: fields %q, re-quoted %q split to %q (%v)", s, fields, b.String(), again, err)
		}
	})
}

func FuzzRg(f *testing.F)      { fuzzFamily(f, "rg") }
func FuzzSplit(f *testing.F)   { fuzzFamily(f, "split") }
func FuzzSdiff(f *testing.F)   { fuzzFamily(f, "sdiff") }
func FuzzDiff3(f *testing.F)   { fuzzFamily(f, "diff3") }
func FuzzWget(f *testing.F)    { fuzzFamily(f, "wget") }
func FuzzCurl(f *testing.F)    { fuzzFamily(f, "curl") }
func FuzzMake(f *testing.F)    { fuzzFamily(f, "make") }
func FuzzGo(f *testing.F)      { fuzzFamily(f, "go") }
func FuzzNpm(f *testing.F)     { fuzzFamily(f, "npm") }
func FuzzNpx(f *testing.F)     { fuzzFamily(f, "npx") }
func FuzzPnpm(f *testing.F)    { fuzzFamily(f, "pnpm") }
func FuzzYarn(f *testing.F)    { fuzzFamily(f, "yarn") }
func FuzzPip(f *testing.F)     { fuzzFamily(f, "pip") }
func FuzzCargo(f *testing.F)   { fuzzFamily(f, "cargo") }
func FuzzZip(f *testing.F)     { fuzzFamily(f, "zip") }
func FuzzDocker(f *testing.F)  { fuzzFamily(f, "docker") }
func FuzzPodman(f *testing.F)  { fuzzFamily(f, "podman") }
func FuzzKubectl(f *testing.F) { fuzzFamily(f, "kubectl") }
func FuzzFile(f *testing.F)    { fuzzFamily(f, "file") }
