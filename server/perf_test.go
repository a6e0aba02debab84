package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/runner"
	"github.com/seed-b63acb1b/mcp-shell-server/server/framing"
)

// BenchmarkCat1MiB is a round trip of shell_execute printing 1 MiB of text
// over an in-memory MCP session: the cost of carrying large output.
func BenchmarkCat1MiB(b *testing.B) {
	s, _ := newTestServer(b, "cat")
	dir := s.opts.Policy.AllowedDirs()[0]
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("0123456789abcde\n", 1<<16)), 0o644); err != nil {
		b.Fatal(err)
	}
	cs := connect(b, s)
	params := &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"cat", "big.txt"}}}
	b.ReportAllocs()
	for b.Loop() {
		r, err := cs.CallTool(context.Background(), params)
		if err != nil || r.IsError {
			b.Fatal(err, r)
		}
	}
}

// BenchmarkStdioCat1MiB is BenchmarkCat1MiB through ServeStdio and the
// framing layer over pipes, the path a stdio client takes: the answer is
// encoded and written by the transport rather than handed over in memory.
// The text limit is the default (16 KiB per stream), as a server runs.
func BenchmarkStdioCat1MiB(b *testing.B) {
	s, _ := newTestServer(b, "cat")
	s.opts.Limits.TextLimit = 16 << 10
	dir := s.opts.Policy.AllowedDirs()[0]
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("0123456789abcde\n", 1<<16)), 0o644); err != nil {
		b.Fatal(err)
	}
	p := serveStdioPipes(b, s)
	tr := &mcp.IOTransport{Reader: p.out, Writer: p.in}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "0"}, nil).Connect(context.Background(), tr, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	params := &mcp.CallToolParams{Name: "shell_execute", Arguments: map[string]any{"command": []string{"cat", "big.txt"}}}
	b.ReportAllocs()
	for b.Loop() {
		r, err := cs.CallTool(context.Background(), params)
		if err != nil || r.IsError {
			b.Fatal(err, r)
		}
	}
}

// answerInputs are the outputs the answer benchmarks shape and encode:
// text (a line of 16 bytes repeated) and NUL bytes, which JSON escapes
// six-fold.
var answerInputs = []struct {
	name string
	out  []byte
}{
	{"text-1MiB", []byte(strings.Repeat("0123456789abcde\n", 1<<16))},
	{"text-16MiB", []byte(strings.Repeat("0123456789abcde\n", 1<<20))},
	{"nul-1MiB", make([]byte, 1<<20)},
}

func shapedRun(out []byte) (runner.Result, *runner.Spec) {
	res := runner.Result{Outcome: runner.Success, Stdout: out, StdoutBytes: int64(len(out)), ExitCode: ptr(0),
		Stages: []runner.StageStatus{{Argv0: "cat", ExitCode: ptr(0)}}, Duration: time.Millisecond}
	return res, &runner.Spec{Timeout: time.Minute, OutputLimit: 64 << 20}
}

// BenchmarkShape is result shaping alone: a run's captured bytes to the
// client's text (the default 16 KiB text limit) and structured output.
func BenchmarkShape(b *testing.B) {
	for _, in := range answerInputs {
		b.Run(in.name, func(b *testing.B) {
			res, spec := shapedRun(in.out)
			b.SetBytes(int64(len(in.out)))
			b.ReportAllocs()
			for b.Loop() {
				shape(res, spec, textView{limit: 16 << 10})
			}
		})
	}
}

// BenchmarkAnswer is a shaped result to the bytes a client reads, the way
// each transport encodes it: "stdio" through the framing layer (the
// structured streams deferred and escaped into its write buffer), "http"
// as the streamable transport does (the SDK's encoding of placeholders,
// spliced by the POST's writer), "sdk" as an in-memory session does (the SDK's json.Encoder, its
// json.Marshaler compaction and EncodeMessage), and "sdk-raw" as the
// server once did (a json.RawMessage marshalled here first).
func BenchmarkAnswer(b *testing.B) {
	id, err := jsonrpc.MakeID(float64(1))
	if err != nil {
		b.Fatal(err)
	}
	sdkEncode := func(res *mcp.CallToolResult) error {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(res); err != nil {
			return err
		}
		_, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Result: bytes.TrimSuffix(buf.Bytes(), []byte("\n"))})
		return err
	}
	paths := []struct {
		name string
		do   func(ctx context.Context, res *mcp.CallToolResult, out *ShellOutput) error
	}{
		{"stdio", func(ctx context.Context, res *mcp.CallToolResult, out *ShellOutput) error {
			t := framing.FromContext(ctx)
			if err := setStructured(ctx, res, out); err != nil {
				return err
			}
			raw, err := json.Marshal(res) // the SDK's pass: text and placeholder
			if err != nil {
				return err
			}
			return t.Write(ctx, &jsonrpc.Response{ID: id, Result: raw})
		}},
		{"http", func(ctx context.Context, res *mcp.CallToolResult, out *ShellOutput) error {
			// The streamable transport's path: the SDK encodes the
			// result and the message, the POST's writer splices.
			d := framing.NewDeferrals()
			if err := setStructured(framing.WithDeferrals(ctx, d), res, out); err != nil {
				return err
			}
			raw, err := json.Marshal(res)
			if err != nil {
				return err
			}
			msg, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Result: raw})
			if err != nil {
				return err
			}
			return d.Splice(io.Discard, append(append([]byte("event: message\ndata: "), msg...), "\n\n"...))
		}},
		{"sdk", func(ctx context.Context, res *mcp.CallToolResult, out *ShellOutput) error {
			if err := setStructured(context.Background(), res, out); err != nil {
				return err
			}
			return sdkEncode(res)
		}},
		{"sdk-raw", func(ctx context.Context, res *mcp.CallToolResult, out *ShellOutput) error {
			raw, err := json.Marshal(out)
			if err != nil {
				return err
			}
			res.StructuredContent = json.RawMessage(raw)
			return sdkEncode(res)
		}},
	}
	// "limit-16KiB" is the default text view; "full" is
	// MCP_SHELL_TEXT_LIMIT_BYTES=0, the whole output as text too.
	for _, limit := range []struct {
		name string
		n    int64
	}{{"limit-16KiB", 16 << 10}, {"full", 0}} {
		for _, in := range answerInputs {
			for _, p := range paths {
				b.Run(limit.name+"/"+in.name+"/"+p.name, func(b *testing.B) {
					ctx := framing.NewContext(context.Background(), framing.New(strings.NewReader(""), io.Discard, framing.Options{}))
					run, spec := shapedRun(in.out)
					b.SetBytes(int64(len(in.out)))
					b.ReportAllocs()
					for b.Loop() {
						res, out := shape(run, spec, textView{limit: limit.n})
						if err := p.do(ctx, res, out); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkClientDecode is what a go-sdk client spends on one answer
// line, for comparison with the server's share (BenchmarkAnswer): the
// JSON-RPC message decoded, then the CallToolResult with its structured
// content (as the client's CallTool does).
func BenchmarkClientDecode(b *testing.B) {
	for _, in := range answerInputs {
		b.Run(in.name, func(b *testing.B) {
			var line bytes.Buffer
			t := framing.New(strings.NewReader(""), &line, framing.Options{})
			ctx := framing.NewContext(context.Background(), t)
			run, spec := shapedRun(in.out)
			res, out := shape(run, spec, textView{limit: 16 << 10})
			if err := setStructured(ctx, res, out); err != nil {
				b.Fatal(err)
			}
			raw, err := json.Marshal(res)
			if err != nil {
				b.Fatal(err)
			}
			id, _ := jsonrpc.MakeID(float64(1))
			if err := t.Write(ctx, &jsonrpc.Response{ID: id, Result: raw}); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(in.out)))
			b.ReportMetric(float64(line.Len()), "answer-bytes")
			for b.Loop() {
				msg, err := jsonrpc.DecodeMessage(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
				if err != nil {
					b.Fatal(err)
				}
				var r mcp.CallToolResult
				if err := json.Unmarshal(msg.(*jsonrpc.Response).Result, &r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
