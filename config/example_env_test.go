package config

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seed-b63acb1b/mcp-shell-server/childenv"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// TestExampleEnvDocumentsEveryVariable keeps deploy/example.env complete
// and valid: every variable Env declares appears in it, nothing else does,
// and its active settings load.
func TestExampleEnvDocumentsEveryVariable(t *testing.T) {
	t.Parallel()
	f, err := os.Open("../deploy/example.env")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line := regexp.MustCompile(`^#?([A-Z][A-Z0-9_]+)=(.*)$`)
	documented := map[string]bool{}
	active := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := line.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		documented[m[1]] = true
		if !strings.HasPrefix(sc.Text(), "#") {
			active[m[1]] = m[2]
		}
	}
	var declared []string
	for _, v := range variables() {
		declared = append(declared, v.name)
	}
	for _, name := range declared {
		if !documented[name] {
			t.Errorf("deploy/example.env does not document %s", name)
		}
	}
	for name := range documented {
		if !slices.Contains(declared, name) {
			t.Errorf("deploy/example.env documents unknown variable %s", name)
		}
	}
	active["MCP_SHELL_ALLOWED_DIRECTORIES"] = t.TempDir()
	if _, err := Parse(LookupMap(active), nil); err != nil {
		t.Errorf("example.env does not load: %v", err)
	}
}

// TestUsageListsEveryVariable: --help prints one row per variable with
// the default its owner declares.
func TestUsageListsEveryVariable(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	if err := Usage(&b); err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(b.String(), "\n") {
		if name, rest, ok := strings.Cut(line, " "); ok {
			rows[name] = strings.Join(strings.Fields(rest), " ")
		}
	}
	limits := sandbox.DefaultLimits()
	for name, want := range map[string]string{
		"MCP_SHELL_SAFE_PATH":           childenv.DefaultPath,
		"MCP_SHELL_SANDBOX_READ_DIRS":   strings.Join(sandbox.DefaultReadDirs, ","),
		"MCP_SHELL_RLIMIT_NPROC":        strconv.FormatUint(limits.NProc, 10),
		"MCP_SHELL_OUTPUT_LIMIT_BYTES":  "1048576",
		"MCP_SHELL_SANDBOX_BEST_EFFORT": "false",
	} {
		if !strings.HasPrefix(rows[name], want+" ") {
			t.Errorf("--help row %s = %q, want the default %s first", name, rows[name], want)
		}
	}
	for _, v := range variables() {
		if !strings.HasSuffix(rows[v.name], strings.Join(strings.Fields(v.desc), " ")) {
			t.Errorf("--help lacks %s with its description: %q", v.name, rows[v.name])
		}
	}
}
