package argvrules

import (
	"reflect"
	"testing"
)

// testTable is a small getopt_long table exercising every argument kind,
// aliases and the "W;" extension.
var testTable = newTable("test", true, []option{
	{Long: "all", Short: 'a'},
	{Long: "output", Short: 'o', Arg: requiredArg, Risk: "writes"},
	{Long: "outdent", Arg: noArg},
	{Long: "profile", Short: 'p', Arg: optionalArg},
	{Long: "gzip", Short: 'z'},
	{Long: "gunzip", Key: "z"},
	{Long: "verbose", Short: 'v'},
	{Short: 'W'},
})

// render turns a parse into compact strings: "opt:NAME=VALUE@IDX/VIDX",
// "arg:WORD@IDX", and a final "err:KIND@IDX" when parsing stopped.
func render(p parsed) []string {
	var out []string
	for _, ev := range p.Events {
		if ev.Kind == operandEvent {
			out = append(out, "arg:"+ev.Word+"@"+itoa(ev.Index))
			continue
		}
		s := "opt:" + ev.Opt.Display()
		if ev.HasValue {
			s += "=" + ev.Value
		}
		s += "@" + itoa(ev.Index) + "/" + itoa(ev.ValueIndex)
		out = append(out, s)
	}
	if p.Err != nil {
		out = append(out, "err:"+[]string{"unknown", "ambiguous", "missing", "unexpected"}[p.Err.Kind]+"@"+itoa(p.Err.Index))
	}
	return out
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestGetoptParse(t *testing.T) {
	cases := []struct {
		argv  []string
		order ordering
		want  []string
	}{
		{[]string{"p", "-ao", "f", "x"}, permute, []string{"opt:--all@1/-1", "opt:--output=f@1/2", "arg:x@3"}},
		{[]string{"p", "-aofile"}, permute, []string{"opt:--all@1/-1", "opt:--output=file@1/1"}},
		{[]string{"p", "-o", "-a"}, permute, []string{"opt:--output=-a@1/2"}},
		{[]string{"p", "-o", "--"}, permute, []string{"opt:--output=--@1/2"}},
		{[]string{"p", "--output", "--all"}, permute, []string{"opt:--output=--all@1/2"}},
		{[]string{"p", "--outp=x"}, permute, []string{"opt:--output=x@1/1"}},
		{[]string{"p", "--out=x"}, permute, []string{"err:ambiguous@1"}},
		{[]string{"p", "--outdent"}, permute, []string{"opt:--outdent@1/-1"}},
		{[]string{"p", "--g"}, permute, []string{"opt:--gzip@1/-1"}}, // aliases: not ambiguous
		{[]string{"p", "-p", "x"}, permute, []string{"opt:--profile@1/-1", "arg:x@2"}},
		{[]string{"p", "-px"}, permute, []string{"opt:--profile=x@1/1"}},
		{[]string{"p", "--profile=x"}, permute, []string{"opt:--profile=x@1/1"}},
		{[]string{"p", "x", "-a"}, permute, []string{"arg:x@1", "opt:--all@2/-1"}},
		{[]string{"p", "x", "-a"}, requireOrder, []string{"arg:x@1", "arg:-a@2"}},
		{[]string{"p", "--", "-a"}, permute, []string{"arg:-a@2"}},
		{[]string{"p", "-", "-a"}, permute, []string{"arg:-@1", "opt:--all@2/-1"}},
		{[]string{"p", "-W", "output=f"}, permute, []string{"opt:--output=f@1/2"}},
		{[]string{"p", "-Woutput", "f"}, permute, []string{"opt:--output=f@1/2"}},
		{[]string{"p", "-aWoutp=f"}, permute, []string{"opt:--all@1/-1", "opt:--output=f@1/1"}},
		{[]string{"p", "-x"}, permute, []string{"err:unknown@1"}},
		{[]string{"p", "-o"}, permute, []string{"opt:--output@1/-1", "err:missing@1"}},
		{[]string{"p", "--all=1"}, permute, []string{"opt:--all@1/-1", "err:unexpected@1"}},
		{[]string{"p", "--=x"}, permute, []string{"err:ambiguous@1"}},
	}
	for _, c := range cases {
		got := render(testTable.Parse(c.argv, 1, c.order))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.argv, got, c.want)
		}
	}
}

func TestLookupLongExactWins(t *testing.T) {
	tbl := newTable("t", false, []option{{Long: "check"}, {Long: "check-links"}})
	o, abbrev, amb := tbl.LookupLong("check")
	if o == nil || o.Long != "check" || abbrev || amb != nil {
		t.Fatalf("exact match should win: %v %v %v", o, abbrev, amb)
	}
}

func TestGNUTarOldStyleValuesInOrder(t *testing.T) {
	p := gnuTarParse([]string{"tar", "cIf", "PROG", "out.tar", "dir"})
	got := render(p)
	want := []string{"opt:--create@1/-1", "opt:--use-compress-program=PROG@1/2", "opt:--file=out.tar@1/3", "arg:dir@4"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestBsdtarGrammar(t *testing.T) {
	cases := []struct {
		argv []string
		want []string
	}{
		{[]string{"bsdtar", "-cHf", "a", "d", "-x"}, []string{"opt:-c@1/-1", "opt:-H@1/-1", "opt:-f=a@1/2", "arg:d@3", "arg:-x@4"}},
		{[]string{"bsdtar", "-W", "use-compress-program=p"}, []string{"opt:--use-compress-program=p@1/2"}},
		{[]string{"bsdtar", "--use", "p"}, []string{"opt:--use-compress-program=p@1/2"}},
		{[]string{"bsdtar", "--un"}, []string{"err:ambiguous@1"}},
		{[]string{"bsdtar", "cf", "a", "--", "-x"}, []string{"opt:-c@1/-1", "opt:-f=a@1/2", "arg:-x@4"}},
	}
	for _, c := range cases {
		got := render(bsdtarParse(c.argv))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %v, want %v", c.argv, got, c.want)
		}
	}
}
