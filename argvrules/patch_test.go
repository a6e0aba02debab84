package argvrules

import "testing"

// patchRows are GNU patch's table.
var patchRows = []row{
	{a("patch", "-p1"), ""},
	{a("patch", "-p0", "-i", "fix.diff"), ""},
	{a("patch", "-p1", "--dry-run", "-i", "/tmp/fix.diff"), ""},
	{a("patch", "-Np1", "-d", "sub"), ""},
	{a("patch", "-p1", "--merge", "-i", "fix.diff"), ""},
	{a("patch", "--merge=diff3", "-p1"), ""},
	{a("patch", "-R", "-p1", "-s", "-f", "-t", "-F", "3", "--no-backup-if-mismatch"), ""},
	{a("patch", "file.txt", "fix.diff"), ""},
	{a("patch", "-o", "out.txt", "file.txt", "fix.diff"), ""},
	{a("patch", "-o", "-", "file.txt"), ""},
	{a("patch", "-r", "-", "-p1"), ""},
	{a("patch", "-r", "rejects.txt", "-p1"), ""},
	{a("patch", "-b", "-z", ".bak", "-p1"), ""},
	{a("patch", "-b", "-B", "bak/", "-p1"), ""},
	{a("patch", "-b", "-Y", "old-", "-p1"), ""},
	{a("patch", "-b", "-V", "numbered", "file.txt"), ""},
	{a("patch", "-g", "0", "-p1"), ""},
	{a("patch", "--quoting-style=literal", "--reject-format=unified", "--read-only=ignore", "-p1"), ""},
	{a("patch", "--follow-symlinks", "-p1"), ""},
	{a("patch", "-d", "sub", "-o", "x.txt", "f.txt"), ""},
	// programs
	{a("patch", "-e", "file.txt"), "patch.exec-option"},
	{a("patch", "--ed", "-p1"), "patch.exec-option"},
	{a("patch", "-ep1"), "patch.exec-option"},
	{a("patch", "-g", "1", "-p1"), "patch.exec-option"},
	{a("patch", "--get=-1", "-p1"), "patch.exec-option"},
	// paths
	{a("patch", "-o", "/tmp/x", "file.txt"), "patch.output-path"},
	{a("patch", "--output=../x", "file.txt"), "patch.output-path"},
	{a("patch", "-r", "/tmp/rej", "-p1"), "patch.output-path"},
	{a("patch", "-d", "/tmp", "-p1"), "patch.output-path"},
	{a("patch", "-d", "out", "-p1"), "patch.output-path"},
	{a("patch", "-d", "sub", "-d", "..", "-p1"), "patch.output-path"},
	{a("patch", "-d", "sub", "-o", "../../x", "f.txt"), "patch.output-path"},
	{a("patch", "-B", "/tmp/", "-b", "-p1"), "patch.output-path"},
	{a("patch", "-B", "../", "-p1"), "patch.output-path"},
	{a("patch", "-B", "out/", "-p1"), "patch.output-path"},
	{a("patch", "-Y", "../", "-p1"), "patch.output-path"},
	{a("patch", "-z", "/../../x", "-p1"), "patch.output-path"},
	{a("patch", "/etc/hosts", "fix.diff"), "patch.output-path"},
	{a("patch", "out/f", "fix.diff"), "patch.output-path"},
	{a("patch", "-B", "bak/", "../f", "fix.diff"), "patch.output-path"},
	{a("patch", ".npm", "-z", "rc"), "patch.output-path"},
	{a("patch", "-b", "rc", "file.txt", "fix.diff"), ""},
	{a("patch", "-b", "/../../x", "file.txt", "fix.diff"), "patch.output-path"},
	{a("patch", "-x"), "patch.missing-value"},
	{a("patch", "--qu", "-p1"), "patch.ambiguous-option"},
}

func TestPatchRows(t *testing.T) {
	ctx := pinCtx(t, sedTestDir(t))
	for _, r := range patchRows {
		expectRule(t, ctx, r.argv, r.rule)
	}
}
