//go:build unix

package argvrules

import (
	"path/filepath"
	"testing"
)

// hgRows are hg's table: everyday commands and every spelling of the
// early options through which hg loads code or reads another repository.
var hgRows = []row{
	{a("hg", "status"), ""},
	{a("hg", "st"), ""},
	{a("hg", "log", "-l", "5", "--template", "{node}\n"), ""},
	{a("hg", "diff", "-r", "tip"), ""},
	{a("hg", "-q", "--color", "never", "log"), ""},
	{a("hg", "--color=never", "--pager=never", "log"), ""},
	{a("hg", "--cwd", "sub", "status"), ""},
	{a("hg", "-R", ".", "log"), ""},
	{a("hg", "-Rsub", "log"), ""},
	{a("hg", "--repository=sub", "log"), ""},
	{a("hg", "--cwd", "sub", "-R", ".", "log"), ""},
	{a("hg", "--debug", "--traceback", "--time", "status"), ""},
	{a("hg", "commit", "-m", "use --config"), ""},
	{a("hg", "help", "config"), ""},
	{a("hg", "--config", "extensions.x=ext.py", "status"), "hg.load-code"},
	{a("hg", "--config=ui.editor=./x", "commit"), "hg.load-code"},
	{a("hg", "status", "--config", "hooks.post-status=touch x"), "hg.load-code"},
	{a("hg", "log", "-k", "--config", "extensions.x=ext.py"), "hg.load-code"},
	{a("hg", "--conf", "extensions.x=ext.py", "status"), "hg.load-code"},
	{a("hg", "--co=x", "status"), "hg.load-code"},
	{a("hg", "--debugger", "status"), "hg.load-code"},
	{a("hg", "--debugg", "status"), "hg.load-code"},
	{a("hg", "--cwd", "/tmp/repo", "status"), "hg.output-path"},
	{a("hg", "--cwd=out", "status"), "hg.output-path"},
	{a("hg", "--cwd", "sub", "-R", "../..", "log"), "hg.output-path"},
	{a("hg", "-R", "/tmp/repo", "log"), "hg.output-path"},
	{a("hg", "-R/tmp/repo", "log"), "hg.output-path"},
	{a("hg", "--repo", "../x", "log"), "hg.output-path"},
	{a("hg", "log", "-R", "out"), "hg.output-path"},
	{a("hg", "serve"), "hg.command"},
	{a("hg", "ser", "--stdio"), "hg.command"},
	{a("hg", "-q", "serve", "--cmdserver", "pipe"), "hg.command"},
	{a("hg", "debugshell"), "hg.command"},
	{a("hg", "debugsh"), "hg.command"},
	{a("hg", "--cwd", "sub", "debugwireproto"), "hg.command"},
}

func TestHgRows(t *testing.T) {
	ctx := pinCtx(t, testDir(t))
	for _, r := range hgRows {
		expectRule(t, ctx, r.argv, r.rule)
	}
}

// TestHgRepositoryConfig: the repository hg would use inside the working
// directory is refused when its configuration loads code or names a
// program, however hg is pointed at it; an ordinary one is not.
func TestHgRepositoryConfig(t *testing.T) {
	dir := testDir(t)
	repos := map[string]string{
		"ok":     "[paths]\ndefault = https://example.com/r\n[extensions]\nrebase =\nhgext.mq = !\n[ui]\nusername = x\n",
		"ext":    "[extensions]\nx = ../ext.py\n",
		"hook":   "[hooks]\npre-status = python:ext.py:f\n",
		"inc":    "%include ../other.rc\n",
		"alias":  "[alias]\nst = !touch x\n",
		"editor": "[ui]\neditor = ./x\n",
	}
	for name, rc := range repos {
		mkdirs(t, filepath.Join(dir, name, ".hg"), filepath.Join(dir, name, "deep", "er"))
		writeFiles(t, map[string]string{filepath.Join(dir, name, ".hg", "hgrc"): rc})
	}
	mkdirs(t, filepath.Join(dir, "shared", ".hg"))
	writeFiles(t, map[string]string{filepath.Join(dir, "shared", ".hg", "sharedpath"): "/elsewhere/.hg\n"})
	ctx := pinCtx(t, dir)
	for _, r := range []row{
		{a("hg", "--cwd", "ok", "status"), ""},
		{a("hg", "-R", "ok", "log"), ""},
		{a("hg", "--cwd", "ok/deep/er", "status"), ""},
		{a("hg", "status"), ""},
		{a("hg", "--cwd", "ext", "status"), "hg.repo-config"},
		{a("hg", "--cwd", "ext/deep/er", "status"), "hg.repo-config"},
		{a("hg", "-R", "ext", "log"), "hg.repo-config"},
		{a("hg", "-R", "hook", "log"), "hg.repo-config"},
		{a("hg", "-Rinc", "log"), "hg.repo-config"},
		{a("hg", "--cwd", "alias", "st"), "hg.repo-config"},
		{a("hg", "--cwd", "editor", "commit"), "hg.repo-config"},
		{a("hg", "--cwd", "shared", "log"), "hg.repo-config"},
	} {
		expectRule(t, ctx, r.argv, r.rule)
	}
}
