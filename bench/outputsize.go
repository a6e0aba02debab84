package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// bigOutput is one large answer of section 4, measured side by side: ours
// (execute_command `head -c N file` on a fresh server with the cap raised
// to N), the physical limit for the same bytes (physicalLimit) and, for
// text, the peer's full-output path.
type bigOutput struct {
	label string
	file  string // path relative to the work dir, or absolute (/dev/zero)
	size  int64
	// escapeFactor is how many bytes of JSON each output byte becomes.
	escapeFactor int64
	ours, limit  []drainRun
	raw          []drainRun // ours through rawOnce: the answer not decoded
	rawSize      int64      // the answer's length in bytes
	peer         []drainRun
	peerErr      error
	shared       *[]drainRun // ours, when another row measures it (set by the caller)
}

// bigOutputs are the text and NUL-byte answers of -capture bytes: NUL
// bytes are the worst case for an answer's size, each one becoming the
// six bytes \u0000 in JSON. The text one's ours runs are section 4's
// capture runs. A smoke run keeps the NUL answer at 1 MiB: the client's
// decoding of the escapes, not the server, is what takes the time.
func bigOutputs(textFile string, n int64, smoke bool) []*bigOutput {
	nul := n
	if smoke {
		nul = min(n, 1<<20)
	}
	return []*bigOutput{
		{label: "text", file: textFile, size: n, escapeFactor: 1},
		{label: "NUL bytes", file: "/dev/zero", size: nul, escapeFactor: 6},
	}
}

// steps are the runs of one repetition for every big output, for rotated.
func (b *bench) bigOutputSteps(ctx context.Context, bigs []*bigOutput, peer *server) []func() error {
	var steps []func() error
	for _, g := range bigs {
		n := g.size
		env := []string{"MCP_SHELL_OUTPUT_LIMIT_BYTES=" + itoa(n)}
		if g.shared == nil {
			steps = append(steps, func() error {
				r, err := b.drainOnce(ctx, env, n, g.file, int(n), false)
				g.ours = append(g.ours, r)
				return err
			})
		}
		steps = append(steps, func() error {
			r, size, err := b.rawOnce(ctx, env, n, g.file)
			g.raw, g.rawSize = append(g.raw, r), size
			return err
		}, func() error {
			d, err := physicalLimit(ctx, b.abs(g.file), n)
			g.limit = append(g.limit, drainRun{wall: d})
			return err
		})
		if peer != nil && g.escapeFactor == 1 && g.peerErr == nil {
			steps = append(steps, func() error {
				// The peer's failure (it may page or cap large reads) is
				// reported in the table rather than ending the run.
				d, err := peerShell(peer, "head -c "+itoa(n)+" "+g.file, true, int(n))(ctx)
				if err != nil {
					g.peerErr = err
				} else {
					g.peer = append(g.peer, drainRun{wall: d})
				}
				return nil
			})
		}
	}
	return steps
}

func (b *bench) abs(file string) string {
	if filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(b.work, file)
}

// physicalLimit is what any server must do for the answer of
// `head -c n file`, timed in this process: capture (os/exec reads the
// child's stdout into memory), one JSON escape (encoding/json, the
// standard library's), and the write of the escaped bytes through a pipe
// that a goroutine drains (the client end of stdio). Decoding by a client
// is not in it.
func physicalLimit(ctx context.Context, file string, n int64) (time.Duration, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	drained := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, r); drained <- err }()
	start := time.Now()
	out, err := exec.CommandContext(ctx, "head", "-c", itoa(n), file).Output()
	if err != nil {
		w.Close()
		return 0, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(string(out)); err != nil {
		w.Close()
		return 0, err
	}
	_, err = w.Write(buf.Bytes())
	w.Close()
	if derr := <-drained; err == nil {
		err = derr
	}
	return time.Since(start), err
}

// reportBigOutputs adds the big answers' table and goals to section 4.
func (b *bench) reportBigOutputs(p *part, bigs []*bigOutput) {
	p.printf("\n**Large answers captured whole** (`execute_command head -c N FILE` on a fresh server with `MCP_SHELL_OUTPUT_LIMIT_BYTES=N`), against the physical limit measured in the same loop (this program runs `head -c N FILE` with os/exec, escapes the output once with encoding/json and writes it through a pipe that a goroutine drains: capture + one JSON escape + write), and the peer's full-output path (`shell_execute` + `read_execution_output`) for text; the runs rotate within each repetition. *ours, go-sdk client* includes that client's decoding of the answer (in this process); *ours, raw stdio* is the same call sent as JSON-RPC lines and its answer read to the last byte without decoding (bench/rawclient.go), like the limit, which does not decode either. The goals compare the raw series with the limit: they are the server's side of the answer.\n\n")
	p.printf("| output | series | median wall | wall range | server VmHWM before → after (max) | server CPU (median) |\n|---|---|---:|---:|---:|---:|\n")
	for _, g := range bigs {
		n := g.size
		h := human(n)
		limitKiB := func(extra int64) int64 { return (extra + 2*n + 32<<20) >> 10 }
		if g.shared != nil {
			g.ours = *g.shared
		}
		row := func(series string, rs []drainRun) (time.Duration, int64) {
			var cpus []time.Duration
			var hwm, base int64
			for _, r := range rs {
				cpus = append(cpus, r.cpu)
				hwm, base = max(hwm, r.hwmKiB), max(base, r.baseKiB)
			}
			w := walls(rs)
			server := " | "
			if hwm > 0 {
				server = fmt.Sprintf("%s → %s | %s ms", kib(base), kib(hwm), ms(quantile(cpus, .5)))
			}
			p.printf("| %s %s | %s | %s ms | %s–%s ms | %s |\n", h, g.label, series, ms(quantile(w, .5)), ms(quantile(w, 0)), ms(quantile(w, 1)), server)
			return quantile(w, .5), hwm
		}
		oursSDK, _ := row("ours, go-sdk client", g.ours)
		ours, hwm := row(fmt.Sprintf("ours, raw stdio (answer %s bytes)", itoa(g.rawSize)), g.raw)
		limit, _ := row("physical limit", g.limit)
		name := h + " " + g.label
		switch {
		case len(g.peer) > 0:
			peer, _ := row("peer: shell_execute + read_execution_output", g.peer)
			// Both through the go-sdk client: the same decoding on both sides.
			b.addGoal(name+" vs the peer", "ours faster than the peer's full-output path (both through the go-sdk client)", fmt.Sprintf("%s vs %s ms (%.2f×)", ms(oursSDK), ms(peer), ratio(peer, oursSDK)), oursSDK < peer)
		case g.peerErr != nil:
			p.printf("| %s %s | peer | failed: %v | | | |\n", h, g.label, g.peerErr)
		}
		if g.escapeFactor == 1 {
			b.addGoal("peak RSS, "+name+" captured, raw stdio", fmt.Sprintf("≤ 2 × cap + 32 MiB = %s", kib(limitKiB(0))), kib(hwm), hwm <= limitKiB(0))
			b.addGoal(name+" vs the physical limit", "ours (raw stdio) ≤ 2 × the limit", fmt.Sprintf("%s vs %s ms (%.2f×)", ms(ours), ms(limit), ratio(ours, limit)), ours <= 2*limit)
			continue
		}
		// 3 s for 64 MiB (the target), in proportion for other sizes.
		budget := time.Duration(float64(3*time.Second) * float64(n) / float64(64<<20))
		b.addGoal(name, "ours (raw stdio) ≤ "+ms(budget)+" ms", fmt.Sprintf("%s ms (physical limit %s ms; through the go-sdk client %s ms)", ms(ours), ms(limit), ms(oursSDK)), ours <= budget)
		escaped := g.escapeFactor * n
		b.addGoal("peak RSS, "+name+" captured", fmt.Sprintf("≤ escaped answer (%s) + 2 × cap + 32 MiB = %s", human(escaped), kib(limitKiB(escaped))), kib(hwm), hwm <= limitKiB(escaped))
	}
}
