package argvrules

import (
	"slices"
	"testing"
)

// TestNetworkFollowsTheSubcommand: a stage of a family that fetches only
// for some subcommands gets the network for the subcommand its argv runs,
// read with the family's grammar, never for a fetch word that is an
// argument of a script or of a program under test.
func TestNetworkFollowsTheSubcommand(t *testing.T) {
	for _, tt := range []struct {
		argv  []string
		fetch bool
	}{
		{[]string{"git", "fetch"}, true},
		{[]string{"git", "-C", "sub", "--no-pager", "pull", "--rebase"}, true},
		{[]string{"git-upload-pack", "x"}, false},
		{[]string{"git", "log", "fetch"}, false},
		{[]string{"git", "commit", "-m", "clone"}, false},
		{[]string{"go", "mod", "download"}, true},
		{[]string{"go", "-C", "sub", "get", "example.com/m"}, true},
		{[]string{"go", "list", "-m", "all"}, true},
		{[]string{"go", "test", ".", "-args", "get"}, false},
		{[]string{"go", "run", ".", "install"}, false},
		{[]string{"npm", "ci"}, true},
		{[]string{"npm", "i", "left-pad"}, true},
		{[]string{"npm", "--loglevel", "warn", "install"}, true},
		{[]string{"npm", "test", "install"}, false},
		{[]string{"npm", "run", "build", "view"}, false},
		{[]string{"pnpm", "add", "x"}, true},
		{[]string{"pnpm", "test", "install"}, false},
		{[]string{"yarn"}, true},
		{[]string{"yarn", "build", "add"}, false},
		{[]string{"pip", "install", "-r", "requirements.txt"}, true},
		{[]string{"pip", "--proxy", "http://p", "download", "x"}, true},
		{[]string{"pip", "list", "install"}, false},
		{[]string{"cargo", "fetch"}, true},
		{[]string{"cargo", "+nightly", "--color", "never", "update"}, true},
		{[]string{"cargo", "test", "fetch"}, false},
		{[]string{"cargo", "run", "--", "install"}, false},
	} {
		f := FamilyOf(tt.argv[0])
		subs := f.Subcommands(tt.argv)
		got := slices.ContainsFunc(subs, func(s string) bool { return slices.Contains(f.Network.Fetch, s) })
		if got != tt.fetch {
			t.Errorf("%q: subcommands %q, network %v, want %v", tt.argv, subs, got, tt.fetch)
		}
	}
	for _, f := range registry {
		if len(f.Network.Fetch) > 0 && f.Network.Subcommands == nil {
			t.Errorf("family %s lists fetching subcommands but no reader of its subcommand", f.Name)
		}
	}
}
