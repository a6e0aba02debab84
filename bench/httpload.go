package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/config"
)

// httpClients are the client counts of section 9: one, a few, the old
// default bound (16) and the 64 of section 5.
var httpClients = []int{1, 4, 16, 64}

// httpGoal is the throughput goal of section 9: ours ≥ 0.8 × the floor of
// the same number of os/exec loops in this process.
const httpGoal = 0.8

// httpWork is one kind of call of section 9: the tool call's argv and the
// floor's command doing the same work.
type httpWork struct {
	name  string
	short string // in goal rows
	argv  []string
	floor []string
}

var httpWorks = []httpWork{
	{name: "`true` (CPU-bound: process start)", short: "`true`", argv: []string{"true"}, floor: []string{"/bin/true"}},
	{name: "`sleep 0.2` (I/O-bound: waiting)", short: "`sleep 0.2`", argv: []string{"sleep", "0.2"}, floor: []string{"sleep", "0.2"}},
}

// httpLoad is section 9: calls per second over Streamable HTTP with 1 to
// 64 concurrent clients (one MCP session each) calling in a loop, against
// as many goroutines of this process running the same program with
// os/exec in a loop. The server runs with the default concurrency bound.
func (b *bench) httpLoad(ctx context.Context) error {
	hs, err := b.startHTTP(ctx)
	if err != nil {
		return err
	}
	defer hs.close()
	window := time.Duration(pick(b.o.smoke, 300, 2000)) * time.Millisecond
	reps := b.reps(3, 1)
	p := b.newPart("9. HTTP throughput: concurrent clients against the os/exec floor")
	p.printf("One server over Streamable HTTP on loopback with the default `MCP_SHELL_MAX_CONCURRENT` (%s); each client is a go-sdk session of its own calling `shell_execute` in a loop for %s, and the floor is as many goroutines of this process running the same program with os/exec in a loop for as long. Calls per second completed in the window; %d alternating repetitions, median (min–max).\n\n",
		hs.bound, window, reps)
	for _, w := range httpWorks {
		p.printf("**%s**\n\n| clients | floor calls/s | ours calls/s | ours/floor |\n|---:|---:|---:|---:|\n", w.name)
		for _, n := range httpClients {
			if b.o.smoke && n > 16 && w.argv[0] == "true" {
				continue
			}
			var ours, floor []float64
			for i := range reps {
				err := rotated(i, func() error {
					r, err := hs.rate(ctx, n, window, w.argv)
					ours = append(ours, r)
					return err
				}, func() error {
					r, err := execRate(ctx, n, window, w.floor)
					floor = append(floor, r)
					return err
				})
				if err != nil {
					return err
				}
			}
			r := median(ours) / median(floor)
			p.printf("| %d | %s | %s | %.2f× |\n", n, rateRange(floor), rateRange(ours), r)
			b.addGoal(fmt.Sprintf("HTTP %s, %d clients", w.short, n), fmt.Sprintf("ours ≥ %g × os/exec floor (calls/s)", httpGoal),
				fmt.Sprintf("%.2f× (%.0f vs %.0f calls/s)", r, median(ours), median(floor)), r >= httpGoal)
		}
		p.printf("\n")
	}
	return nil
}

// httpServer is our server on a loopback port with its own token.
type httpServer struct {
	cmd   *exec.Cmd
	url   string
	token string
	bound string // MCP_SHELL_MAX_CONCURRENT as the server applies it
}

// startHTTP starts ours with MCP_SHELL_TRANSPORT=http on a free loopback
// port and the default concurrency bound, and waits for /healthz.
func (b *bench) startHTTP(ctx context.Context) (*httpServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	var raw [16]byte
	_, _ = rand.Read(raw[:])
	hs := &httpServer{url: "http://" + addr + "/mcp", token: hex.EncodeToString(raw[:]), bound: "default"}
	spec := b.oursSpec("MCP_SHELL_TRANSPORT=http", "MCP_SHELL_HTTP_ADDR="+addr, "MCP_SHELL_HTTP_TOKEN="+hs.token)
	var env []string
	for _, kv := range spec.env {
		if !strings.HasPrefix(kv, "MCP_SHELL_MAX_CONCURRENT=") { // the default is what is measured
			env = append(env, kv)
		}
	}
	hs.cmd = exec.Command(spec.argv[0], spec.argv[1:]...)
	hs.cmd.Env, hs.cmd.Dir = env, spec.dir
	stderr := &tailBuffer{max: 16 << 10}
	hs.cmd.Stderr = stderr
	if err := hs.cmd.Start(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/healthz", nil)
		req.Header.Set("Authorization", "Bearer "+hs.token)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			hs.close()
			return nil, fmt.Errorf("the HTTP server did not answer /healthz within 30 s (stderr: %s)", stderr.String())
		}
		time.Sleep(20 * time.Millisecond) // polling a port that has no readiness signal
	}
	if n, err := concurrencyBound(env, spec.argv[1:]); err == nil {
		hs.bound = strconv.Itoa(n)
	}
	return hs, nil
}

// concurrencyBound is MCP_SHELL_MAX_CONCURRENT as the server's own
// configuration package resolves env.
func concurrencyBound(env, dirs []string) (int, error) {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	cfg, err := config.Parse(config.LookupMap(m), dirs)
	if err != nil {
		return 0, err
	}
	return cfg.MaxConcurrent, nil
}

func (hs *httpServer) close() {
	hs.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { hs.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		hs.cmd.Process.Kill()
		<-done
	}
}

// bearer adds the token to every request of a client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// rate connects n sessions, then lets each call argv in a loop for window
// and returns the calls per second completed in it. A failed call is an
// error wrapping errCall.
func (hs *httpServer) rate(ctx context.Context, n int, window time.Duration, argv []string) (float64, error) {
	// One connection pool for all clients, large enough that no client
	// waits for a connection: the clients, not the pool, are measured.
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = n
	hc := &http.Client{Transport: bearer{hs.token, tr}}
	defer tr.CloseIdleConnections()
	sessions := make([]*mcp.ClientSession, n)
	for i := range sessions {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "mcp-shell-server-bench", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.url, HTTPClient: hc}, nil)
		if err != nil {
			return 0, fmt.Errorf("HTTP session %d: %w", i, err)
		}
		defer cs.Close()
		sessions[i] = cs
	}
	return loopRate(n, window, func(i int) error {
		res, err := sessions[i].CallTool(ctx, &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": argv}})
		switch {
		case err != nil:
			return err
		case res.IsError:
			return fmt.Errorf("%w: %s", errCall, firstText(res))
		}
		return nil
	})
}

// execRate is the floor: n goroutines running argv with os/exec in a loop.
func execRate(ctx context.Context, n int, window time.Duration, argv []string) (float64, error) {
	return loopRate(n, window, func(int) error { return exec.CommandContext(ctx, argv[0], argv[1:]...).Run() })
}

// loopRate runs do(i) in a loop on n goroutines; calls that end within
// window of the start count. The goroutines finish their last call before
// it returns.
func loopRate(n int, window time.Duration, do func(i int) error) (float64, error) {
	var done atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, n)
	start := time.Now()
	end := start.Add(window)
	for i := range n {
		wg.Go(func() {
			for time.Now().Before(end) {
				if err := do(i); err != nil {
					errs[i] = err
					return
				}
				if time.Now().Before(end) {
					done.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return float64(done.Load()) / window.Seconds(), errors.Join(errs...)
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func rateRange(v []float64) string {
	lo, hi := v[0], v[0]
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	return fmt.Sprintf("%.0f (%.0f–%.0f)", median(v), lo, hi)
}
