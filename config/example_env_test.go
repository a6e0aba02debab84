package config

import (
	"bufio"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestExampleEnvDocumentsEveryVariable keeps deploy/example.env complete
// and valid: every variable Env declares appears in it, nothing else does,
// and its active settings load.
func TestExampleEnvDocumentsEveryVariable(t *testing.T) {
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
	typ := reflect.TypeFor[Env]()
	for i := range typ.NumField() {
		declared = append(declared, typ.Field(i).Tag.Get("envconfig"))
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
	if _, err := LoadFrom(active, nil); err != nil {
		t.Errorf("example.env does not load: %v", err)
	}
}
