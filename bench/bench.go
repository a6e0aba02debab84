package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// bench is one invocation: options, scratch space, the server specs and the
// results each section adds.
type bench struct {
	o       options
	root    string // repository root
	tmp     string // scratch directory, removed at the end
	work    string // the servers' allowed working directory (inside tmp)
	home    string // HOME for servers (inside tmp)
	bin     string // our server binary
	peerCmd []string
	peerErr error // why the peer is not measured, if it is not
	began   time.Time

	machine machineInfo
	goals   []goal
	parts   []part
}

// goal is one target of the issue and whether this run met it.
type goal struct {
	name, target, measured string
	met                    *bool // nil: not measured in this run, or no target
}

// part is one section of the report, in Markdown.
type part struct {
	title string
	body  strings.Builder
}

func (p *part) printf(format string, args ...any) { fmt.Fprintf(&p.body, format, args...) }

func (b *bench) newPart(title string) *part {
	b.parts = append(b.parts, part{title: title})
	return &b.parts[len(b.parts)-1]
}

func (b *bench) addGoal(name, target, measured string, met bool) {
	b.goals = append(b.goals, goal{name: name, target: target, measured: measured, met: &met})
}

// skipGoal records a row without a verdict: not measured (why says why)
// or reported without a target.
func (b *bench) skipGoal(name, target, why string) {
	b.goals = append(b.goals, goal{name: name, target: target, measured: why})
}

func newBench(ctx context.Context, o options) (*bench, error) {
	b := &bench{o: o, began: time.Now()}
	var err error
	if b.root, err = repoRoot(); err != nil {
		return nil, err
	}
	if b.tmp, err = os.MkdirTemp("", "mcp-shell-bench-"); err != nil {
		return nil, err
	}
	// Resolve symlinks: the server resolves its allowed directories too.
	if b.tmp, err = filepath.EvalSymlinks(b.tmp); err != nil {
		return nil, err
	}
	b.work, b.home = filepath.Join(b.tmp, "work"), filepath.Join(b.tmp, "home")
	for _, d := range []string{b.work, b.home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, err
		}
	}
	if o.out == "" {
		o.out = filepath.Join(b.root, "BENCHMARKS.md")
		if o.smoke {
			o.out = filepath.Join(b.tmp, "BENCHMARKS.md")
		}
	}
	if o.cases == "" {
		o.cases = filepath.Join(b.root, "..", "shared", "cases")
	}
	b.o = o
	if o.smoke && !o.keep {
		// The smoke report lives in tmp; keep it only when asked.
		b.logf("smoke report goes to %s (removed at exit unless -keep)", o.out)
	}
	b.bin = o.bin
	if b.bin == "" {
		b.logf("building ./cmd/mcp-shell-server")
		if b.bin, err = buildServer(ctx, b.root, b.tmp); err != nil {
			b.cleanup()
			return nil, err
		}
	}
	b.machine = describeMachine(b.root)
	return b, nil
}

func (b *bench) cleanup() {
	if b.o.keep {
		fmt.Fprintln(os.Stderr, "bench: scratch directory kept at", b.tmp)
		return
	}
	os.RemoveAll(b.tmp)
}

// reps is the repetition count of a section: -reps if given, else full or
// smoke.
func (b *bench) reps(full, smoke int) int {
	if b.o.reps > 0 {
		return b.o.reps
	}
	return pick(b.o.smoke, smoke, full)
}

// oursSpec is our server with the benchmark's allowlist, both tools, 64
// concurrent calls, an audit file, and extra environment entries.
func (b *bench) oursSpec(extra ...string) serverSpec {
	env := append(baseEnv(b.home),
		"ALLOW_COMMANDS=true,cat,head,sleep,echo,sort",
		"MCP_SHELL_TOOLS=shell_execute,execute_command",
		"MCP_SHELL_MAX_CONCURRENT=64",
		"MCP_SHELL_MAX_TIMEOUT_SECONDS=600",
		"MCP_SHELL_AUDIT_LOG="+filepath.Join(b.tmp, "audit.jsonl"),
		"MCP_SHELL_LOG_LEVEL=warn",
	)
	return serverSpec{name: "ours", argv: []string{b.bin, b.work}, env: append(env, extra...), dir: b.work}
}

// peerSpec is the npm peer with its enhanced (LLM) mode off and its
// working directory confined to the benchmark's.
func (b *bench) peerSpec() serverSpec {
	env := append(baseEnv(b.home),
		"MCP_SHELL_ENHANCED_MODE=false",
		"MCP_SHELL_DEFAULT_WORKDIR="+b.work,
		"MCP_SHELL_ALLOWED_WORKDIRS="+b.work,
		"BACKOFFICE_ENABLED=false",
		"LOG_LEVEL=error",
	)
	return serverSpec{name: "peer", argv: b.peerCmd, env: env, dir: b.work}
}

// runAll runs every section in order. It returns the first breakage (the
// report is still written with what was measured); a section that cannot
// run for a reason outside the server (peer not installable, corpus
// missing) is reported and skipped.
func (b *bench) runAll(ctx context.Context) error {
	var broken []error
	step := func(name string, f func(context.Context) error) {
		if ctx.Err() != nil || !b.selected(name) {
			return
		}
		b.logf("%s", name)
		if err := f(ctx); err != nil {
			b.logf("%s: %v", name, err)
			broken = append(broken, fmt.Errorf("%s: %w", name, err))
			p := b.newPart(name + ": FAILED")
			p.printf("```\n%v\n```\n", err)
		}
	}
	step("policy cost", b.policyCost)
	if b.o.peer && (b.selected("per-call latency") || b.selected("start-up")) {
		defer b.cleanPeerStore(peerFiles())
		step("peer install", b.installPeer)
	} else {
		b.peerErr = errors.New("skipped (-smoke or -peer=false)")
	}
	step("per-call latency", b.latency)
	step("start-up", b.startup)
	step("throughput and memory", b.throughput)
	step("concurrency", b.concurrency)
	step("soak", b.soakRun)
	step("sandbox cost", b.sandboxCost)
	step("http throughput", b.httpLoad)
	if b.o.before != "" {
		step("before and after", b.beforeAfter)
	}
	if ctx.Err() != nil {
		broken = append(broken, ctx.Err())
	}
	b.machine.loadEnd = loadavg()
	b.machine.duration = time.Since(b.began).Round(time.Second)
	return errors.Join(broken...)
}

// sectionKeys maps -only words to section names.
var sectionKeys = map[string]string{
	"policy": "policy cost", "latency": "per-call latency", "startup": "start-up",
	"throughput": "throughput and memory", "concurrency": "concurrency", "soak": "soak",
	"sandbox": "sandbox cost", "http": "http throughput", "goals": "before and after",
}

// selected reports whether -only admits the section called name (the peer
// install is admitted whenever a section that uses the peer is).
func (b *bench) selected(name string) bool {
	if b.o.only == "" || name == "peer install" {
		return true
	}
	for _, w := range strings.Split(b.o.only, ",") {
		if sectionKeys[strings.TrimSpace(w)] == name {
			return true
		}
	}
	return false
}

// writeDataFile writes size bytes of printable text (lines of 64
// characters) to name in the working directory and returns its name
// relative to it.
func (b *bench) writeDataFile(name string, size int64) (string, error) {
	line := []byte("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-\n")
	f, err := os.Create(filepath.Join(b.work, name))
	if err != nil {
		return "", err
	}
	buf := make([]byte, 0, 1<<20)
	for len(buf)+len(line) <= cap(buf) {
		buf = append(buf, line...)
	}
	for left := size; left > 0; {
		n := min(left, int64(len(buf)))
		if _, err := f.Write(buf[:n]); err != nil {
			f.Close()
			return "", err
		}
		left -= n
	}
	return name, f.Close()
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
