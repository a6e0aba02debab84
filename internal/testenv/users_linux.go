package testenv

import (
	"fmt"
	"os"
	"syscall"
	"testing"
)

// EachUser runs fn once per identity a guarantee is proved for: the
// test's own (a nil credential) and, when the test runs as root, uid and
// gid 65534, so that each proof holds for a root and an unprivileged
// server alike. Subtests are named by the uid.
func EachUser(t *testing.T, fn func(t *testing.T, cred *syscall.Credential)) {
	t.Helper()
	users := []*syscall.Credential{nil}
	if os.Getuid() == 0 {
		users = append(users, &syscall.Credential{Uid: 65534, Gid: 65534})
	}
	for _, cred := range users {
		t.Run(UserName(cred), func(t *testing.T) { fn(t, cred) })
	}
}

// UserName is "uid N" for cred (nil: the test's own uid).
func UserName(cred *syscall.Credential) string {
	if cred == nil {
		return fmt.Sprintf("uid %d", os.Getuid())
	}
	return fmt.Sprintf("uid %d", cred.Uid)
}
