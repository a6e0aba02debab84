package argvrules

import (
	"strings"
	"testing"
)

// tarRows are the table rows of tar under GNU and bsdtar grammars: helper
// programs, checkpoint actions, the volume prompt, remote archives, output
// files.
var tarRows = familyRows([]row{
	{a("tar", "-czf", "a.tgz", "dir"), ""},
	{a("tar", "-xjf", "a.tbz"), ""},
	{a("tar", "-J", "-cf", "a.txz", "d"), ""},
	{a("tar", "--zstd", "-cf", "a.zst", "d"), ""},
	{a("tar", "--checkpoint=10", "-cf", "a", "d"), ""},
	{a("tar", "czf", "a.tgz", "dir"), ""},
	{a("tar", "-tvf", "a.tar"), ""},
	{a("tar", "-xzf", "a.tgz", "-C", "sub"), ""},
	{a("bsdtar", "-cf", "a.tar", "--uid", "0", "d"), ""}, // bsdtar-only option
	{a("tar", "-cf", "a.tar", "--", "--to-command=x"), ""},
	{a("tar", "-cf", "--use-compress-program=x", "d"), ""}, // -f consumed it
	{a("tar", "-cf", "host:x", "--force-local", "d"), ""},
	{a("tar", "-cf", "./host:x", "d"), ""},
	{a("tar", "-tf", "/a/b:x"), ""},
	{a("tar", "-c", "-f", "a.tar", "-C", "d", "."), ""},
	{a("tar", "--checkpoint-action=dot", "-cf", "a", "d"), ""},
	{a("tar", "-I", "zstd", "-cf", "x", "d"), ruleTarExecOption.Code},
	{a("tar", "-cvIsh", "-f", "x", "d"), ruleTarExecOption.Code},
	{a("tar", "cIf", "prog", "out.tar", "dir"), ruleTarExecOption.Code},
	{a("tar", "-cf", "x", "d", "-Ifoo"), ruleTarExecOption.Code},
	{a("tar", "--use-comp=sh", "-cf", "x", "d"), ruleTarExecOption.Code},
	{a("tar", "--use", "sh", "-cf", "x", "d"), ruleTarExecOption.Code},
	{a("tar", "--to", "sh", "-xf", "x"), "tar.ambiguous-option"},
	{a("tar", "--to-c", "sh", "-xf", "x"), ruleTarExecOption.Code},
	{a("tar", "--to-com=sh", "-xf", "x"), ruleTarExecOption.Code},
	{a("tar", "--rm=x", "-xf", "x"), ruleTarExecOption.Code},
	{a("tar", "--rsh=x", "-xf", "x"), ruleTarExecOption.Code},
	{a("tar", "--info-script=x", "-cMf", "x", "d"), ruleTarExecOption.Code},
	{a("tar", "--new-v=x", "-cMf", "x", "d"), ruleTarExecOption.Code},
	{a("tar", "-cMF", "x", "-f", "a", "d"), ruleTarExecOption.Code},
	{a("tar", "cMLFf", "20", "x", "mv.tar", "big"), ruleTarExecOption.Code},
	{a("tar", "--checkpoint-action=exec=id", "-cf", "x", "d"), ruleTarExecOption.Code},
	{a("tar", "--checkpoint-act", "exec=id", "-cf", "x", "d"), ruleTarExecOption.Code},
	{a("tar", "--checkpoint-action=sleep=1", "-cf", "x", "d"), ruleTarExecOption.Code},
	{a("tar", "-cL", "--use-compress-program=sh", "-f", "x", "d"), ruleTarExecOption.Code},
	{a("bsdtar", "-cf", "x", "-W", "use-compress-program=sh", "d"), ruleTarExecOption.Code},
	{a("tar", "-cf", "x", "-Wuse-compress-program=sh", "d"), ruleTarExecOption.Code},
	{a("tar", "-cf", "x", "-Wus=sh", "d"), ruleTarExecOption.Code},
	{a("tar", "tf", "127.0.0.1:/x.tar"), "tar.remote-archive"},
	{a("tar", "-cf", "host:x", "d"), "tar.remote-archive"},
	{a("tar", "--file=h:x", "-c", "d"), "tar.remote-archive"},
	{a("tar", "--new", "x", "-cf", "x", "d"), "tar.ambiguous-option"},
	{a("tar", "--bogus-both", "-cf", "x", "d"), "tar.unknown-option"},
	{a("tar", "-c", "-M", "-L", "10", "-f", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "-cM", "-f", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "-cMf", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "cMf", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "xMf", "a.tar"), ruleTarMultiVolume.Code},
	{a("tar", "--multi-volume", "-cf", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "--multi", "-cf", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "--mu", "-cf", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "-cf", "a.tar", "big", "-M"), ruleTarMultiVolume.Code},
	{a("tar", "-c", "-L", "10", "-f", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "-cL10", "-f", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "cLf", "10", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "--tape-length=10", "-cf", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "--tape", "10", "-cf", "a.tar", "big"), ruleTarMultiVolume.Code},
	{a("tar", "--m", "-cf", "a.tar", "big"), "tar.ambiguous-option"},
	{a("tar", "-cwf", "a.tar", "big"), ""},
	{a("tar", "--interactive", "-xf", "a.tar"), ""},
	{a("tar", "--confirmation", "-xf", "a.tar"), ""},
	{a("bsdtar", "-xwf", "a.tar"), ""},
	{a("tar", "--index-file=/tmp/idx", "-cvf", "a.tar", "d"), "tar.output-path"},
	{a("tar", "--index-file", "../idx", "-cvf", "a.tar", "d"), "tar.output-path"},
	{a("tar", "--index=out/idx", "-cvf", "a.tar", "d"), "tar.output-path"},
	{a("tar", "-cvf", "a.tar", "d", "--index-file=/tmp/idx"), "tar.output-path"},
	{a("tar", "--volno-file=/tmp/v", "-cf", "a.tar", "d"), "tar.output-path"},
	{a("tar", "-g", "/tmp/snap", "-cf", "a.tar", "d"), "tar.output-path"},
	{a("tar", "-g/tmp/snap", "-cf", "a.tar", "d"), "tar.output-path"},
	{a("tar", "-cg", "/tmp/snap", "-f", "a.tar", "d"), "tar.output-path"},
	{a("tar", "cgf", "/tmp/snap", "a.tar", "d"), "tar.output-path"},
	{a("tar", "--listed-incremental=sub/../../snap", "-cf", "a.tar", "d"), "tar.output-path"},
	{a("tar", "--listed=/tmp/snap", "-cf", "a.tar", "d"), "tar.output-path"},
	{a("tar", "--index-file=idx.txt", "-cvf", "a.tar", "d"), ""},
	{a("tar", "-g", "sub/snap.snar", "-cf", "a.tar", "d"), ""},
	{a("tar", "cgf", "snap.snar", "a.tar", "d"), ""},
	{a("tar", "-cf", "a.tar", "--", "--index-file=/tmp/idx"), ""},
	// archives written outside: create, append, update, concatenate, delete
	{a("tar", "-czf", "/tmp/o.tgz", "."), "tar.output-path"},
	{a("tar", "czf", "/tmp/o.tgz", "."), "tar.output-path"},
	{a("tar", "-c", "--file=../o.tar", "."), "tar.output-path"},
	{a("tar", "--create", "--file", "out/o.tar", "."), "tar.output-path"}, // out -> /tmp
	{a("tar", "-rf", "/tmp/o.tar", "file.txt"), "tar.output-path"},
	{a("tar", "-uf", "../o.tar", "file.txt"), "tar.output-path"},
	{a("tar", "-Af", "/tmp/o.tar", "b.tar"), "tar.output-path"},
	{a("tar", "--concatenate", "-f", "/tmp/o.tar", "b.tar"), "tar.output-path"},
	{a("tar", "--delete", "-f", "/tmp/o.tar", "m"), "tar.output-path"},
	{a("tar", "-c", "-f", "a.tar", "-f", "/tmp/b.tar", "."), "tar.output-path"},
	{a("bsdtar", "-cf", "/tmp/o.tar", "."), "tar.output-path"},
	{a("bsdtar", "--create", "--file=/tmp/o.tar", "."), "tar.output-path"},
	{a("bsdtar", "-c", "-W", "file=/tmp/o.tar", "."), "tar.output-path"},
	{a("tar", "-C", "/tmp", "-cf", "../o.tar", "."), "tar.output-path"}, // -f is opened before -C
	// extraction outside: -C, composed -C, --one-top-level, -P
	{a("tar", "-xzf", "a.tgz", "-C", "/tmp"), "tar.output-path"},
	{a("tar", "-xzf", "a.tgz", "-C", "../x"), "tar.output-path"},
	{a("tar", "-xf", "a.tar", "-C", "out"), "tar.output-path"},
	{a("tar", "-xf", "a.tar", "-C", "sub", "-C", "../.."), "tar.output-path"},
	{a("tar", "xfC", "a.tar", "/tmp"), "tar.output-path"},
	{a("tar", "-x", "--directory=/tmp", "-f", "a.tar"), "tar.output-path"},
	{a("tar", "--get", "-f", "a.tar", "--dir", "/tmp"), "tar.output-path"},
	{a("bsdtar", "-xf", "a.tar", "--cd", "/tmp"), "tar.output-path"},
	{a("bsdtar", "-x", "-f", "a.tar", "-C/tmp"), "tar.output-path"},
	{a("tar", "-xf", "a.tar", "--one-top-level=/tmp/x"), "tar.output-path"},
	{a("tar", "-xf", "a.tar", "-C", "sub", "--one-top-level=../../x"), "tar.output-path"},
	{a("tar", "-xPf", "a.tar"), "tar.absolute-names"},
	{a("tar", "xPf", "a.tar"), "tar.absolute-names"},
	{a("tar", "-x", "--absolute-names", "-f", "a.tar"), "tar.absolute-names"},
	{a("tar", "-x", "--abs", "-f", "a.tar"), "tar.absolute-names"},
	{a("bsdtar", "-x", "--absolute-paths", "-f", "a.tar"), "tar.absolute-names"},
	{a("bsdtar", "-x", "--insecure", "-f", "a.tar"), "tar.absolute-names"},
	// --remove-files deletes the operands after archiving them
	{a("tar", "-czf", "o.tgz", "--remove-files", "/tmp/x"), "tar.output-path"},
	{a("tar", "--remove-files", "-cf", "o.tar", "-C", "/tmp", "x"), "tar.output-path"},
	{a("tar", "-cf", "o.tar", "--remove-files", "sub", "../x"), "tar.output-path"},
	{a("tar", "-czf", "o.tgz", "--remove-files", "sub", "file.txt"), ""},
	{a("tar", "-C", "sub", "-cf", "o.tar", "--remove-files", "new"), ""},
	{a("tar", "-czf", "o.tgz", "/tmp/x", "../y"), ""},
	// a -T list: its -C lines move extraction, --remove-files deletes its names
	{a("tar", "-xf", "a.tar", "-T", "list"), "tar.output-path"},
	{a("tar", "-xf", "a.tar", "-T-"), "tar.output-path"},
	{a("tar", "xfT", "a.tar", "list"), "tar.output-path"},
	{a("tar", "-x", "--files=list", "-f", "a.tar"), "tar.output-path"},
	{a("tar", "-xf", "a.tar", "-T", "list", "--verbatim-files-from"), "tar.output-path"},
	{a("tar", "-xf", "a.tar", "--verbatim-files-from", "--no-verbatim-files-from", "-T", "list"), "tar.output-path"},
	{a("tar", "-xf", "a.tar", "--null", "--no-null", "-T", "list"), "tar.output-path"},
	{a("tar", "-cf", "o.tar", "--remove-files", "-T", "list"), "tar.output-path"},
	{a("tar", "-cf", "o.tar", "--verbatim-files-from", "--remove-files", "-T", "list"), "tar.output-path"},
	{a("tar", "-xf", "a.tar", "--verbatim-files-from", "-T", "list"), ""},
	{a("tar", "-xf", "a.tar", "--null", "-T", "list"), ""},
	{a("tar", "-xOf", "a.tar", "-T", "list"), ""},
	{a("tar", "-tf", "a.tar", "-T", "list"), ""},
	{a("tar", "-cf", "o.tar", "-T", "list"), ""},
	// a backup suffix with "/" renames the old file to a path below its name
	{a("tar", "-xf", "a.tar", "--backup", "--suffix=/../../x"), "tar.output-path"},
	{a("tar", "-xf", "a.tar", "--backup", "--suff", "/x"), "tar.output-path"},
	{a("tar", "-xf", "a.tar", "--backup", "--suffix=.orig"), ""},
	// --add-file is a name --remove-files deletes
	{a("tar", "-cf", "o.tar", "--remove-files", "--add-file=/tmp/x"), "tar.output-path"},
	{a("tar", "-cf", "o.tar", "--remove-files", "--add-f", "../x"), "tar.output-path"},
	{a("tar", "-cf", "o.tar", "--remove-files", "-C", "/tmp", "--add-file=x"), "tar.output-path"},
	{a("tar", "-cf", "o.tar", "--remove-files", "--add-file=-x"), ""},
	{a("tar", "-cf", "o.tar", "--add-file=/tmp/x"), ""},
	// everyday forms stay allowed
	{a("tar", "-czf", "out.tgz", "dir"), ""},
	{a("tar", "-xzf", "a.tgz"), ""},
	{a("tar", "-xzf", "a.tgz", "-C", "sub/new"), ""},
	{a("tar", "-C", "/abs/src", "-czf", "out.tgz", "."), ""},
	{a("tar", "-tf", "/abs/a.tar"), ""},
	{a("tar", "-tvzf", "../a.tgz"), ""},
	{a("tar", "-xf", "/abs/a.tar", "-C", "."), ""},
	{a("tar", "-xf", "../a.tar"), ""},
	{a("tar", "-df", "/abs/a.tar", "-C", "/abs"), ""},
	{a("tar", "-xOf", "a.tar", "-C", "/tmp"), ""},
	{a("tar", "-x", "--to-stdout", "-P", "-f", "/abs/a.tar"), ""},
	{a("tar", "-cPf", "a.tar", "/etc/hosts"), ""},
	{a("bsdtar", "-cPf", "a.tar", "/etc/hosts"), ""},
	{a("tar", "-czf", "-", "."), ""},
	{a("tar", "-cf", "/dev/null", "."), ""},
	{a("tar", "-xf", "a.tar", "--one-top-level"), ""},
	{a("tar", "-xf", "a.tar", "--one-top-level=sub/x"), ""},
	{a("tar", "-xf", "a.tar", "--transform", "s,^,/tmp/,"), ""},
	{a("bsdtar", "-xf", "a.tar", "-s", ",^,/tmp/,"), ""},
	{a("tar", "-xf", "a.tar", "-C", "sub", "-C", "new"), ""},
	{a("tar", "-xf", "a.tar", "-C", "sub", "-C", ".."), "tar.output-path"}, // ".." as for ">": sub may be a symlink
})

func TestTarRows(t *testing.T) { checkRows(t, tarRows) }

func TestTarMessageNamesAbbreviation(t *testing.T) {
	r := checkTar([]string{"tar", "-cf", "x", "--use-comp=sh", "d"}, Context{})
	want := `Command rejected by default security policy: tar command execution option: argument 3 "--use-comp=sh" is an abbreviation of --use-compress-program, which runs a program`
	if r == nil || !strings.HasPrefix(r.Message, want) {
		t.Fatalf("got %+v\nwant prefix %s", r, want)
	}
	if r.Index != 3 || r.Arg != "--use-comp=sh" {
		t.Errorf("Index/Arg = %d/%q", r.Index, r.Arg)
	}
}

// TestTarTapeEnvironment checks $TAPE, the archive both tars write when
// a writing mode has no -f.
func TestTarTapeEnvironment(t *testing.T) {
	ctx := pinCtx(t, rowDir(t))
	for _, c := range []struct {
		tape string
		argv []string
		want string
	}{
		{"/tmp/t.tar", a("tar", "-c", "."), "tar.output-path"},
		{"../t.tar", a("bsdtar", "-c", "."), "tar.output-path"},
		{"t.tar", a("tar", "-c", "."), ""},
		{"/tmp/t.tar", a("tar", "-cf", "o.tar", "."), ""},
		{"/tmp/t.tar", a("tar", "-x"), ""},
		{"-", a("tar", "-c", "."), ""},
	} {
		ctx := ctx
		ctx.Env = func(name string) (string, bool) { return c.tape, name == "TAPE" }
		got := ""
		if r := checkTar(c.argv, ctx); r != nil {
			got = string(r.Code)
		}
		if got != c.want {
			t.Errorf("TAPE=%s %q: got %q, want %q", c.tape, c.argv, got, c.want)
		}
	}
}
