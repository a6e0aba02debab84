//go:build darwin || linux

// These run POSIX programs (head, sh) as the children they capture.

package runner

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// The capture and drain benchmarks run `head -c N /dev/zero` through Run
// with the server's default sandbox (auto: Landlock per stage where the
// kernel offers it) and, in the same benchmark, through a plain os/exec
// whose stdout is copied to io.Discard: the floor of reading a pipe from
// Go. The paired sub-benchmark alternates the two in every iteration and
// reports the runner's throughput as a percentage of the floor's, so that
// the ratio holds on a shared, noisy machine.
//
//	go test -run '^$' -bench 'Capture|Drain' -benchmem ./runner/

// BenchmarkCapture keeps all of N bytes at a cap of N (the 1 MiB default
// and the 64 MiB the bench program uses), and 1 MiB under a 64 MiB cap:
// B/op shows how many copies of the output the capture allocates, and
// that its buffers follow what arrived rather than the cap.
func BenchmarkCapture(b *testing.B) {
	for _, c := range []struct{ n, limit int64 }{{1 << 20, 1 << 20}, {64 << 20, 64 << 20}, {1 << 20, 64 << 20}} {
		n := c.n
		name := human(n)
		if c.limit != n {
			name += "-cap" + human(c.limit)
		}
		b.Run(name, func(b *testing.B) {
			s := zeroSpec(b, n, c.limit, false)
			benchPair(b, n, func(b *testing.B) {
				r := runOK(b, s)
				if int64(len(r.Stdout)) != n || r.StdoutTruncated {
					b.Fatalf("kept %d bytes (truncated %v), want %d", len(r.Stdout), r.StdoutTruncated, n)
				}
			})
		})
	}
}

// BenchmarkDrain reads 256 MiB at the default 1 MiB cap with
// DrainPastLimit (execute_command): 1 MiB kept, the rest discarded,
// spliced to /dev/null; "read" reads it into a buffer instead, and "tee"
// adds a StdoutTee that counts (so the bytes are read), as the server's
// retained output does past its own cap.
func BenchmarkDrain(b *testing.B) {
	const n, limit = 256 << 20, 1 << 20
	check := func(b *testing.B, r Result) {
		if len(r.Stdout) != limit || !r.StdoutTruncated || r.StdoutBytes != n {
			b.Fatalf("kept %d of %d bytes (truncated %v), want %d of %d", len(r.Stdout), r.StdoutBytes, r.StdoutTruncated, limit, n)
		}
	}
	b.Run(human(n), func(b *testing.B) {
		s := zeroSpec(b, n, limit, true)
		benchPair(b, n, func(b *testing.B) { check(b, runOK(b, s)) })
	})
	b.Run(human(n)+"/read", func(b *testing.B) {
		s := zeroSpec(b, n, limit, true)
		spliceDrain = false
		defer func() { spliceDrain = true }()
		benchPair(b, n, func(b *testing.B) { check(b, runOK(b, s)) })
	})
	b.Run(human(n)+"/tee", func(b *testing.B) {
		s := zeroSpec(b, n, limit, true)
		var tee countWriter
		s.StdoutTee = &tee
		benchPair(b, n, func(b *testing.B) {
			tee = 0
			check(b, runOK(b, s))
			if tee != n {
				b.Fatalf("tee saw %d bytes, want %d", tee, n)
			}
		})
	})
}

// BenchmarkRetainedTee is a foreground call as the server runs it: the
// streams teed into a retained output (package outputs, with the server's
// defaults: 16 KiB held in memory, the text limit; 16 MiB kept per
// stream), finished with the run's counts and then dropped, so that every
// op pays for its own file. 16KiB fits in memory (no file); 1MiB moves to
// its file at 16 KiB; the 256 MiB drain keeps 16 MiB, after which the
// output says it is full and the rest is spliced away as without a tee
// (compare cpu-ms/op with BenchmarkDrain/256MiB and .../tee).
func BenchmarkRetainedTee(b *testing.B) {
	store, err := outputs.Open(outputs.Config{Parent: b.TempDir(), PerStream: 16 << 20, Quota: 256 << 20, TTL: time.Hour, InMemory: 16 << 10})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	for _, bc := range []struct {
		n, limit int64
		drain    bool
	}{{16 << 10, 1 << 20, false}, {1 << 20, 1 << 20, false}, {256 << 20, 1 << 20, true}} {
		b.Run(human(bc.n), func(b *testing.B) {
			s := zeroSpec(b, bc.n, bc.limit, bc.drain)
			benchBytes(b, bc.n, func(b *testing.B) {
				out, err := store.Create()
				if err != nil {
					b.Fatal(err)
				}
				s.StdoutTee, s.StderrTee = out.Stdout(), out.Stderr()
				r := runOK(b, s)
				out.FinishCounted([2]int64{r.StdoutBytes, r.StderrBytes})
				if in := out.Info(); in.Streams[0].Total != bc.n || in.Streams[0].Size != min(bc.n, 16<<20) {
					b.Fatalf("retained %+v of %d bytes", in.Streams[0], bc.n)
				}
				out.Drop()
			})
		})
	}
}

// benchPair runs three sub-benchmarks of n bytes each: the floor, the
// runner (ours), and both alternately (paired), which reports
// runner-%floor, the runner's throughput relative to the floor's.
func benchPair(b *testing.B, n int64, ours func(*testing.B)) {
	b.Run("floor", func(b *testing.B) { benchBytes(b, n, func(b *testing.B) { execFloor(b, n) }) })
	b.Run("runner", func(b *testing.B) { benchBytes(b, n, ours) })
	b.Run("paired", func(b *testing.B) {
		var floor, runner time.Duration
		for b.Loop() {
			t := time.Now()
			execFloor(b, n)
			mid := time.Now()
			ours(b)
			floor, runner = floor+mid.Sub(t), runner+time.Since(mid)
		}
		b.ReportMetric(100*floor.Seconds()/runner.Seconds(), "runner-%floor")
	})
}

// benchBytes runs op as a benchmark of n bytes, with cpu-ms/op: this
// process's CPU time per op, the reading side's cost without the child's.
func benchBytes(b *testing.B, n int64, op func(*testing.B)) {
	b.SetBytes(n)
	b.ReportAllocs()
	cpu := selfCPU(b)
	for b.Loop() {
		op(b)
	}
	b.ReportMetric(float64((selfCPU(b)-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// zeroSpec is `head -c n /dev/zero` at the given cap, through the
// default sandbox.
func zeroSpec(b *testing.B, n, limit int64, drain bool) Spec {
	requirePrograms(b, "head")
	tempRoot(b)
	dir := b.TempDir()
	l, err := sandbox.NewLauncher(sandbox.Config{Mode: benchMode(), WriteDirs: []string{dir}, Limits: sandbox.DefaultLimits(), CacheDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	return tspec{
		Stages: [][]string{{"head", "-c", strconv.FormatInt(n, 10), "/dev/zero"}},
		Dir:    pinned(b, dir),
		Env:    []string{testPath},
		Spec: Spec{
			Timeout:        time.Minute,
			OutputLimit:    limit,
			DrainPastLimit: drain,
			Sandbox:        l,
		},
	}.build(b)
}

func runOK(b *testing.B, s Spec) Result {
	r, err := Run(b.Context(), s)
	if err != nil || r.Outcome != Success || r.ExitCode == nil || *r.ExitCode != 0 {
		b.Fatalf("Run: %v %v", summary(r), err)
	}
	return r
}

// execFloor reads `head -c n /dev/zero` with os/exec into io.Discard.
func execFloor(b *testing.B, n int64) {
	cmd := exec.Command("head", "-c", strconv.FormatInt(n, 10), "/dev/zero")
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	got, copyErr := io.Copy(io.Discard, out)
	waitErr := cmd.Wait()
	if copyErr != nil || waitErr != nil || got != n {
		b.Fatalf("floor read %d bytes of %d: %v, %v", got, n, copyErr, waitErr)
	}
}

// selfCPU is the user and system CPU time this process has used.
func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// countWriter counts what it is given and keeps nothing.
type countWriter int64

func (w *countWriter) Write(p []byte) (int, error) {
	*w += countWriter(len(p))
	return len(p), nil
}

func human(n int64) string {
	switch {
	case n >= 1<<20:
		return strconv.FormatInt(n>>20, 10) + "MiB"
	case n >= 1<<10:
		return strconv.FormatInt(n>>10, 10) + "KiB"
	}
	return strconv.FormatInt(n, 10) + "B"
}

// benchMode is the sandbox mode of the capture benchmarks: auto, the
// server's default, unless MCP_SHELL_BENCH_SANDBOX names another (off,
// limits, landlock) to see what the confinement costs.
func benchMode() string {
	if m := os.Getenv("MCP_SHELL_BENCH_SANDBOX"); m != "" {
		return m
	}
	return sandbox.ModeAuto
}
