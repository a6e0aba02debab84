//go:build darwin || linux

// Launches POSIX programs through the launcher: Linux and macOS (Landlock parts skip off Linux).

package sandbox

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// forkBomb is the test helper: it tries to start 200 background
// processes, far more than the NPROC limit the test sets, and is bounded
// so that a missing limit cannot harm the machine.
const forkBomb = `#!/bin/sh
n=0
while [ "$n" -lt 200 ]; do
	sleep 30 &
	n=$((n+1))
	echo "$n"
done
echo "started all"
`

// nobody is the unprivileged identity the fork-bomb test switches to when
// it runs as root: the kernel never applies RLIMIT_NPROC to uid 0 (nor to
// CAP_SYS_RESOURCE or CAP_SYS_ADMIN holders).
const nobody = 65534

// TestForkBombStoppedByNProc: NPROC stops a fork bomb of an allowlisted
// helper script (run by the kernel through #!/bin/sh, widened to run
// sleep) under the sandbox, through both start methods.
func TestForkBombStoppedByNProc(t *testing.T) {
	requireLandlock(t)
	requirePrograms(t, "sleep", "/bin/sh")
	for _, m := range methods {
		t.Run(m.name, func(t *testing.T) { testForkBomb(t, m.reexec) })
	}
}

func testForkBomb(t *testing.T, reexec bool) {
	dir := t.TempDir()
	uid := os.Getuid()
	var cred *syscall.Credential
	exe := ""
	if uid == 0 {
		// The re-executed launcher is this test binary; give the
		// unprivileged user a copy it can execute, in a directory it can
		// read.
		for _, d := range []string{filepath.Dir(dir), dir} {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		exe = filepath.Join(dir, "launcher")
		copyExecutable(t, exe)
		cred = &syscall.Credential{Uid: nobody, Gid: nobody, Groups: []uint32{}}
		if !reexec {
			// prlimit(2) on another user's process needs CAP_SYS_RESOURCE,
			// which containers often drop: run this test as that user, as
			// the server itself would run.
			asUser(t, exe, dir, cred)
			return
		}
		uid = nobody
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(work, 0o777); err != nil { // umask-independent
		t.Fatal(err)
	}
	bomb := filepath.Join(dir, "bomb")
	writeFile(t, bomb, forkBomb, 0o755)
	const headroom = 16
	lim := DefaultLimits()
	lim.NProc = uint64(userTasks(t, uid) + headroom)
	l := newLauncherMethod(t, Config{Mode: ModeLandlock, WriteDirs: []string{work}, Limits: lim, Exec: map[string][]string{bomb: {"sleep"}}}, reexec)
	if exe != "" {
		l.exe = exe
	}
	o := call{l: l, dir: work, cred: cred, out: work}.run(t, bomb)
	lines := strings.Count(o.stdout, "\n")
	t.Logf("NPROC %d: %d started; %v", lim.NProc, lines, o)
	// The user's other tasks come and go while the bomb runs (other tests
	// run as nobody too), so what bounds the count is the limit itself,
	// not the headroom measured before.
	if o.startErr != nil || strings.Contains(o.stdout, "started all") || uint64(lines) >= lim.NProc || o.exit == 0 ||
		!strings.Contains(strings.ToLower(o.stderr), "fork") {
		t.Errorf("NPROC %d did not stop the fork bomb: %d started, %v", lim.NProc, lines, o)
	}
}

// asUser runs this test (thread method) in a copy of the test binary as
// cred, with its temporary directories beneath dir.
func asUser(t *testing.T, exe, dir string, cred *syscall.Credential) {
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestForkBombStoppedByNProc$/^thread$", "-test.v", "-test.count=1")
	cmd.Env = []string{"TMPDIR=" + tmp, "PATH=" + strings.TrimPrefix(testPath, "PATH=")}
	cmd.Dir = tmp
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestForkBombStoppedByNProc/thread") {
		t.Errorf("as uid %d: %v\n%s", cred.Uid, err, out)
	}
}

// copyExecutable copies the running test binary to dst (mode 0755).
func copyExecutable(t *testing.T, dst string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, src); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// userTasks counts the tasks (threads) whose real uid is uid, which is
// what RLIMIT_NPROC is checked against.
func userTasks(t *testing.T, uid int) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		f, err := os.Open(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue // exited meanwhile
		}
		var real, threads int
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			k, v, _ := strings.Cut(sc.Text(), ":")
			fields := strings.Fields(v)
			switch {
			case k == "Uid" && len(fields) > 0:
				real, _ = strconv.Atoi(fields[0])
			case k == "Threads" && len(fields) > 0:
				threads, _ = strconv.Atoi(fields[0])
			}
		}
		f.Close()
		if real == uid {
			n += threads
		}
	}
	return n
}
