package argvrules

import (
	"testing"
)

// wgetRows are the table rows of wget: askpass and -e commands,
// configuration files, output paths, names the server or the URL makes up.
var wgetRows = familyRows([]row{
	{a("wget", "--backups", "-O", "/tmp/x", "http://x/"), "wget.output-path"},
	{a("wget", "--backups=2", "-O", "page.html", "http://x/"), ""},
	{a("wget", "-q", "https://example.com/f.tgz"), ""},
	{a("wget", "-O", "-", "http://127.0.0.1:9/"), ""},
	{a("wget", "-O", "out.html", "http://x/"), ""},
	{a("wget", "-nv", "-P", "sub", "http://x/"), ""},
	{a("wget", "-P", "newdir/deeper", "http://x/"), ""},
	{a("wget", "--no-check-certificate", "-c", "http://x/"), ""},
	{a("wget", "--use-askpass", "./payload.sh", "0"), "wget.exec-option"},
	{a("wget", "--use-ask=./payload.sh", "0"), "wget.exec-option"},
	{a("wget", "-e", "use_askpass=./payload.sh", "0"), "wget.exec-option"},
	{a("wget", "-qe", "x=y", "0"), "wget.exec-option"},
	{a("wget", "--exe=x", "0"), "wget.exec-option"},
	{a("wget", "--e=x", "0"), "wget.ambiguous-option"},
	{a("wget", "--config=f", "0"), "wget.config"},
	{a("wget", "-b", "http://x/"), "wget.background"},
	{a("wget", "-O", "/tmp/outside/file", "http://x/"), "wget.output-path"},
	{a("wget", "-O/tmp/x", "http://x/"), "wget.output-path"},
	{a("wget", "--output-document=../x", "http://x/"), "wget.output-path"},
	{a("wget", "--output-d", "/etc/x", "http://x/"), "wget.output-path"},
	{a("wget", "-i", "/etc/hosts", "-o", "/tmp/outside/file"), "wget.output-path"},
	{a("wget", "-a", "/tmp/log", "http://x/"), "wget.output-path"},
	{a("wget", "--append=/tmp/log", "http://x/"), "wget.output-path"},
	{a("wget", "-P", "/tmp", "http://x/"), "wget.output-path"},
	{a("wget", "--directory-prefix=..", "http://x/"), "wget.output-path"},
	{a("wget", "-P", "file.txt", "http://x/"), "wget.output-path"},
	{a("wget", "--save-cookies", "/tmp/c", "http://x/"), "wget.output-path"},
	{a("wget", "-q", "https://example.com/.gitconfig"), "wget.output-path"},
	{a("wget", "-P", "planted", "https://example.com/dl.tgz"), "wget.output-path"},
	{a("wget", "--content-disposition", "https://example.com/f"), "wget.output-path"},
	{a("wget", "-e", "content_disposition=on", "https://example.com/f"), "wget.output-path"},
	{a("wget", "-i", "urls.txt"), "wget.output-path"},
	{a("wget", "-i", "-"), "wget.output-path"},
	{a("wget", "-i", "good-urls.txt"), ""},
	{a("wget", "-r", "-np", "https://example.com/docs/"), ""},
	{a("wget", "-e", "robots=off", "-r", "https://x.example"), ""},
	{a("wget", "-e", "tries = 3", "https://x.example/f"), ""},
	{a("wget", "-e", "Use-AskPass = ./x", "0"), "wget.exec-option"},
	{a("wget", "-e", "output_document=/tmp/x", "http://x/"), "wget.output-path"},
	{a("wget", "-e", "frobnicate=1", "http://x/"), "wget.exec-option"},
})

func TestWgetRows(t *testing.T) { checkRows(t, wgetRows) }
