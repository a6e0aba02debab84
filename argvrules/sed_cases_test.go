package argvrules

// The sed oracle's cases (oracle_sed_test.go runs them on Unix; the
// fuzz target seeds from them everywhere).

// sedCase is one argv after "sed", with @OUT@ for the outside directory;
// files and links are planted in the working directory first (values
// with placeholders). in.txt always exists: its first line is a command
// that creates the canary, so a GNU e without argument shows itself.
type sedCase struct {
	args  []string
	files map[string]string
	links map[string]string
}

func sc(args ...string) sedCase { return sedCase{args: args} }

// sedOracleCases are scripts of every shape the models follow.
var sedOracleCases = []sedCase{
	// everyday
	sc("s/foo/bar/g", "in.txt"), sc("-n", "2,3p", "in.txt"), sc("-e", "s/a/b/", "-e", "/^$/d", "in.txt"),
	sc("-E", "s/([a-z]+)/<\\1>/g", "in.txt"), sc("/e/d", "in.txt"), sc("s/o/e/", "in.txt"),
	sc(":a;N;$!ba;s/\\n/,/g", "in.txt"), sc("$!N;P;D", "in.txt"), sc("1!G;h;$!d", "in.txt"),
	sc("y/abc/xyz/", "in.txt"), sc("s/[/]/x/;s/[]]/y/", "in.txt"), sc("\\,foo,d", "in.txt"),
	sc("/foo/,/bar/{s/o/0/g}", "in.txt"), sc("s/a/\\n/;s/b/\\t/", "in.txt"), sc("=", "in.txt"),
	sc("-n", "$=", "in.txt"), sc("2q", "in.txt"), sc("l", "in.txt"), sc("s/x/y/2", "in.txt"),
	sc("-s", "-n", "1p", "in.txt", "in.txt"),
	// text commands that hold command-looking text
	sc("a foo; e touch @OUT@/ran", "in.txt"), sc("1i\\\ne touch @OUT@/ran", "in.txt"),
	sc("$a\\\nline one\\\ne touch @OUT@/ran", "in.txt"), sc("c\\\ne touch @OUT@/ran", "in.txt"),
	sc("-e", "a\\", "-e", "1e touch @OUT@/ran", "in.txt"), sc("-e", "a foo\\", "-e", "e touch @OUT@/ran", "in.txt"),
	sc("1a\\", "in.txt"), sc("/x/ s/o/e/ ; p", "in.txt"),
	sc(":e;s/q/x/;te", "in.txt"), sc("s/e touch/x/", "in.txt"), sc("/e touch/d", "in.txt"),
	// programs (GNU)
	sc("1e touch @OUT@/ran", "in.txt"), sc("-n", "1s|.*|touch @OUT@/ran|e", "in.txt"),
	sc("1s/^//e", "in.txt"), sc("e", "in.txt"), sc("1{\ne touch @OUT@/ran\n}", "in.txt"),
	sc("--expr=1e touch @OUT@/ran", "in.txt"), sc("-e", "1{", "-e", "e touch @OUT@/ran", "-e", "}", "in.txt"),
	sc("-e", "a foo", "-e", "1e touch @OUT@/ran", "in.txt"), sc("s/[/]/x/;1e touch @OUT@/ran", "in.txt"),
	sc("s/a/b/;#c\\\n1e touch @OUT@/ran", "in.txt"), sc("y/a/b/;1e touch @OUT@/ran", "in.txt"),
	sc("#n\n1e touch @OUT@/ran", "in.txt"), sc("in.txt", "-e", "1e touch @OUT@/ran"),
	sc("1!d;1s/.*/touch @OUT@\\/ran/ep", "in.txt"), sc("0,/touch/e touch @OUT@/ran", "in.txt"),
	// writes
	sc("s/o/0/w w1.txt", "in.txt"), sc("-n", "/foo/w sub/w2.txt", "in.txt"), sc("w /dev/stdout", "in.txt"),
	sc("1w @OUT@/w3", "in.txt"), sc("2W @OUT@/w4", "in.txt"), sc("s/x/y/w @OUT@/w5", "in.txt"),
	sc("1{w @OUT@/w6\n}", "in.txt"), sc("1!w ../w7", "in.txt"), sc("w lo", "in.txt"),
	sc("w dl/w8", "in.txt"), sc("w out }", "in.txt"), sc("$!N;w w9.txt", "in.txt"),
	sc("s/a/b/;#c\\\nw @OUT@/w10", "in.txt"), sc("-e", "w\\", "-e", "@OUT@/w11", "in.txt"),
	sc("-e", "w w12\\", "-e", "p", "in.txt"), sc("s/[[:alpha:]/]/x/w @OUT@/w13", "in.txt"),
	sc("1r /etc/hostname", "in.txt"), sc("R in.txt", "in.txt"),
	// script files
	{args: []string{"-f", "e.sed", "in.txt"}, files: map[string]string{"e.sed": "1e touch @OUT@/ran\n"}},
	{args: []string{"-f", "w.sed", "in.txt"}, files: map[string]string{"w.sed": "s/a/b/\n1w @OUT@/wf\n"}},
	{args: []string{"-f", "ok.sed", "in.txt"}, files: map[string]string{"ok.sed": "s/foo/FOO/\n$a\\\nend\n"}},
	{args: []string{"-e", "1{", "-f", "close.sed", "in.txt"}, files: map[string]string{"close.sed": "p\n}\n"}},
	// errors
	sc("y/abc/xyz/p", "in.txt"), sc("b nowhere", "in.txt"), sc("1{p", "in.txt"), sc("p}", "in.txt"),
	sc("s/a/b/x", "in.txt"), sc("k", "in.txt"), sc("v 9.0", "in.txt"), sc("--posix", "a foo", "in.txt"),
	sc("1~3p", "in.txt"), sc("0,/foo/d", "in.txt"), sc("/a/I,/b/Mp", "in.txt"), sc("F;z", "in.txt"),
}

// sedInPlaceCases edit files in place; @OUT@/t is a file outside, lo a
// link to it, dl a link to the outside directory.
var sedInPlaceCases = []sedCase{
	sc("-i", "s/touch/TOUCH/", "in.txt"), sc("-i.bak", "s/touch/TOUCH/", "in.txt"),
	sc("--in-place=.orig", "s/touch/TOUCH/", "in.txt"), sc("-i", "s/x/X/", "li"),
	sc("-i", "s/x/X/", "lo"), sc("--follow-symlinks", "-i", "s/x/X/", "lo"),
	sc("-i", "s/x/X/", "dl/t"), sc("-i@OUT@/*", "s/touch/TOUCH/", "in.txt"),
	sc("-i../*", "s/touch/TOUCH/", "in.txt"), sc("-i*/../../x", "s/touch/TOUCH/", "in.txt"),
	sc("-i../x", "s/touch/TOUCH/", "in.txt"), sc("-ibk/*", "s/touch/TOUCH/", "in.txt"),
	sc("-i", "s/x/X/", "@OUT@/t"), sc("-n", "-i", "p", "in.txt"), sc("-ni", "p", "in.txt"),
	sc("--follow-symlinks", "-i.b", "s/x/X/", "li"),
}
