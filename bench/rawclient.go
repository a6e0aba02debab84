package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// rawOnce runs one execute_command `head -c n file` on a fresh server
// through its stdio as raw JSON-RPC lines, reading the answer without
// decoding it: the time from writing the request to the answer's last
// byte, the server's VmHWM and CPU, and the answer's length. It is the
// server's side of a large answer, comparable with physicalLimit (which
// does not decode either); the go-sdk client's decoding, which the other
// rows include, grows with the answer's escapes rather than the server's
// work.
func (b *bench) rawOnce(ctx context.Context, env []string, n int64, file string) (drainRun, int64, error) {
	return b.rawCall(ctx, env, n, file, false)
}

// rawCall is rawOnce through execute_command or, with shell, through
// shell_execute (whose text carries the output too when
// MCP_SHELL_TEXT_LIMIT_BYTES is 0).
func (b *bench) rawCall(ctx context.Context, env []string, n int64, file string, shell bool) (drainRun, int64, error) {
	var r drainRun
	spec := b.oursSpec(env...)
	cmd := exec.CommandContext(ctx, spec.argv[0], spec.argv[1:]...)
	cmd.Env, cmd.Dir = spec.env, spec.dir
	stderr := &tailBuffer{max: 4 << 10}
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return r, 0, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return r, 0, err
	}
	if err := cmd.Start(); err != nil {
		return r, 0, err
	}
	defer func() { in.Close(); cmd.Wait() }()
	br := bufio.NewReaderSize(out, 1<<20)
	send := func(msg any) error {
		line, err := json.Marshal(msg)
		if err == nil {
			_, err = in.Write(append(line, '\n'))
		}
		return err
	}
	type req struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int    `json:"id,omitempty"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}
	if err := send(req{"2.0", 1, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench-raw", "version": "0"}}}); err != nil {
		return r, 0, err
	}
	if _, _, err := skimLine(br); err != nil {
		return r, 0, fmt.Errorf("raw client: initialize: %w (stderr: %s)", err, stderr)
	}
	if err := send(req{JSONRPC: "2.0", Method: "notifications/initialized"}); err != nil {
		return r, 0, err
	}
	before, err := readProc(cmd.Process.Pid)
	if err != nil {
		return r, 0, err
	}
	r.baseKiB = before.HWMKiB
	cpu0 := cpuTime(cmd.Process.Pid)
	start := time.Now()
	call := map[string]any{"name": "execute_command", "arguments": map[string]any{"program": "head", "args": []string{"-c", itoa(n), file}, "timeout_ms": 600000}}
	if shell {
		call = map[string]any{"name": "shell_execute", "arguments": map[string]any{"command": []string{"head", "-c", itoa(n), file}, "timeout": 600}}
	}
	if err := send(req{"2.0", 2, "tools/call", call}); err != nil {
		return r, 0, err
	}
	size, tail, err := skimLine(br)
	r.wall = time.Since(start)
	r.cpu = cpuTime(cmd.Process.Pid) - cpu0
	if err != nil {
		return r, 0, fmt.Errorf("raw client: tools/call: %w (stderr: %s)", err, stderr)
	}
	after, err := readProc(cmd.Process.Pid)
	if err != nil {
		return r, 0, err
	}
	r.hwmKiB = after.HWMKiB
	if size < n || bytes.Contains(tail, []byte(`"isError":true`)) || !bytes.Contains(tail, []byte(`"stdout_truncated":false`)) {
		return r, size, fmt.Errorf("%w: raw answer of %d bytes for %d of output ends %q", errCall, size, n, tail)
	}
	return r, size, nil
}

// skimLine reads one line without keeping it: its length and its last
// 512 bytes.
func skimLine(br *bufio.Reader) (int64, []byte, error) {
	var size int64
	var tail []byte
	for {
		chunk, err := br.ReadSlice('\n')
		size += int64(len(chunk))
		tail = append(tail, chunk...)
		if len(tail) > 512 {
			tail = append(tail[:0], tail[len(tail)-512:]...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && size > 0:
			return size, tail, io.ErrUnexpectedEOF
		case err != nil:
			return size, tail, err
		}
		return size, tail, nil
	}
}
