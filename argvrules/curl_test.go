package argvrules

import (
	"testing"
)

// curlRows are the table rows of curl: output paths (options, -O names, #N
// globs, -T to file:// URLs), config files, engines and sockets.
var curlRows = familyRows([]row{
	{a("curl", "-sI", "https://example.com"), ""},
	{a("curl", "-fsSL", "-o", "out.json", "https://x/"), ""},
	{a("curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "https://x/"), ""},
	{a("curl", "-X", "POST", "-H", "Content-Type: application/json", "-d", "@body.json", "http://x/"), ""},
	{a("curl", "--no-progress-meter", "--compressed", "http://x/"), ""},
	{a("curl", "--output-dir", "sub", "-O", "http://x/f"), ""},
	{a("curl", "file:///etc/hosts"), ""},
	{a("curl", "--", "-o"), ""},
	{a("curl", "file:///etc/hosts", "-o", "/tmp/outside/file"), "curl.output-path"},
	{a("curl", "-so/tmp/x", "http://x/"), "curl.output-path"},
	{a("curl", "http://x/", "--output", "../x"), "curl.output-path"},
	{a("curl", "-D", "/tmp/h", "http://x/"), "curl.output-path"},
	{a("curl", "--dump-header=/tmp/h", "http://x/"), "curl.output-path"},
	{a("curl", "--output-dir", "/tmp", "-O", "http://x/f"), "curl.output-path"},
	{a("curl", "-c", "/tmp/jar", "http://x/"), "curl.output-path"},
	{a("curl", "--trace", "/tmp/t", "http://x/"), "curl.output-path"},
	{a("curl", "--trace-ascii=/tmp/t", "http://x/"), "curl.output-path"},
	{a("curl", "--libcurl", "/tmp/c.c", "http://x/"), "curl.output-path"},
	{a("curl", "--stderr", "/tmp/e", "http://x/"), "curl.output-path"},
	{a("curl", "-w", "%output{/tmp/x}%{url}", "http://x/"), "curl.output-path"},
	{a("curl", "-w", "@fmt.txt", "http://x/"), "curl.output-path"},
	{a("curl", "-s", "-o", "/dev/stdout", "http://x/"), ""},
	{a("curl", "--engine", "./evil.so", "http://x/"), "curl.exec-option"},
	{a("curl", "-K", "cfg", "http://x/"), "curl.exec-option"},
	{a("curl", "-sK-", "http://x/"), "curl.exec-option"},
	{a("curl", "--config=cfg"), "curl.exec-option"},
	{a("curl", "--unix-socket", "/var/run/docker.sock", "http://x/containers/json"), "curl.exec-option"},
	{a("curl", "--out", "/tmp/x", "http://x/"), "curl.unknown-option"},
	{a("curl", "--eng", "x", "http://x/"), "curl.unknown-option"},
	{a("curl", "-o", "new/dir/f", "--create-dirs", "http://x/"), ""},
	{a("curl", "-sS", "-T", "src.txt", "file:///tmp/elsewhere/x"), "curl.output-path"},
	{a("curl", "-T", "src.txt", "FILE://localhost/tmp/elsewhere/x"), "curl.output-path"},
	{a("curl", "-T", "src.txt", "--proto-default", "file", "/tmp/elsewhere/x"), "curl.output-path"},
	{a("curl", "http://x/{a,/tmp/elsewhere/b}", "-o", "#1"), "curl.output-path"},
	{a("curl", "http://x/{a,..}", "-o", "#1/x"), "curl.output-path"},
	{a("curl", "-O", "http://x/.gitconfig"), "curl.output-path"},
	{a("curl", "--output-dir", "planted", "-O", "http://x/dl.tgz"), "curl.output-path"},
	{a("curl", "-OJ", "http://x/f"), "curl.output-path"},
	{a("curl", "-T", "src.txt", "https://x/upload"), ""},
	{a("curl", "http://x/{a,b}.txt", "-o", "out_#1.txt"), ""},
	{a("curl", "-O", "http://x/release.tgz"), ""},
})

func TestCurlRows(t *testing.T) { checkRows(t, curlRows) }
