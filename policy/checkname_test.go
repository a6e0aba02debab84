package policy

import (
	"strings"
	"testing"
)

// TestUncleanNamesSayWhatToWrite: a relative or unclean program name is
// refused with what to write instead, and only a name with ".." is said
// to have one.
func TestUncleanNamesSayWhatToWrite(t *testing.T) {
	for _, tt := range []struct {
		name string
		says []string
		not  string
	}{
		{"./ls", []string{`"./ls" is a relative path`, `"ls", found through PATH`, "absolute path"}, `".."`},
		{"bin/../ls", []string{`climbs with ".."`, `"ls"`}, ""},
		{"../bin/ls", []string{`climbs with ".."`, `"ls"`}, ""},
		{"/usr//bin/ls", []string{`write it as "/usr/bin/ls"`}, `".."`},
		{"/usr/bin/./ls", []string{`write it as "/usr/bin/ls"`}, `".."`},
		{"./sub/tool", []string{"relative path", `"tool"`}, `".."`},
	} {
		err := CheckName(tt.name)
		if err == nil {
			t.Errorf("%s: accepted", tt.name)
			continue
		}
		for _, s := range tt.says {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not say %s", tt.name, err, s)
			}
		}
		if tt.not != "" && strings.Contains(err.Error(), tt.not) {
			t.Errorf("%s: %q mentions %s", tt.name, err, tt.not)
		}
	}
	for _, ok := range []string{"ls", "/usr/bin/ls", "git-lfs"} {
		if err := CheckName(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}
