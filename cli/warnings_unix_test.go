//go:build unix

package cli

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/config"
)

// TestWarnGPGSigningOddConf: a gpg.conf that is not a regular file (a
// FIFO, which held start-up in open(2) for ever; /dev/zero, which would
// fill memory) is read as one without lock-never: start-up goes on and
// warns.
func TestWarnGPGSigningOddConf(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(conf string) error
	}{
		{"FIFO", func(conf string) error { return syscall.Mkfifo(conf, 0o600) }},
		{"link to /dev/zero", func(conf string) error { return os.Symlink("/dev/zero", conf) }},
		{"directory", func(conf string) error { return os.Mkdir(conf, 0o700) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			gnupg := filepath.Join(home, ".gnupg")
			if err := os.MkdirAll(gnupg, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(gnupg, "pubring.kbx"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := tc.make(filepath.Join(gnupg, "gpg.conf")); err != nil {
				t.Skip(err)
			}
			var buf bytes.Buffer
			done := make(chan struct{})
			go func() {
				defer close(done)
				warnGPGSigning(slog.New(slog.NewTextHandler(&buf, nil)), &config.Config{Commands: []string{"git"}, ChildHome: home}, false)
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second): // a guard against the hang, not a synchronisation
				// Open the FIFO's other end so the stuck reader returns.
				if f, err := os.OpenFile(filepath.Join(gnupg, "gpg.conf"), os.O_WRONLY, 0); err == nil {
					f.Close()
				}
				<-done
				t.Fatal("warnGPGSigning blocked on gpg.conf")
			}
			if !strings.Contains(buf.String(), "lock-never") {
				t.Errorf("no warning:\n%s", buf.String())
			}
		})
	}
}
