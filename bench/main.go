package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// options are the command-line flags.
type options struct {
	smoke       bool
	n           int   // interleaved latency iterations per series
	soak        int   // sequential calls in the soak
	reps        int   // repetitions of start-up, throughput, concurrency
	big         int64 // bytes drained through execute_command (1 GiB)
	capture     int64 // bytes captured with the cap raised to the same size
	bin         string
	before      string // an earlier build, for section 10
	peer        bool
	peerDir     string
	peerVersion string
	out         string
	cases       string
	keep        bool
	only        string
}

func main() {
	os.Exit(run(os.Args[1:]))
}

// run parses args, runs every section and writes the report. It returns 0,
// 1 when something broke (a failed or mixed call, a dead server, an
// unwritable report) and 2 on a usage error. Missed goals are reported, not
// failures.
func run(args []string) int {
	o, err := parseFlags(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	b, err := newBench(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		return 1
	}
	defer b.cleanup()
	broken := b.runAll(ctx)
	if err := b.write(); err != nil {
		fmt.Fprintln(os.Stderr, "bench: writing the report:", err)
		return 1
	}
	fmt.Fprintln(os.Stderr, "bench: wrote", b.o.out)
	if broken != nil {
		fmt.Fprintln(os.Stderr, "bench: FAILED:", broken)
		return 1
	}
	return 0
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.BoolVar(&o.smoke, "smoke", false, "few iterations, no peer, small outputs; for CI (< 60 s)")
	fs.IntVar(&o.n, "n", 0, "interleaved latency iterations per series (default 2000, smoke 40)")
	fs.IntVar(&o.soak, "soak", 0, "sequential calls in the soak (default 10000, smoke 300)")
	fs.IntVar(&o.reps, "reps", 0, "repetitions of start-up, throughput and concurrency runs (default 10/3/5, smoke 3/1/2)")
	fs.Int64Var(&o.big, "big", 0, "bytes drained through execute_command (default 1 GiB, smoke 64 MiB)")
	fs.Int64Var(&o.capture, "capture", 0, "bytes captured with the output cap raised to match (default 64 MiB, smoke 8 MiB)")
	fs.StringVar(&o.bin, "bin", "", "prebuilt server binary (default: go build ./cmd/mcp-shell-server into a temp dir)")
	fs.StringVar(&o.before, "before", "", "an earlier server binary: section 10 measures the performance goals for it and this build side by side")
	fs.BoolVar(&o.peer, "peer", true, "install and measure the npm peer @mako10k/mcp-shell-server (off with -smoke)")
	fs.StringVar(&o.peerDir, "peer-dir", "", "npm prefix where the peer is already installed (default: npm install into a temp dir)")
	fs.StringVar(&o.peerVersion, "peer-version", "2.7.1", "version of @mako10k/mcp-shell-server to install")
	fs.StringVar(&o.out, "out", "", "report path (default BENCHMARKS.md at the repository root; smoke: a temp dir)")
	fs.StringVar(&o.cases, "cases", "", "directory holding benign.jsonl (default ../shared/cases beside the repository)")
	fs.BoolVar(&o.keep, "keep", false, "keep the scratch directory (prints its path)")
	fs.StringVar(&o.only, "only", "", "comma list of sections to run: policy,latency,startup,throughput,concurrency,soak,sandbox,http,goals (default all)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.only != "" {
		for _, w := range strings.Split(o.only, ",") {
			if _, ok := sectionKeys[strings.TrimSpace(w)]; !ok {
				return o, fmt.Errorf("-only: unknown section %q", w)
			}
		}
	}
	peerSet := false
	fs.Visit(func(f *flag.Flag) { peerSet = peerSet || f.Name == "peer" })
	if o.smoke && !peerSet {
		o.peer = false
	}
	def := func(v *int, full, smoke int) {
		if *v <= 0 {
			*v = pick(o.smoke, smoke, full)
		}
	}
	def(&o.n, 2000, 40)
	def(&o.soak, 10000, 300)
	if o.big <= 0 {
		o.big = int64(pick(o.smoke, 64<<20, 1<<30))
	}
	if o.capture <= 0 {
		o.capture = int64(pick(o.smoke, 8<<20, 64<<20))
	}
	return o, nil
}

func pick(smoke bool, ifSmoke, full int) int {
	if smoke {
		return ifSmoke
	}
	return full
}

// repoRoot walks up from the working directory to the directory holding
// this module's go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(b), "module github.com/seed-b63acb1b/mcp-shell-server\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run from inside the mcp-shell-server repository (no go.mod found)")
		}
		dir = parent
	}
}

// buildServer builds ./cmd/mcp-shell-server into dir as the release
// images do (Dockerfile: CGO_ENABLED=0). A default build on a machine with
// a C compiler links cgo (net's resolver, psx under go-landlock): a
// dynamically linked binary whose every process (the server, its
// watchdog, the sandbox's start-up check of ptrace) pays the dynamic
// loader and cgo's start, about 0.8 ms of CPU each (bench/README.md,
// "Start-up").
func buildServer(ctx context.Context, root, dir string) (string, error) {
	bin := filepath.Join(dir, "mcp-shell-server")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/mcp-shell-server")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %w\n%s", err, out)
	}
	return bin, nil
}

// logf prints progress to stderr with the elapsed time.
func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench [%5.1fs] %s\n", time.Since(b.began).Seconds(), fmt.Sprintf(format, args...))
}
