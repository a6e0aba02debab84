//go:build linux

// Fault injection that reads the server's memory from /proc: Linux.

package fault

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// bodyDeadline is the server's deadline for an authenticated request's body
// (server bodyTimeout); a connection still open this long after it sent its
// headers, plus slack for a loaded machine, was never released.
const bodyDeadline = 30 * time.Second

// TestHTTPAuthenticatedDripCannotLockOut: 300 connections with a valid
// token send headers announcing a 100 kB body, one body byte, then nothing
// (and reconnect whenever the server closes one, for the first seconds):
// an honest client's calls on fresh connections are still answered (median
// over rounds of the p99 < 1 s), every dripping connection is closed by the
// server within the body deadline (408, or earlier to make room), and the
// 408s and 503s are audited within the rate limit.
func TestHTTPAuthenticatedDripCannotLockOut(t *testing.T) {
	h := startHTTP(t, "ALLOW_COMMANDS=echo")
	began := time.Now()
	attack, stopAttack := context.WithCancel(context.Background())
	defer stopAttack()
	var st dripStats
	var wg sync.WaitGroup
	const drippers = 300
	for range drippers {
		wg.Go(func() { authedDripper(attack, h.host, &st) })
	}
	for st.opened.Load() < drippers {
		time.Sleep(10 * time.Millisecond) // counting other goroutines' dials: no event to wait on
	}
	// The rounds: an honest client calls echo on a new connection each
	// time. The figure is the median of the rounds' p99, so that one
	// round slowed by a neighbour on a loaded 2-core machine does not
	// decide alone; the goal (1 s) is some 20 times the p99 measured, and
	// a locked-out server fails every call, not a few.
	const rounds, perRound = 3, 30
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 20 * time.Second}
	var p99s, all []time.Duration
	failed, retried := 0, 0
	for r := range rounds {
		var ds []time.Duration
		for i := range perRound {
			begin := time.Now()
			ok, again := honestCall(h, client, 1000*r+i)
			if !ok {
				failed++
				continue
			}
			if again {
				retried++
			}
			ds = append(ds, time.Since(begin))
			time.Sleep(50 * time.Millisecond) // pacing, so the drippers reconnect between calls
		}
		p99s = append(p99s, percentile(ds, 0.99))
		all = append(all, ds...)
	}
	held := st.opened.Load() - st.ended.Load()
	stopAttack()
	slices.Sort(p99s)
	median := p99s[len(p99s)/2]
	// Wait for every dripping connection to end: the server closes each
	// by the body deadline; one it never closes ends at the dripper's own
	// cap, counted as held.
	wg.Wait()
	elapsed := time.Since(began)
	// The server's stop writes the counts its rate limit left out since
	// the last record of each status.
	h.cmd.Process.Signal(syscall.SIGTERM)
	h.cmd.Wait()
	recs := records(t, h.audit)
	var r408, r503, suppressed int
	for _, r := range recs {
		switch r["http_status"] {
		case 408.0:
			r408++
		case 503.0:
			r503++
		default:
			continue
		}
		s, _ := r["suppressed"].(float64)
		suppressed += int(s)
		if strings.Contains(fmt.Sprint(r["error"]), "since the last record of it") {
			// The count written at the stop is not a refusal itself.
			if r["http_status"] == 408.0 {
				r408--
			} else {
				r503--
			}
		}
	}
	t.Logf("%d authenticated drippers (%d connections opened, %d still open when the attack stopped); honest client: %d calls, %d failed, %d reconnected; p99 per round %v (median %v), p50 %v",
		drippers, st.opened.Load(), held, len(all), failed, retried, p99s, median.Round(time.Millisecond), percentile(all, 0.5).Round(time.Millisecond))
	t.Logf("dripping connections closed by the server: %d after a 408, %d after a 503, %d without an answer; longest held %v; %d held past the body deadline; audit: %d records of 408, %d of 503, %d suppressed",
		st.got408.Load(), st.got503.Load(), st.gotNone.Load(), time.Duration(st.longest.Load()).Round(time.Millisecond), st.pastDeadline.Load(), r408, r503, suppressed)
	if failed > 0 || median >= time.Second {
		t.Errorf("goal: every honest call answered, median p99 < 1 s")
	}
	if st.pastDeadline.Load() > 0 {
		t.Errorf("%d dripping connections held past the body deadline", st.pastDeadline.Load())
	}
	if refused := int(st.got408.Load() + st.got503.Load()); r408+r503 == 0 || r408+r503+suppressed != refused {
		t.Errorf("%d 408/503 answers but %d records and %d suppressed", refused, r408+r503, suppressed)
	}
	// The rate limit: a burst of 20, then 5 a second, per status.
	if most := 2 * (20 + 5*int(elapsed.Seconds()+1)); r408+r503 > most {
		t.Errorf("%d records for 408/503 in %v: not rate-limited (at most %d)", r408+r503, elapsed.Round(time.Second), most)
	}
}

// dripStats are what the authenticated drippers saw.
type dripStats struct {
	opened, ended           atomic.Int64
	got408, got503, gotNone atomic.Int64
	pastDeadline, longest   atomic.Int64
}

// authedDripper holds authenticated connections with an unfinished body,
// reconnecting while attack lasts; each connection waits for the server's
// answer and close, at most the body deadline plus slack.
func authedDripper(attack context.Context, host string, st *dripStats) {
	for attack.Err() == nil {
		c, err := net.Dial("tcp", host)
		if err != nil {
			return
		}
		opened := time.Now()
		st.opened.Add(1)
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{", host, token)
		limit := bodyDeadline + 10*time.Second
		c.SetReadDeadline(opened.Add(limit))
		br := bufio.NewReader(c)
		status := 0
		if resp, err := http.ReadResponse(br, nil); err == nil {
			status = resp.StatusCode
		}
		_, err = io.Copy(io.Discard, br)
		held := time.Since(opened)
		c.Close()
		st.ended.Add(1)
		for {
			old := st.longest.Load()
			if int64(held) <= old || st.longest.CompareAndSwap(old, int64(held)) {
				break
			}
		}
		switch {
		case isTimeoutErr(err) || held > bodyDeadline+5*time.Second:
			st.pastDeadline.Add(1)
		case status == 408:
			st.got408.Add(1)
		case status == 503:
			st.got503.Add(1)
		default:
			st.gotNone.Add(1)
		}
	}
}

func isTimeoutErr(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// honestCall is one tools/call on a new connection, with one reconnect
// if the connection was closed before its answer; ok means the call's
// result came back.
func honestCall(h *httpServer, client *http.Client, id int) (ok, again bool) {
	for attempt := range 2 {
		resp, err := h.post(context.Background(), client, "", "2026-07-28", callBody(id, "2026-07-28", "echo", "ok"))
		if err != nil {
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 && strings.Contains(string(body), `"result"`) {
			return true, attempt > 0
		}
	}
	return false, false
}

// status reads a field of /proc/pid/status in KiB (VmRSS, VmHWM).
func status(t *testing.T, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// TestHTTPSessionsBounded: sessions opened and abandoned cost memory until
// the cap; past it the least recently used idle session is closed (its id
// then answers 404), a session with a running call is not, and RSS stops
// growing. The cap is set low so the test stays short; the RSS per
// session is what the default cap is derived from (config).
func TestHTTPSessionsBounded(t *testing.T) {
	const sessionCap = 400
	hold := holdScript(t)
	h := startHTTP(t, "ALLOW_COMMANDS="+hold, fmt.Sprintf("MCP_SHELL_HTTP_MAX_SESSIONS=%d", sessionCap))
	pid := h.cmd.Process.Pid
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	open := func(n int) []string {
		ids := make([]string, 0, n)
		for range n {
			ids = append(ids, h.sessionWith(t, client, "2025-11-25"))
		}
		return ids
	}
	// The session whose call runs throughout: it is the oldest, and must
	// survive every eviction.
	busy := h.sessionWith(t, client, "2025-11-25")
	pidFile := h.dir + "/busy"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := h.post(ctx, http.DefaultClient, busy, "2025-11-25", callBody(7, "2025-11-25", hold, pidFile))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	waitPID(t, pidFile+".pid")

	base := status(t, pid, "VmRSS")
	first := open(sessionCap - 1)
	atCap := status(t, pid, "VmRSS")
	more := open(2 * sessionCap)
	after := status(t, pid, "VmRSS")
	perSession := float64(atCap-base) / float64(sessionCap-1)

	alive := func(ids []string) int {
		n := 0
		for _, id := range ids {
			resp, err := h.post(context.Background(), client, id, "2025-11-25", `{"jsonrpc":"2.0","id":99,"method":"ping"}`)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				n++
			}
		}
		return n
	}
	aliveOld, aliveNew := alive(first), alive(more[len(more)-sessionCap/2:])
	busyAlive := alive([]string{busy}) == 1
	t.Logf("cap %d: RSS %d KiB with no session, %d KiB at the cap (%.1f KiB per session, %.1f MiB per 1,000), %d KiB after %d more sessions; of the %d oldest idle sessions %d still open, of the newest %d %d open; the session with a running call open: %v",
		sessionCap, base, atCap, perSession, perSession*1000/1024, after, len(more), len(first), aliveOld, sessionCap/2, aliveNew, busyAlive)
	if !busyAlive || aliveOld != 0 || aliveNew != sessionCap/2 {
		t.Errorf("want the busy session kept, the oldest idle ones closed, the newest open")
	}
	if growth := after - atCap; float64(growth) > perSession*sessionCap/2 {
		t.Errorf("RSS grew %d KiB past the cap, more than half the cap's worth: sessions are not bounded", growth)
	}
}

// TestHTTPHeaderBytesBounded: 500 unauthenticated clients each send about
// 1 MiB of headers and stall. The server refuses headers past its limit
// (431) and closes, so its peak memory grows by a few MiB, not by what the
// clients sent.
func TestHTTPHeaderBytesBounded(t *testing.T) {
	h := startHTTP(t, "ALLOW_COMMANDS=echo")
	pid := h.cmd.Process.Pid
	before := status(t, pid, "VmHWM")
	const clients, perClient = 500, 1 << 20
	var wg sync.WaitGroup
	var sent, refused atomic.Int64
	line := "X-Filler: " + strings.Repeat("a", 1000) + "\r\n"
	for range clients {
		wg.Go(func() {
			c, err := net.Dial("tcp", h.host)
			if err != nil {
				return
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(15 * time.Second))
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\n", h.host)
			n := 0
			for n < perClient {
				k, err := io.WriteString(c, line)
				n += k
				if err != nil {
					break
				}
			}
			sent.Add(int64(n))
			if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil && resp.StatusCode == http.StatusRequestHeaderFieldsTooLarge {
				refused.Add(1)
			}
		})
	}
	wg.Wait()
	peak := status(t, pid, "VmHWM")
	t.Logf("%d clients sent %d MiB of headers in all (%d answered 431); the server's peak RSS went from %d to %d KiB (+%d KiB)",
		clients, sent.Load()>>20, refused.Load(), before, peak, peak-before)
	if peak-before > 64<<10 {
		t.Errorf("peak RSS grew by %d MiB: header bytes are not bounded", (peak-before)>>10)
	}
	// And the server still serves.
	ok, _ := honestCall(h, http.DefaultClient, 1)
	if !ok {
		t.Errorf("the server stopped answering")
	}
}
