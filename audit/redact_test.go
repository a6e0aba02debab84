package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// digested stands for "a [sha256:xxxxxxxx] digest" in the tables below.
const digested = "<digest>"

// argvCase is one row: an argv and what Argv must make of it.
type argvCase struct {
	name       string
	argv, want []string
}

func a(name string, argv []string, want ...string) argvCase {
	return argvCase{name, argv, want}
}

// argvCases are the rule set, row by row: the forms found in
// clear, the spec's markers, and the ordinary words and server sentences
// redaction must leave alone.
var argvCases = []argvCase{
	// Credentials in URLs: user and password, a token given as the user,
	// "@" inside the password, a "/" inside it, secret query values.
	a("url user:password", []string{"git", "clone", "https://user:s3cr3t@git.example.invalid/org/repo.git"},
		"git", "clone", "https://[REDACTED]@git.example.invalid/org/repo.git"),
	a("url token as user", []string{"git", "clone", "https://ghx0123456789TOKEN@github.com/o/r"},
		"git", "clone", "https://[REDACTED]@github.com/o/r"),
	a("url @ inside the password", []string{"curl", "https://bob:p@ss@w0rd@example.com/x"},
		"curl", "https://[REDACTED]@example.com/x"),
	a("url / inside the password", []string{"curl", "https://bob:a/b@example.com/x"},
		"curl", "https://[REDACTED]@example.com/x"),
	a("url secret query value", []string{"curl", "https://api.example.com/v1?access_token=abc123&page=2"},
		"curl", "https://api.example.com/v1?access_token=[REDACTED]&page=2"),
	a("url attached to an option", []string{"git", "--url=https://u:pw@h/x"}, "git", "--url=https://[REDACTED]@h/x"),
	a("url without credentials stays", []string{"curl", "https://example.com/api/token/list"}, "curl", "https://example.com/api/token/list"),

	// Values of secret options: --opt=value, --opt value.
	a("--password value", []string{"tool", "--password", "Hunter2pw"}, "tool", "--password", Redacted),
	a("--token=value", []string{"tool", "--token=abc"}, "tool", "--token=[REDACTED]"),
	a("--pw=value (unlisted spelling)", []string{"tool", "--pw=hunter2"}, "tool", "--pw=[REDACTED]"),
	a("--pw value", []string{"tool", "--pw", "hunter2"}, "tool", "--pw", Redacted),
	a("single-dash long -token value", []string{"vault", "-token", "s.abc"}, "vault", "-token", Redacted),
	a("--api-key value", []string{"tool", "--api-key", "k1"}, "tool", "--api-key", Redacted),
	a("--client-secret=value", []string{"tool", "--client-secret=k1"}, "tool", "--client-secret=[REDACTED]"),

	// Short forms that take credentials, per program.
	a("curl -u user:pw", []string{"curl", "-u", "user:pw", "https://example.com"}, "curl", "-u", Redacted, "https://example.com"),
	a("curl --user user:pw", []string{"curl", "--user", "user:pw", "https://example.com"}, "curl", "--user", Redacted, "https://example.com"),
	a("curl -uuser:pw attached", []string{"curl", "-uuser:pw"}, "curl", "-u"+Redacted),
	a("curl cluster -su user:pw", []string{"curl", "-su", "user:pw"}, "curl", "-su", Redacted),
	a("curl --proxy-user", []string{"curl", "--proxy-user", "a:b"}, "curl", "--proxy-user", Redacted),
	a("curl -H with a credential header", []string{"curl", "-H", "Authorization: Bearer abc"}, "curl", "-H", Redacted),
	a("curl -H with an api key header", []string{"curl", "-H", "X-Api-Key: abc"}, "curl", "-H", Redacted),
	a("mysql -p pw", []string{"mysql", "-p", "pw", "db"}, "mysql", "-p", Redacted, "db"),
	a("mysql -ppw attached", []string{"mysql", "-ppw", "db"}, "mysql", "-p"+Redacted, "db"),
	a("mysql --password=pw", []string{"mysql", "--password=pw"}, "mysql", "--password=[REDACTED]"),
	a("mysqldump by path", []string{"/usr/bin/mysqldump", "-psecretpw"}, "/usr/bin/mysqldump", "-p"+Redacted),
	a("wget --user", []string{"wget", "--user", "bob", "--password=pw", "https://x"}, "wget", "--user", Redacted, "--password=[REDACTED]", "https://x"),
	a("sshpass -p", []string{"sshpass", "-p", "pw", "ssh"}, "sshpass", "-p", Redacted, "ssh"),
	a("smbclient -U user%pw", []string{"smbclient", "-U", "bob%pw", "//h/s"}, "smbclient", "-U", Redacted, "//h/s"),
	a("openssl -passin", []string{"openssl", "rsa", "-passin", "pass:xyz"}, "openssl", "rsa", "-passin", Redacted),
	a("credential option in a later stage", []string{"echo", "x", "|", "curl", "-u", "a:b"}, "echo", "x", "|", "curl", "-u", Redacted),
	a("credential option after a '|' that is data", []string{"curl", "-x", "|", "-u", "a:b"}, "curl", "-x", "|", "-u", Redacted),

	// NAME=value arguments keep the name.
	a("secret variable name", []string{"make", "SECRET_TOKEN=super-secret"}, "make", "SECRET_TOKEN=[REDACTED]"),
	a("ordinary variable, secret value", []string{"make", "name=hunter2token"}, "make", "name=[REDACTED]"),
	a("ordinary variable, ordinary value", []string{"make", "CFLAGS=-O2"}, "make", "CFLAGS=-O2"),

	// The spec's markers, as words, in any case.
	a("spec markers", []string{"echo", "my-secret", "TOKEN", "PASSWORD", "passwd", "API_KEY", "ACCESS_KEY", "private_key", "KEY", "credential", "AUTH"},
		"echo", Redacted, Redacted, Redacted, Redacted, Redacted, Redacted, Redacted, Redacted, Redacted, Redacted),
	a("camelCase and concatenated markers", []string{"echo", "apiKey", "dbpassword", "authtoken", "x-auth-token"},
		"echo", Redacted, Redacted, Redacted, Redacted),
	a("credential shapes without markers", []string{"echo", "AKIAIOSFODNN7EXAMPLE", "eyJhbGciOiJI.eyJzdWIiOiIx.sig"}, "echo", Redacted, Redacted),

	// Ordinary words and option names stay.
	a("compass, passage, monkey, author, keyboard", []string{"echo", "compass", "passage", "monkey", "author", "keyboard"},
		"echo", "compass", "passage", "monkey", "author", "keyboard"),
	a("option names stay", []string{"tool", "--password", "--author=alice", "-v"}, "tool", "--password", Redacted, "-v"),
	a("git author", []string{"git", "log", "--author=alice"}, "git", "log", "--author=alice"),
	a("plain argv", []string{"git", "status", "-s"}, "git", "status", "-s"),

	// Long values become digests; numbers stay.
	a("long value", []string{"echo", strings.Repeat("a", 33)}, "echo", digested),
	a("32 characters stay", []string{"echo", strings.Repeat("a", 32)}, "echo", strings.Repeat("a", 32)),
	a("long number stays", []string{"echo", "123456789012345678901234567890123456789"}, "echo", "123456789012345678901234567890123456789"),
	a("long value after a name", []string{"echo", "x=" + strings.Repeat("b", 40)}, "echo", "x="+digested),
}

func TestArgvRedaction(t *testing.T) {
	for _, c := range argvCases {
		got := Argv(c.argv)
		if len(got) != len(c.want) {
			t.Errorf("%s: Argv(%q) = %q, want %q", c.name, c.argv, got, c.want)
			continue
		}
		for i := range got {
			if !matches(got[i], c.want[i]) {
				t.Errorf("%s: Argv(%q)[%d] = %q, want %q", c.name, c.argv, i, got[i], c.want[i])
			}
		}
	}
}

func matches(got, want string) bool {
	if i := strings.Index(want, digested); i >= 0 {
		return strings.HasPrefix(got, want[:i]) && strings.HasPrefix(got[i:], "[sha256:") && len(got) == i+17
	}
	return got == want
}

func TestEnvRedactionKeepsNames(t *testing.T) {
	got := Env(map[string]string{"GITHUB_TOKEN": "x", "API_KEY": "y", "LANG": "C.UTF-8", "LC_ALL": "C", "DB_URL": "postgres://u:p@h/db", "MY_SETTING": "plain"})
	want := map[string]string{"GITHUB_TOKEN": Redacted, "API_KEY": Redacted, "LANG": "C.UTF-8", "LC_ALL": "C", "DB_URL": Redacted, "MY_SETTING": Redacted}
	if len(got) != len(want) {
		t.Fatalf("Env = %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Env[%s] = %q, want %q", k, got[k], v)
		}
	}
	if got := Env(map[string]string{strings.Repeat("N", 100): "v"}); len(got) != 1 {
		t.Errorf("Env with a long name = %v", got)
	} else {
		for k := range got {
			if !strings.HasPrefix(k, "[sha256:") {
				t.Errorf("a 100-character name is recorded as %q", k)
			}
		}
	}
}

// TestReasonRedaction: reasons lose the client's secrets they quote and
// keep every word the server wrote.
func TestReasonRedaction(t *testing.T) {
	argv := []string{"curl", "-u", "bob:hunter2", "--token=abc", "compass"}
	quotes := Quotes(argv, map[string]string{"DB_PW": "pw-value"})
	for _, tt := range []struct{ in, want string }{
		{"argument 1 contains a NUL byte, which cannot be passed to a program", "argument 1 contains a NUL byte, which cannot be passed to a program"},
		{"missing or invalid bearer token", "missing or invalid bearer token"},
		{"the environment variable PASSWORD_FILE is not delegated", "the environment variable PASSWORD_FILE is not delegated"},
		{`curl option -u value "bob:hunter2" refused`, `curl option -u value "[REDACTED]" refused`},
		{"Command not allowed: --token=abc", "Command not allowed: --token=[REDACTED]"},
		{"envs DB_PW=pw-value refused", "envs DB_PW=[REDACTED] refused"},
		{"compass stays, compassion too", "compass stays, compassion too"},
		{"header Authorization: Bearer abc.def-123 refused", "header Authorization: Bearer [REDACTED] refused"},
		{"clone of https://tok@github.com/x failed", "clone of https://[REDACTED]@github.com/x failed"},
		{`type: "ghp_0123456789abcdefghijklmnopqrstuvwxyz" has type "string"`, `type: "[REDACTED]" has type "string"`},
	} {
		if got := Reason(tt.in, quotes); got != tt.want {
			t.Errorf("Reason(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
	// A short secret inside a longer word is not a quote of it.
	if got := Reason("the pwd is shown", []Quote{{"pw", Redacted}}); got != "the pwd is shown" {
		t.Errorf("partial-word replacement: %q", got)
	}
}

func TestRawArgumentsAreRedactedInReasons(t *testing.T) {
	r := Record{
		Reason: `validating /properties/timeout: type: hunter2-secret has type "string"; envs: DB_PW=letmein`,
		Args:   json.RawMessage(`{"command":["mysql","-p","sqlpw"],"timeout":"hunter2-secret","envs":{"DB_PW":"letmein"}}`),
	}
	got := Reason(r.Reason, r.quotes(nil))
	for _, secret := range []string{"hunter2-secret", "letmein"} {
		if strings.Contains(got, secret) {
			t.Errorf("reason keeps %q: %s", secret, got)
		}
	}
	if !strings.HasPrefix(got, "validating /properties/timeout: type: ") {
		t.Errorf("reason lost the server's words: %s", got)
	}
}

func TestCapped(t *testing.T) {
	if got := Capped("short", 10); got != "short" {
		t.Errorf("Capped kept %q", got)
	}
	long := strings.Repeat("é", 1000)
	got := Capped(long, 100)
	if len(got) > 100 || !strings.Contains(got, "[sha256:") || !strings.Contains(got, "2000 bytes") {
		t.Errorf("Capped = %q (%d bytes)", got, len(got))
	}
}

func FuzzArgv(f *testing.F) {
	for _, s := range []string{"", "a=b", "TOKEN=x", strings.Repeat("z", 40), "\xff\xfe", "https://u:p@h", "-psecret", "https://h/token"} {
		f.Add("mysql", s, "tail")
	}
	f.Fuzz(func(t *testing.T, prog, s, tail string) {
		got := Argv([]string{prog, s, tail})
		if len(got) != 3 {
			t.Fatalf("Argv returned %d elements", len(got))
		}
		// A secret-looking element that is not an option name never stays
		// whole (a URL keeps its path: only its userinfo and secret query
		// values are credentials).
		if SecretLike(s) && !optionWord.MatchString(s) && !isURL(s) && got[1] == s {
			t.Errorf("secret-like %q kept whole", s)
		}
		// After a secret option, the value never survives.
		if prev := "--password"; Argv([]string{prog, prev, s})[2] != Redacted {
			t.Errorf("value after %s kept: %q", prev, s)
		}
	})
}
