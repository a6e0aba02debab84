package argvrules

import (
	"os"
	"path/filepath"
	"testing"
)

// codeLoadRows are the table of the programs that load code in-process:
// openssl and pygmentize (hg has hg_test.go).
var codeLoadRows = []row{
	// openssl
	{a("openssl", "version"), ""},
	{a("openssl", "sha256", "in.txt"), ""},
	{a("openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "k.pem", "-out", "r.pem", "-subj", "/CN=x"), ""},
	{a("openssl", "req", "-new", "-config", "req.cnf", "-key", "k.pem", "-out", "r.pem"), ""},
	{a("openssl", "x509", "-req", "-in", "r.pem", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "c.pem"), ""},
	{a("openssl", "s_client", "-connect", "example.com:443", "-servername", "example.com"), ""},
	{a("openssl", "pkcs12", "-provider", "legacy", "-provider", "default", "-in", "x.p12", "-nodes"), ""},
	{a("openssl", "enc", "-d", "-aes-256-cbc", "-in", "x.enc", "-out", "-"), ""},
	{a("openssl", "rand", "-hex", "16", "-propquery", "provider=default"), ""},
	{a("openssl"), "openssl.command"},
	{a("openssl", "req", "-engine", "./e.so", "-new"), "openssl.load-code"},
	{a("openssl", "req", "--engine=pkcs11", "-new"), "openssl.load-code"},
	{a("openssl", "req", "-new", "-keygen_engine", "x"), "openssl.load-code"},
	{a("openssl", "s_client", "-ssl_client_engine", "./e.so", "-connect", "x:1"), "openssl.load-code"},
	{a("openssl", "list", "-provider-path", ".", "-provider", "e"), "openssl.load-code"},
	{a("openssl", "list", "-provider", "./e.so"), "openssl.load-code"},
	{a("openssl", "list", "-provider=../e"), "openssl.load-code"},
	{a("openssl", "engine", "dynamic", "-pre", "SO_PATH:./e.so"), "openssl.load-code"},
	{a("openssl", "fipsinstall", "-module", "./e.so", "-out", "f.cnf"), "openssl.load-code"},
	{a("openssl", "req", "-config", "mod.cnf", "-new"), "openssl.load-code"},
	{a("openssl", "req", "-config", "inc.cnf", "-new"), "openssl.load-code"},
	{a("openssl", "req", "-config", "/etc/ssl/openssl.cnf", "-new"), "openssl.load-code"},
	{a("openssl", "genpkey", "-algorithm", "ed25519", "-config", "missing.cnf"), "openssl.load-code"},
	{a("openssl", "req", "-new", "-out", "/tmp/r.pem"), "openssl.output-path"},
	{a("openssl", "req", "-new", "-keyout=../k.pem"), "openssl.output-path"},
	{a("openssl", "rand", "-writerand", "out/seed", "16"), "openssl.output-path"},
	{a("openssl", "s_client", "-keylogfile", "/tmp/keys", "-connect", "x:1"), "openssl.output-path"},
	{a("openssl", "ca", "-outdir", "/tmp", "-in", "r.pem"), "openssl.output-path"},
	{a("openssl", "x509", "-req", "-in", "r.pem", "-CA", "/etc/ssl/ca.pem", "-CAkey", "k", "-out", "c.pem"), "openssl.output-path"},
	{a("openssl", "x509", "-req", "-in", "r.pem", "-CA", "ca.pem", "-CAserial", "/tmp/s", "-out", "c.pem"), "openssl.output-path"},
	// pygmentize
	{a("pygmentize", "-l", "python", "-f", "html", "-o", "out.html", "main.py"), ""},
	{a("pygmentize", "-g", "main.py"), ""},
	{a("pygmentize", "-S", "default", "-f", "html"), ""},
	{a("pygmentize", "-lx", "main.py"), ""},
	{a("pygmentize", "-L", "styles", "lexers"), ""},
	{a("pygmentize", "-f", "html", "-O", "full,cssfile=style.css", "-o", "sub/o.html", "in.txt"), ""},
	{a("pygmentize", "--", "-x"), ""},
	{a("pygmentize", "-x", "-l", "lex.py:L", "in.txt"), "pygmentize.load-code"},
	{a("pygmentize", "-l", "lex.py:L", "-x", "in.txt"), "pygmentize.load-code"},
	{a("pygmentize", "-gx", "in.txt"), "pygmentize.load-code"},
	{a("pygmentize", "-vsx", "-f", "fmt.py:F", "in.txt"), "pygmentize.load-code"},
	{a("pygmentize", "-f", "html", "-o", "/tmp/o.html", "in.txt"), "pygmentize.output-path"},
	{a("pygmentize", "-f", "html", "-o../o.html", "in.txt"), "pygmentize.output-path"},
	{a("pygmentize", "-f", "html", "-O", "full,cssfile=/tmp/s.css", "in.txt"), "pygmentize.output-path"},
	{a("pygmentize", "-f", "html", "-P", "cssfile=../s.css", "-o", "o.html", "in.txt"), "pygmentize.output-path"},
	{a("pygmentize", "-f", "html", "-O", "full,cssfile=s.css", "-o", "out/o.html", "in.txt"), "pygmentize.output-path"},
}

// codeLoadDir is testDir plus openssl configuration files: req.cnf (an
// ordinary request template), mod.cnf (loads an engine), inc.cnf
// (includes another file).
func codeLoadDir(t testing.TB) string {
	dir := testDir(t)
	for name, body := range map[string]string{
		"req.cnf": "[req]\ndistinguished_name = dn\nprompt = no\n[dn]\nCN = example\n",
		"mod.cnf": "openssl_conf = init\n[init]\nengines = e\n[e]\nx = y\n[y]\ndynamic_path = ./e.so\n",
		"inc.cnf": ".include other.cnf\n[req]\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCodeLoadRows(t *testing.T) {
	ctx := pinCtx(t, codeLoadDir(t))
	for _, r := range codeLoadRows {
		expectRule(t, ctx, r.argv, r.rule)
	}
}
