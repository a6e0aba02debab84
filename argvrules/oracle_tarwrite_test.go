//go:build unix

package argvrules

import (
	"archive/tar"
	"archive/zip"
	"os"
	"path/filepath"
	"testing"
)

// TestTarWriteOracle runs GNU tar and bsdtar on the forms that write
// outside the working directory (an archive created, appended to or
// rewritten there; extraction into a -C or --one-top-level directory
// there; -P extraction of an absolute member) and on the everyday forms
// that only read outside it.
func TestTarWriteOracle(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("oracle runs tar")
	}
	v := func(bin string, args ...string) outsideVariant { return outsideVariant{bin: bin, args: args} }
	ok := func(v outsideVariant) outsideVariant { v.allow = true; return v }
	via := func(v outsideVariant) outsideVariant {
		v.symlink = map[string]string{"lnk": "@OUT@"}
		return v
	}
	outsideOracle{
		name: "tar-write",
		prepare: func(dir, out string) {
			os.WriteFile(filepath.Join(dir, "in.txt"), []byte("payload\n"), 0o644)
			os.Mkdir(filepath.Join(dir, "sub"), 0o755)
			writeTestTar(filepath.Join(dir, "a.tar"), "m.txt")
			writeTestTar(filepath.Join(dir, "abs.tar"), filepath.Join(out, "canary"))
			writeTestTar(filepath.Join(out, "e.tar"), "m.txt")
			writeTestTar(filepath.Join(dir, "lm.tar"), "lm")
			// GNU tar obeys a list's -C line when extracting, and
			// --remove-files deletes the names a list gives.
			os.WriteFile(filepath.Join(dir, "list"), []byte("-C "+out+"\nm.txt\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "rlist"), []byte(filepath.Join(out, "e.tar")+"\n"), 0o644)
		},
		env: plainEnv, min: 26,
	}.run(t, []outsideVariant{
		v("tar", "-cf", "@OUT@/o.tar", "in.txt"),
		v("tar", "-xf", "a.tar", "-C", "@OUT@"),
		v("tar", "-xPf", "abs.tar"),
		v("bsdtar", "-cf", "@OUT@/o.tar", "in.txt"),
		v("bsdtar", "-xf", "a.tar", "-C", "@OUT@"),
		v("bsdtar", "-xPf", "abs.tar"),
		v("tar", "czf", "../outside/o.tgz", "in.txt"),
		v("tar", "-rf", "@OUT@/e.tar", "in.txt"),
		v("tar", "-uf", "@OUT@/e.tar", "in.txt"),
		v("tar", "-Af", "@OUT@/e.tar", "a.tar"),
		v("tar", "--delete", "-f", "@OUT@/e.tar", "m.txt"),
		via(v("tar", "-cf", "lnk/o.tar", "in.txt")),
		v("tar", "-xf", "a.tar", "-C", "../outside"),
		v("tar", "-xf", "a.tar", "-C", "sub", "-C", "../../outside"),
		v("tar", "xfC", "a.tar", "@OUT@"),
		v("tar", "-xf", "a.tar", "--one-top-level=@OUT@/t"),
		v("tar", "-xf", "a.tar", "-C", "sub", "--one-top-level=../../outside/t"),
		v("tar", "-x", "--absolute-names", "-f", "abs.tar"),
		via(v("tar", "-xf", "a.tar", "-C", "lnk")),
		v("bsdtar", "-rf", "@OUT@/e.tar", "in.txt"),
		v("bsdtar", "-uf", "@OUT@/e.tar", "in.txt"),
		v("bsdtar", "-x", "--insecure", "-f", "abs.tar"),
		v("bsdtar", "-x", "--absolute-paths", "-f", "abs.tar"),
		v("bsdtar", "-xf", "a.tar", "--cd", "../outside"),
		v("tar", "-cf", "o.tar", "--remove-files", "@OUT@/e.tar"),
		v("tar", "-cf", "o.tar", "--remove-files", "-C", "../outside", "e.tar"),
		ok(v("tar", "-czf", "o.tgz", "in.txt")),
		ok(v("tar", "-xf", "a.tar")),
		ok(v("tar", "-xf", "a.tar", "-C", "sub")),
		ok(v("tar", "-C", "@OUT@", "-cf", "o.tar", "e.tar")),
		ok(v("tar", "-tf", "@OUT@/e.tar")),
		ok(v("tar", "-xf", "@OUT@/e.tar", "-C", ".")),
		ok(v("tar", "-xf", "abs.tar")),
		ok(v("tar", "-xPOf", "abs.tar")),
		ok(v("tar", "-xf", "a.tar", "--transform", "s,^,@OUT@/,")),
		ok(v("bsdtar", "-xf", "a.tar", "-C", "sub")),
		ok(v("bsdtar", "-C", "@OUT@", "-cf", "o.tar", "e.tar")),
		ok(v("bsdtar", "-xf", "abs.tar")),
		ok(v("tar", "-cf", "o.tar", "--remove-files", "in.txt")),
		v("tar", "-xf", "a.tar", "-T", "list"),
		v("tar", "-x", "--files-from=list", "-f", "a.tar"),
		v("tar", "-xf", "a.tar", "-T", "list", "--verbatim-files-from"),
		v("tar", "-xf", "a.tar", "--null", "--no-null", "-T", "list"),
		v("tar", "-cf", "o.tar", "--remove-files", "-T", "rlist"),
		ok(v("tar", "-xf", "a.tar", "--verbatim-files-from", "-T", "list")),
		ok(v("tar", "-xOf", "a.tar", "-T", "list")),
		ok(v("tar", "-cf", "o.tar", "-T", "rlist")),
		v("tar", "-cf", "o.tar", "--remove-files", "--add-file=@OUT@/e.tar"),
		ok(v("tar", "-cf", "o.tar", "--add-file=@OUT@/e.tar")),
		// the backup of lm, a symlink to sub, renamed to lm/../../outside/x
		{bin: "tar", args: []string{"-xf", "lm.tar", "--backup", "--suffix=/../../outside/x"}, symlink: map[string]string{"lm": "sub"}},
		{bin: "tar", args: []string{"-xf", "lm.tar", "--backup", "--suffix=.orig"}, symlink: map[string]string{"lm": "sub"}, allow: true},
	})
}

// writeTestTar writes a tar archive at name holding one file, member.
func writeTestTar(name, member string) {
	f, err := os.Create(name)
	if err != nil {
		return
	}
	defer f.Close()
	tw := tar.NewWriter(f)
	body := []byte("hello\n")
	tw.WriteHeader(&tar.Header{Name: member, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
	tw.Write(body)
	tw.Close()
}

// TestZipWriteOracle runs Info-ZIP zip on the forms that write an
// archive, a log or a temporary archive outside the working directory,
// and on everyday forms that only read outside it.
func TestZipWriteOracle(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("oracle runs zip")
	}
	v := func(args ...string) outsideVariant {
		return outsideVariant{bin: "zip", args: append([]string{"-q"}, args...)}
	}
	ok := func(v outsideVariant) outsideVariant { v.allow = true; return v }
	outsideOracle{
		name: "zip-write",
		prepare: func(dir, out string) {
			os.WriteFile(filepath.Join(dir, "in.txt"), []byte("payload\n"), 0o644)
			os.WriteFile(filepath.Join(out, "o.txt"), []byte("outside\n"), 0o644)
			writeTestZip(filepath.Join(dir, "in.zip"))
			writeTestZip(filepath.Join(out, "e.zip"))
		},
		env: plainEnv, min: 14,
	}.run(t, []outsideVariant{
		v("@OUT@/o.zip", "in.txt"),
		v("-r", "../outside/o", "in.txt"),
		v("-n", ".gz", "@OUT@/o.zip", "in.txt"),
		v("-x", "*.o", "@", "@OUT@/o.zip", "in.txt"),
		v("-ds", "10m", "@OUT@/o.zip", "in.txt"),
		ok(v("-r", "o.zip", "@OUT@/o.txt")),
		v("-lf", "@OUT@/log", "o.zip", "in.txt"),
		v("--logfile-path=../outside/log", "o.zip", "in.txt"),
		v("-b", "@OUT@", "o.zip", "in.txt"),
		{bin: "zip", args: []string{"-q", "lnk/o.zip", "in.txt"}, symlink: map[string]string{"lnk": "@OUT@"}},
		ok(v("-b", ".", "o.zip", "in.txt")),
		ok(v("-lf", "log.txt", "o.zip", "in.txt")),
		v("in.zip", "in.txt", "--out", "@OUT@/n.zip"),
		v("in.zip", "in.txt", "-O", "../outside/n.zip"),
		v("-qO@OUT@/n.zip", "in.zip", "in.txt"),
		ok(v("@OUT@/none.zip", "in.txt", "--out", "n.zip")),
		ok(v("-sf", "@OUT@/none.zip")),
		ok(v("o.zip", "in.txt", "-x", "@OUT@/*")),
		v("-m", "o.zip", "@OUT@/o.txt"),
		v("-rm", "o.zip", "in.txt", "../outside/o.txt"),
		ok(v("-m", "o.zip", "in.txt")),
		// a list option's attached value is the whole list
		v("-iin.txt", "@OUT@/o.zip", "in.txt"),
		v("-i=in.txt", "@OUT@/o.zip", "in.txt"),
		v("--include=in.txt", "../outside/o.zip", "in.txt"),
		v("-xa", "@OUT@/o.zip", "in.txt"),
		v("-rqxa", "@OUT@/o.zip", "in.txt"),
		ok(v("-i", "in.txt", "@OUT@/none.zip", "in.txt")),
		// a name without "." gets zip's suffix: n is n.zip, lg is lg.log
		{bin: "zip", args: []string{"-q", "n", "in.txt"}, symlink: map[string]string{"n.zip": "@OUT@/e.zip"}},
		{bin: "zip", args: []string{"-q", "-g", "n", "in.txt"}, symlink: map[string]string{"n.zip": "@OUT@/e.zip"}},
		{bin: "zip", args: []string{"-q", "in.zip", "in.txt", "--out", "n"}, symlink: map[string]string{"n.zip": "@OUT@/e.zip"}},
		{bin: "zip", args: []string{"-q", "-lf", "lg", "o.zip", "in.txt"}, symlink: map[string]string{"lg.log": "@OUT@/lg.log"}},
		ok(v("n", "in.txt")),
		ok(v("-lf", "lg", "o.zip", "in.txt")),
	})
}

// writeTestZip writes a zip archive at name holding one file, m.txt.
func writeTestZip(name string) {
	f, err := os.Create(name)
	if err != nil {
		return
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	if w, err := zw.Create("m.txt"); err == nil {
		w.Write([]byte("hello\n"))
	}
	zw.Close()
}
