package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errCall marks a tool call whose answer was not the one expected: a tool
// error, a missing field, another call's output. The benchmark exits
// non-zero on it (something broke), unlike on a missed goal.
var errCall = errors.New("unexpected tool result")

// serverSpec says how to start one MCP server over stdio.
type serverSpec struct {
	name string   // "ours" or "peer", for messages
	argv []string // program and arguments
	env  []string // complete environment
	dir  string   // working directory of the server process
}

// server is one running MCP server process with a connected go-sdk client
// session.
type server struct {
	spec    serverSpec
	cmd     *exec.Cmd
	session *mcp.ClientSession
	stderr  *tailBuffer
	// startup is the time from just before the process was started to the
	// first tools/list answer.
	startup time.Duration
}

// maxFrame is the largest JSON-RPC line the benchmark's client accepts.
// The go-sdk default (mcp.DefaultMaxLineLength, 16 MiB) is too small for
// an answer carrying 64 MiB of captured output, and CommandTransport has no
// setting for it, so launch drives the process itself over IOTransport.
const maxFrame = 1 << 30

// launch starts spec's process, connects a go-sdk client over its stdio and
// waits for the first tools/list answer (which is what start-up measures).
func launch(ctx context.Context, spec serverSpec) (*server, error) {
	cmd := exec.Command(spec.argv[0], spec.argv[1:]...)
	cmd.Env = spec.env
	cmd.Dir = spec.dir
	stderr := &tailBuffer{max: 16 << 10}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "mcp-shell-server-bench", Version: "1"}, nil)
	cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: start: %w", spec.name, err)
	}
	s := &server{spec: spec, cmd: cmd, stderr: stderr}
	// Closing the session closes stdin only (stdout stays open so that the
	// server can finish writing); close then waits for the process.
	s.session, err = client.Connect(cctx, &mcp.IOTransport{Reader: io.NopCloser(stdout), Writer: stdin, MaxLineLength: maxFrame}, nil)
	if err != nil {
		s.kill()
		return nil, fmt.Errorf("%s: connect: %w (stderr: %s)", spec.name, err, stderr.String())
	}
	if _, err := s.session.ListTools(cctx, nil); err != nil {
		s.close()
		return nil, fmt.Errorf("%s: tools/list: %w (stderr: %s)", spec.name, err, stderr.String())
	}
	s.startup = time.Since(start)
	return s, nil
}

// pid is the server process's id.
func (s *server) pid() int { return s.cmd.Process.Pid }

// close ends the session (closing the server's stdin, the stdio way to ask
// an MCP server to stop) and waits up to 5 s for the process to exit, then
// kills it. The error is the session's or the kill's, not the exit status
// (a Node server may exit non-zero on EOF).
func (s *server) close() error {
	err := s.session.Close()
	done := make(chan struct{})
	go func() {
		s.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
		return err
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
		return errors.Join(err, fmt.Errorf("%s did not exit within 5 s of stdin closing; killed", s.spec.name))
	}
}

// kill ends a process whose session never came up.
func (s *server) kill() {
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// call runs one tool call with a 10-minute bound and returns its result; a
// protocol error or a tool error (IsError) is an error wrapping errCall.
func (s *server) call(ctx context.Context, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	res, err := s.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w (stderr: %s)", s.spec.name, tool, err, s.stderr.String())
	}
	if res.IsError {
		return res, fmt.Errorf("%s %s %v: %w: %s", s.spec.name, tool, args, errCall, firstText(res))
	}
	return res, nil
}

// firstText is the text of the result's first text content, truncated for
// messages.
func firstText(r *mcp.CallToolResult) string {
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			if len(t.Text) > 300 {
				return t.Text[:300] + "..."
			}
			return t.Text
		}
	}
	return ""
}

// contentText is c's text, or "" for non-text content.
func contentText(c mcp.Content) string {
	if t, ok := c.(*mcp.TextContent); ok {
		return t.Text
	}
	return ""
}

// structured is the result's structuredContent, which the go-sdk client
// decodes from JSON into a generic map.
func structured(r *mcp.CallToolResult) (map[string]any, error) {
	m, ok := r.StructuredContent.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: structuredContent is %T, want a JSON object", errCall, r.StructuredContent)
	}
	return m, nil
}

// timedCall is call timed on its own, and the answer's structuredContent;
// callers check it after the clock stopped.
func (s *server) timedCall(ctx context.Context, tool string, args map[string]any) (time.Duration, map[string]any, error) {
	start := time.Now()
	res, err := s.call(ctx, tool, args)
	d := time.Since(start)
	if err != nil {
		return d, nil, err
	}
	m, err := structured(res)
	return d, m, err
}

// tailBuffer keeps the last max bytes written to it (a server's stderr),
// for error messages; safe for concurrent use.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b.Write(p)
	if over := t.b.Len() - t.max; over > 0 {
		t.b.Next(over)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.b.String()
}

// baseEnv is the minimal environment every server and floor command starts
// with: PATH and HOME (set to a scratch directory so that no server writes
// into the developer's home).
func baseEnv(home string) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	return []string{"PATH=" + path, "HOME=" + home, "LANG=C.UTF-8"}
}
