package sandbox

import (
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// TestSanitize: every credential npm, pip or yarn reads from a user's
// configuration is gone, and every other setting (the registry, scopes,
// proxies' hosts, a CA bundle) is kept byte for byte.
func TestSanitize(t *testing.T) {
	for _, tc := range []struct {
		name     string
		d        configDialect
		in, want string
	}{
		{"npm scoped token", dialectNpmrc, "registry=https://npm.example/\n//npm.example/:_authToken=NPMSECRET\nsave-exact=true\n", "registry=https://npm.example/\nsave-exact=true\n"},
		{"npm bare auth keys", dialectNpmrc, "_auth=U0VDUkVU\n_authToken = SECRET\n_password=SECRET\nusername=u\npassword=SECRET\nemail=a@b.c\n", "email=a@b.c\n"},
		{"npm client cert", dialectNpmrc, "certfile=/k/c.pem\nkeyfile=/k/k.pem\ncert=-----BEGIN\nkey=-----BEGIN\ncafile=/etc/ca.pem\n", "cafile=/etc/ca.pem\n"},
		{"npm scope registry kept, its auth dropped", dialectNpmrc, "@corp:registry=https://npm.corp/\n//npm.corp/:_auth=SECRET\n//npm.corp/:username=u\n//npm.corp/:_password=SECRET\n//npm.corp/:always-auth=true\n", "@corp:registry=https://npm.corp/\n"},
		{"npm quoted and array keys", dialectNpmrc, "\"//npm.corp/:_authToken\"=SECRET\n_authToken[]=SECRET\n'otp'=123456\n", ""},
		{"npm case and spaces", dialectNpmrc, "  _AUTHTOKEN = SECRET\n\t//x/:_authToken=SECRET\n", ""},
		{"npm userinfo in registry", dialectNpmrc, "registry=https://u:SECRET@npm.corp/path/\nproxy=http://u:SECRET@proxy:3128\n", "registry=https://npm.corp/path/\nproxy=http://proxy:3128\n"},
		{"npm comments and sections kept", dialectNpmrc, "; comment _authToken=x\n# comment\n[section]\nfund=false\n", "; comment _authToken=x\n# comment\n[section]\nfund=false\n"},
		{"npm env reference kept as a key", dialectNpmrc, "//npm.corp/:_authToken=${NPM_TOKEN}\n", ""},
		{"npm no trailing newline", dialectNpmrc, "fund=false\n//r/:_authToken=SECRET", "fund=false\n"},
		{"pip index-url userinfo", dialectPip, "[global]\nindex-url = https://user:PIPSECRET@pypi.example.com/simple\ntimeout = 60\n", "[global]\nindex-url = https://pypi.example.com/simple\ntimeout = 60\n"},
		{"pip extra-index-url continuation", dialectPip, "[install]\nextra-index-url =\n    https://a:SECRET@one.example/simple\n    https://two.example/simple\nfind-links: https://tok@links.example/\n", "[install]\nextra-index-url =\n    https://one.example/simple\n    https://two.example/simple\nfind-links: https://links.example/\n"},
		{"pip client cert with its continuation", dialectPip, "[global]\nclient-cert = /k/client.pem\n  /k/more\nclient_cert=/k/c.pem\ncert = /etc/ca.pem\n", "[global]\ncert = /etc/ca.pem\n"},
		{"pip password at sign", dialectPip, "[global]\nindex-url=https://u:p@ss@host.example/simple\n", "[global]\nindex-url=https://host.example/simple\n"},
		{"pip indented comment", dialectPip, "[global]\n  # https://u:x@c.example\nretries = 2\n", "[global]\n  # https://u:x@c.example\nretries = 2\n"},
		{"yarn 1 rc", dialectYarn, "registry \"https://npm.corp/\"\n\"//npm.corp/:_authToken\" SECRET\n", "registry \"https://npm.corp/\"\n"},
		{"yarn 1 scope colon", dialectYarn, "//npm.corp/:_authToken SECRET\n", ""},
		{"berry yml", dialectYarn, "npmRegistryServer: \"https://npm.corp\"\nnpmScopes:\n  corp:\n    npmAuthToken: SECRET\n    npmAlwaysAuth: true\n", "npmRegistryServer: \"https://npm.corp\"\nnpmScopes:\n  corp:\n    npmAlwaysAuth: true\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(sanitize(tc.d, []byte(tc.in)))
			if got != tc.want {
				t.Errorf("sanitize(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if strings.Contains(got, "SECRET") {
				t.Errorf("a credential survived: %q", got)
			}
			if holdsCredential(tc.d, []byte(tc.in)) != (tc.in != tc.want) {
				t.Errorf("holdsCredential(%q) = %v", tc.in, !(tc.in != tc.want))
			}
			if again := string(sanitize(tc.d, []byte(got))); again != got {
				t.Errorf("sanitize is not idempotent: %q → %q", got, again)
			}
		})
	}
}

// FuzzSanitize: the sanitizer never panics, is idempotent, only drops
// or shortens lines, and leaves no line that sets a credential key nor a
// URL with user information.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"//r/:_authToken=x\nregistry=https://u:p@h/\n", "[global]\nindex-url =\n  https://u:p@h/s\nclient-cert=/c\n", "npmScopes:\n  a:\n    npmAuthToken: x\n", "\"k\n'", "\t\n;\n[\n"} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(1))
		f.Add(s, uint8(2))
	}
	f.Fuzz(func(t *testing.T, in string, dialect uint8) {
		d := configDialect(dialect % 3)
		out := sanitize(d, []byte(in))
		if again := sanitize(d, out); string(again) != string(out) {
			t.Fatalf("not idempotent: %q → %q → %q", in, out, again)
		}
		if len(out) > len(in) {
			t.Fatalf("output grew: %q → %q", in, out)
		}
		for _, line := range strings.SplitAfter(string(out), "\n") {
			trimmed := strings.TrimSpace(line)
			if trimmed == "" || isComment(trimmed) || strings.HasPrefix(trimmed, "[") {
				continue
			}
			if userinfo.MatchString(line) {
				t.Fatalf("a URL with user information survived in %q (from %q)", line, in)
			}
			cont := d == dialectPip && (line[0] == ' ' || line[0] == '\t')
			if !cont && isCredentialKey(d, configKey(d, trimmed)) {
				t.Fatalf("a credential key survived in %q (from %q)", line, in)
			}
		}
	})
}

// TestMergePipConfig: pip's two user files become one configparser file
// with no repeated section or key, the later file's value winning.
func TestMergePipConfig(t *testing.T) {
	legacy := "[global]\ntimeout = 7\n# the old index\nindex-url = https://old.example/simple\n[install]\nno-binary = :all:\n"
	current := "[global]\nindex_url = https://new.example/simple\nextra-index-url =\n  https://x.example/simple\n[list]\nformat = json\n"
	got := string(mergeConfig(dialectPip, []byte(legacy), []byte(current)))
	want := "[global]\ntimeout = 7\nindex_url = https://new.example/simple\nextra-index-url =\n  https://x.example/simple\n[install]\nno-binary = :all:\n[list]\nformat = json\n"
	if got != want {
		t.Errorf("merged\n%s\nwant\n%s", got, want)
	}
	if got := string(mergeConfig(dialectPip, nil, []byte(current))); got != current {
		t.Errorf("one file changed: %q", got)
	}
}

// TestCredentialDenials: a registry's 401 to a stage that read a copy
// without the credentials names the setting that grants them; the same
// error without a copy, or a copy without the error, or beside an npm
// stage that succeeded (another stage of the pipeline printed it), says
// nothing.
func TestCredentialDenials(t *testing.T) {
	npmStage := plan.Stage{Family: "npm", Env: []string{"npm_config_userconfig=/tmp/c/" + copiesDir + "/npmrc"}}
	copied := &plan.Call{Stages: []plan.Stage{npmStage}}
	forged := &plan.Call{Stages: []plan.Stage{npmStage, {Family: "make"}}}
	plain := &plan.Call{Stages: []plan.Stage{{Family: "npm", Env: []string{"HOME=/h"}}}}
	e401 := []byte("npm error code E401\nnpm error 401 Unauthorized - GET https://npm.corp/x - authentication token not provided\n")
	pip401 := []byte("ERROR: HTTP error 401 while getting https://pypi.corp/simple/x/\n")
	for _, tc := range []struct {
		name   string
		p      *plan.Call
		stderr []byte
		want   int
	}{
		{"npm 401 with a copy", copied, e401, 1},
		{"pip's 401 wording", copied, pip401, 1},
		{"401 without a copy", plain, e401, 0},
		{"a copy without a 401", copied, []byte("npm error code E404\n"), 0},
		{"no plan", nil, e401, 0},
		{"npm succeeded, make printed the 401", forged, e401, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// the last stage failed: the pipeline's status
			failed := func(i int) bool { return i == len(tc.p.Stages)-1 }
			ds := CredentialDenials(tc.p, failed, tc.stderr)
			if len(ds) != tc.want {
				t.Fatalf("got %v, want %d", ds, tc.want)
			}
			if tc.want > 0 && !strings.Contains(Hint(ds, DefaultReadDirs), "MCP_SHELL_SANDBOX_CREDENTIALS=npm") {
				t.Errorf("hint %q names no setting", Hint(ds, DefaultReadDirs))
			}
		})
	}
}
