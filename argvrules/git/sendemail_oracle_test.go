package git

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/internal/testenv"
)

// TestOracleSendEmailGetopt drives the real Perl Getopt::Long (the parser
// git-send-email uses) with the three option passes built from this
// package's own tables, in pass_through mode, under both the default
// permute mode and POSIXLY_CORRECT. Whenever Getopt selects a program
// selector (a --*-cmd option, or --smtp-server with a missing, empty or
// path-like value) in either mode and git-send-email would go on (no usage
// exit), Check must refuse the argv. git-send-email itself is not needed.
// Without testenv.Heavy a fixed sample of the variants runs.
func TestOracleSendEmailGetopt(t *testing.T) {
	t.Parallel()
	perl := testenv.Program(t, "perl")
	if exec.Command(perl, "-MGetopt::Long", "-e", "1").Run() != nil {
		testenv.Missing(t, "Getopt::Long not available")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "getopt.pl")
	if err := os.WriteFile(script, []byte(getoptScript()), 0o644); err != nil {
		t.Fatal(err)
	}
	variants := testenv.Sample(sendEmailVariants())
	input := filepath.Join(dir, "in.txt")
	var sb strings.Builder
	for _, v := range variants {
		sb.WriteString(strings.Join(v, "\x1f"))
		sb.WriteByte('\n')
	}
	if err := os.WriteFile(input, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(posix bool) []string {
		cmd := exec.Command(perl, script, input)
		cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}
		if posix {
			cmd.Env = append(cmd.Env, "POSIXLY_CORRECT=1")
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("perl: %v", err)
		}
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		if len(lines) != len(variants) {
			t.Fatalf("perl returned %d verdicts for %d variants", len(lines), len(variants))
		}
		return lines
	}
	permute, posix := run(false), run(true)
	var selected, refused, escapes int
	for i, v := range variants {
		argv := append([]string{"git", "send-email"}, v...)
		rej := Check(argv, testDir, nil)
		if rej != nil {
			refused++
		}
		if permute[i] != "SEL" && posix[i] != "SEL" {
			continue
		}
		selected++
		if rej == nil {
			escapes++
			if escapes <= 20 {
				t.Errorf("Getopt selects a program (permute=%s posix=%s) but Check allowed %q",
					permute[i], posix[i], v)
			}
		}
	}
	t.Logf("%d variants refused by Check, %d escapes", refused, escapes)
	// Dangerous: Getopt selects a program in some mode.
	testenv.Saw(t, "send-email Getopt", len(variants), selected, 100)
}

// getoptScript builds the Perl driver from sendEmailPass1..3: each input
// line is one argv ("\x1f"-separated); the output line is EXIT (a pass
// failed, git-send-email would print usage and exit), SEL or OK.
func getoptScript() string {
	spec := func(opts []geoOpt) string {
		var parts []string
		for _, o := range opts {
			s := strings.Join(o.names, "|")
			if o.neg {
				s += "!"
			}
			switch o.kind {
			case geoStrReq:
				s += "=s"
			case geoStrOpt:
				s += ":s"
			case geoIntReq:
				s += "=i"
			case geoIntOpt:
				s += ":i"
			}
			parts = append(parts, "'"+s+"'")
		}
		return strings.Join(parts, ", ")
	}
	return `use strict; use warnings;
use Getopt::Long;
Getopt::Long::Configure qw/ pass_through /;
$SIG{__WARN__} = sub {};
open(my $fh, '<', $ARGV[0]) or die;
while (my $line = <$fh>) {
  chomp $line;
  local @ARGV = split(/\x1f/, $line, -1);
  my (%p1, %p2, %p3);
  if (!GetOptions(\%p1, ` + spec(sendEmailPass1) + `)) { print "EXIT\n"; next; }
  if (!GetOptions(\%p2, ` + spec(sendEmailPass2) + `)) { print "EXIT\n"; next; }
  my $rc = GetOptions(\%p3, ` + spec(sendEmailPass3) + `);
  my $sel = 0;
  for my $k ('sendmail-cmd', 'to-cmd', 'cc-cmd', 'header-cmd') { $sel = 1 if defined $p3{$k}; }
  if (defined $p3{'smtp-server'}) {
    my $v = $p3{'smtp-server'};
    $sel = 1 if $v eq '' || $v =~ m{^[/\\]} || $v =~ /^[A-Za-z]:/;
  }
  print(($sel ? "SEL" : ($rc ? "OK" : "EXIT")), "\n");
}
`
}

// sendEmailVariants returns hand-picked argv plus deterministic random
// combinations of selector spellings, value-taking options, terminators and
// operands.
func sendEmailVariants() [][]string {
	vocab := []string{
		"--sendmail-cmd=X", "--sendmail-cmd", "-sendmail-cmd=X", "+sendmail-cmd=X",
		"--SENDMAIL-CMD=X", "--sendm=X", "--send=X", "--sendmail-cmd=", "--to-cmd=X", "--to-c",
		"--cc-cmd", "--cc-c=X", "--header-cmd=X", "--he=X", "--no-header-cmd",
		"--smtp-server=/bin/sh", "--smtp-server", "/bin/sh", "--smtp-server=localhost",
		"--smtp-server=", "--smtp-serv=x", "--smtp-server-port", "--smtp-server-option=x",
		"--smtp-pass", "--smtp-debug", "--smtp-domain", "+identity", "--identity", "-i",
		"--i", "--no-identity", "--identity=", "-h", "--dump-aliases", "--dump-aliases=1",
		"--t", "--subject", "--subject=", "--batch-size", "--batch-size=5", "5", "--",
		"--end-of-options", "patch", "-", "+x", "--dry-run", "--dry-run=1", "-v", "--v",
		"--no", "--to", "X", "C:x", `\x`, "", "--from", "--compose", "--no-thread",
		"--smtp-ssl", "--relogin-delay=x", "--suppress-cc", "--smtp-user",
	}
	out := [][]string{
		{"--sendmail-cmd=sh", "a"}, {"--subject", "--sendmail-cmd=DATA", "a"},
		{"--identity", "--sendmail-cmd=DATA", "a"}, {"--", "--sendmail-cmd=x"},
		{"--smtp-pass", "+identity", "--sendmail-cmd=x", "a"},
		{"--subject", "--", "--sendmail-cmd=x"}, {"a", "--sendmail-cmd=x"},
	}
	r := rand.New(rand.NewSource(53))
	for n := 0; n < 4000; n++ {
		k := 1 + r.Intn(6)
		v := make([]string, k)
		for i := range v {
			v[i] = vocab[r.Intn(len(vocab))]
		}
		out = append(out, v)
	}
	return out
}
