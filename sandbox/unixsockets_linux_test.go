//go:build linux

package sandbox

import (
	"path/filepath"
	"slices"
	"testing"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/seed-b63acb1b/mcp-shell-server/plan"
)

// TestUnixSocketsFollowAgents: below ABI 9 a stage gets socket(AF_UNIX)
// only for its family's agents, never because it has the network; from
// ABI 9 Landlock decides the path, and a network stage is granted no
// pathname socket the agents do not name.
func TestUnixSocketsFollowAgents(t *testing.T) {
	agent := "/run/user/1000/gnupg/S.gpg-agent"
	for _, tc := range []struct {
		name     string
		abi      int
		conf     plan.Confinement
		wantUnix bool
	}{
		{"leaf, ABI 7", 7, plan.Confinement{}, false},
		{"network, ABI 7", 7, plan.Confinement{Network: true}, false},
		{"network and agents, ABI 7", 7, plan.Confinement{Network: true, Sockets: []string{agent}}, true},
		{"agents, ABI 7", 7, plan.Confinement{Sockets: []string{agent}}, true},
		{"network, ABI 9", 9, plan.Confinement{Network: true}, true},
		{"leaf, ABI 9", 9, plan.Confinement{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := &Launcher{Rules: &Rules{mode: ModeLandlock, abi: tc.abi}, filter: true}
			tc.conf.Mode = ModeLandlock
			a, err := l.applied(tc.conf)
			if err != nil {
				t.Fatal(err)
			}
			if a.filter == nil || a.filter.unixSockets != tc.wantUnix {
				t.Errorf("filter %+v, want unixSockets %v", a.filter, tc.wantUnix)
			}
			if a.filter.network != tc.conf.Network {
				t.Errorf("filter %+v, want network %v", a.filter, tc.conf.Network)
			}
			var resolve []string
			for _, g := range a.policy.grants() {
				if g.access&ll.AccessFSResolveUnix != 0 {
					resolve = append(resolve, g.path)
				}
			}
			var want []string
			if tc.abi >= 9 && len(tc.conf.Sockets) > 0 {
				want = []string{filepath.Dir(agent)}
			}
			if !slices.Equal(resolve, want) {
				t.Errorf("pathname socket grants %q, want %q", resolve, want)
			}
		})
	}
}
