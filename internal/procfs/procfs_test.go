package procfs

import (
	"os"
	"testing"
)

func TestParseStat(t *testing.T) {
	line := "4242 (a) (b c) S 17 4242 4000 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 12345 67 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n"
	st, err := ParseStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	want := Stat{Pid: 4242, State: 'S', PPid: 17, Pgrp: 4242, Sid: 4000, Start: 987654}
	if st != want {
		t.Errorf("ParseStat = %+v, want %+v", st, want)
	}
	for _, bad := range []string{"", "12 (x", "x (y) S 1 2 3", "12 (y) S 1 2"} {
		if _, err := ParseStat([]byte(bad)); err == nil {
			t.Errorf("ParseStat(%q): no error", bad)
		}
	}
	self, err := ReadStat(os.Getpid())
	if err != nil || self.Pid != os.Getpid() || self.PPid != os.Getppid() || self.Start == 0 || self.Zombie() {
		t.Errorf("ReadStat(self) = %+v, %v", self, err)
	}
	kids, err := Children(os.Getpid())
	if err != nil || len(kids) != 0 {
		t.Errorf("Children(self) = %v, %v; want none", kids, err)
	}
}
