package framing

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// pipe is a Transport wired to pipes the test drives: in feeds its input,
// out yields what it wrote, line by line.
type pipe struct {
	t       *testing.T
	tr      *Transport
	in      *io.PipeWriter
	out     *bufio.Scanner
	refused chan Refusal
}

func newPipe(t *testing.T, o Options) *pipe {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &pipe{t: t, in: inW, refused: make(chan Refusal, 100)}
	o.OnRefused = func(r Refusal) { p.refused <- r }
	p.tr = New(inR, outW, o)
	p.out = bufio.NewScanner(outR)
	p.out.Buffer(nil, 1<<20)
	if _, err := p.tr.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.tr.Close(); inW.Close(); outR.Close() })
	return p
}

func (p *pipe) send(line string) {
	p.t.Helper()
	go p.in.Write([]byte(line + "\n")) // the reader takes it when it is ready
}

// reply reads the next line the transport wrote.
func (p *pipe) reply() string {
	p.t.Helper()
	if !p.out.Scan() {
		p.t.Fatalf("no reply: %v", p.out.Err())
	}
	return p.out.Text()
}

// next is the next message passed on to the SDK.
func (p *pipe) next() jsonrpc.Message {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg, err := p.tr.Read(ctx)
	if err != nil {
		p.t.Fatalf("Read: %v", err)
	}
	return msg
}

type wireReply struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// TestUnusualMessagesAreAnsweredAndTheSessionGoesOn: every row gets a
// JSON-RPC error with the id that could be read, and the next message
// still reaches the SDK.
func TestUnusualMessagesAreAnsweredAndTheSessionGoesOn(t *testing.T) {
	deep := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"a":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}}`
	tooDeepToParse := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	for _, tt := range []struct {
		name, line string
		code       int64
		id         string // the reply's id, as JSON
	}{
		{"not JSON", `{"jsonrpc":"2.0",`, jsonrpc.CodeParseError, "null"},
		{"nested 1000 deep", deep, jsonrpc.CodeInvalidRequest, "7"},
		{"nested 20000 deep", tooDeepToParse, jsonrpc.CodeParseError, "null"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"huge id", `{"jsonrpc":"2.0","id":123456789012345678901,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"id 2^53+1, which a double rounds to 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"id -2^53-1", `{"jsonrpc":"2.0","id":-9007199254740993,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"exponent id", `{"jsonrpc":"2.0","id":1e2,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"id without method, result or error", `{"jsonrpc":"2.0","id":1}`, jsonrpc.CodeInvalidRequest, "1"},
		{"string id without method", `{"jsonrpc":"2.0","id":"x","params":{}}`, jsonrpc.CodeInvalidRequest, `"x"`},
		{"no id, no method", `{"jsonrpc":"2.0"}`, jsonrpc.CodeInvalidRequest, "null"},
		{"a number", `42`, jsonrpc.CodeInvalidRequest, "null"},
		{"no version", `{"id":3,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest, "3"},
		{"method not a string", `{"jsonrpc":"2.0","id":4,"method":5}`, jsonrpc.CodeInvalidRequest, "4"},
		{"tools/call without params", `{"jsonrpc":"2.0","id":5,"method":"tools/call"}`, jsonrpc.CodeInvalidParams, "5"},
		{"tools/call with array params", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":[1]}`, jsonrpc.CodeInvalidParams, "6"},
		{"params a string", `{"jsonrpc":"2.0","id":"s","method":"tools/list","params":"x"}`, jsonrpc.CodeInvalidRequest, `"s"`},
		{"empty batch", `[]`, jsonrpc.CodeInvalidRequest, "null"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := newPipe(t, Options{})
			p.send(tt.line)
			var r wireReply
			if err := json.Unmarshal([]byte(p.reply()), &r); err != nil || r.Error == nil {
				t.Fatalf("reply %+v: %v", r, err)
			}
			if r.Error.Code != tt.code || string(r.ID) != tt.id {
				t.Errorf("reply code %d id %s (%s), want %d id %s", r.Error.Code, r.ID, r.Error.Message, tt.code, tt.id)
			}
			if got := <-p.refused; got.Code != tt.code {
				t.Errorf("OnRefused got %+v", got)
			}
			p.send(`{"jsonrpc":"2.0","id":99,"method":"tools/list"}`)
			if req, ok := p.next().(*jsonrpc.Request); !ok || req.Method != "tools/list" {
				t.Fatalf("the session did not go on: %+v", req)
			}
		})
	}
}

func TestBatchGetsOneErrorPerRequest(t *testing.T) {
	p := newPipe(t, Options{})
	p.send(`[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"shell_execute"}}]`)
	var replies []wireReply
	if err := json.Unmarshal([]byte(p.reply()), &replies); err != nil {
		t.Fatal(err)
	}
	if len(replies) != 2 || string(replies[0].ID) != "1" || string(replies[1].ID) != `"b"` || replies[1].Error.Code != jsonrpc.CodeInvalidRequest {
		t.Fatalf("replies %+v", replies)
	}
	tools := 0
	for range 3 {
		if r := <-p.refused; r.Tool == "shell_execute" {
			tools++
		}
	}
	if tools != 1 {
		t.Errorf("the tools/call in the batch was not reported")
	}
}

func TestBOMAndCRLFAreAccepted(t *testing.T) {
	p := newPipe(t, Options{})
	p.send("\xef\xbb\xbf{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\r")
	if req, ok := p.next().(*jsonrpc.Request); !ok || req.Method != "tools/list" {
		t.Fatalf("got %+v", req)
	}
}

func TestLongLineIsRefusedAndSkipped(t *testing.T) {
	p := newPipe(t, Options{MaxLine: 1000})
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":"` + strings.Repeat("a", 5000) + `"}}`)
	var r wireReply
	json.Unmarshal([]byte(p.reply()), &r)
	if r.Error == nil || r.Error.Code != jsonrpc.CodeParseError {
		t.Fatalf("reply %+v", r)
	}
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if req := p.next().(*jsonrpc.Request); req.ID.Raw() != int64(2) {
		t.Fatalf("next %+v", req)
	}
}

// TestDuplicateInFlightIDIsRefused: a second request with the id of one
// still running gets an error naming the id; once the first is answered,
// the id is free again.
func TestDuplicateInFlightIDIsRefused(t *testing.T) {
	p := newPipe(t, Options{})
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}`)
	first := p.next().(*jsonrpc.Request)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"b"}}`)
	var r wireReply
	json.Unmarshal([]byte(p.reply()), &r)
	if r.Error == nil || string(r.ID) != "1" || !strings.Contains(r.Error.Message, "already in use") {
		t.Fatalf("reply %+v", r)
	}
	if got := <-p.refused; got.Tool != "b" || got.Method != "tools/call" {
		t.Errorf("refusal %+v", got)
	}
	go p.tr.Write(context.Background(), &jsonrpc.Response{ID: first.ID, Result: json.RawMessage(`{}`)})
	if line := p.reply(); !strings.Contains(line, `"result"`) {
		t.Fatalf("first response %s", line)
	}
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if req := p.next().(*jsonrpc.Request); req.Method != "tools/list" {
		t.Fatalf("reused id refused: %+v", req)
	}
}

// TestCancelledRequestGetsNoResponse: after notifications/cancelled names
// a request in flight, its response is not written; Drain still sees it
// settled.
func TestCancelledRequestGetsNoResponse(t *testing.T) {
	p := newPipe(t, Options{})
	p.send(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"a"}}`)
	req := p.next().(*jsonrpc.Request)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1","reason":"user"}}`)
	if n := p.next().(*jsonrpc.Request); n.Method != "notifications/cancelled" {
		t.Fatalf("the notification must still reach the SDK: %+v", n)
	}
	if err := p.tr.Write(context.Background(), &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := p.tr.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The next line written is the marker, not the cancelled response.
	go p.tr.Write(context.Background(), &jsonrpc.Response{ID: mustID(t, "marker"), Result: json.RawMessage(`{}`)})
	if line := p.reply(); !strings.Contains(line, "marker") {
		t.Fatalf("a cancelled request was answered: %s", line)
	}
}

func mustID(t *testing.T, v any) jsonrpc.ID {
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestInputEndIsHeldUntilReleased: at EOF, Read keeps waiting (so answers
// can still be written) until EndInput.
func TestInputEndIsHeldUntilReleased(t *testing.T) {
	p := newPipe(t, Options{})
	p.in.Close()
	<-p.tr.InputEnded()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := p.tr.Read(ctx); err != context.DeadlineExceeded {
		t.Fatalf("Read before EndInput: %v", err)
	}
	p.tr.EndInput()
	if _, err := p.tr.Read(context.Background()); err != io.EOF {
		t.Fatalf("Read after EndInput: %v", err)
	}
}

func FuzzHandleLine(f *testing.F) {
	for _, s := range []string{`{"jsonrpc":"2.0","id":1,"method":"x"}`, `[1,{}]`, `{"id":{}}`, "\xef\xbb\xbf{}", `{"jsonrpc":"2.0","id":1e400}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		tr := New(strings.NewReader(""), io.Discard, Options{})
		close(tr.closed) // messages that pass are dropped at the hand-off
		tr.handleLine([]byte(line))
	})
}

// TestRequestsPastTheInFlightBoundsAreRefused: past MaxInFlight requests,
// or MaxInFlightBytes of their lines, a request is answered busy and not
// passed on; once one is answered there is room again. A single request
// larger than MaxInFlightBytes is taken when nothing else is in flight.
func TestRequestsPastTheInFlightBoundsAreRefused(t *testing.T) {
	call := func(id int, pad int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"a","arguments":{"stdin":"%s"}}}`, id, strings.Repeat("x", pad))
	}
	cases := []struct {
		name string
		o    Options
		pads []int // the padding of requests 1..n; the last is refused
	}{
		{"count", Options{MaxInFlight: 2}, []int{0, 0, 0}},
		{"bytes", Options{MaxInFlightBytes: 1000}, []int{2000, 0}},
		{"bytes, two fit", Options{MaxInFlightBytes: 1000}, []int{300, 300, 500}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPipe(t, c.o)
			var first *jsonrpc.Request
			last := len(c.pads)
			for i, pad := range c.pads[:last-1] {
				p.send(call(i+1, pad))
				req := p.next().(*jsonrpc.Request)
				if first == nil {
					first = req
				}
			}
			p.send(call(last, c.pads[last-1]))
			var r wireReply
			json.Unmarshal([]byte(p.reply()), &r)
			if r.Error == nil || r.Error.Code != CodeBusy || string(r.ID) != fmt.Sprint(last) {
				t.Fatalf("reply %+v", r)
			}
			if got := <-p.refused; got.Code != CodeBusy || got.Tool != "a" {
				t.Errorf("refusal %+v", got)
			}
			go p.tr.Write(context.Background(), &jsonrpc.Response{ID: first.ID, Result: json.RawMessage(`{}`)})
			p.reply()
			p.send(call(last+1, 0))
			if req := p.next().(*jsonrpc.Request); req.ID != id(t, float64(last+1)) {
				t.Fatalf("after an answer: %+v", req)
			}
		})
	}
}

// TestExactIDsAreServed: integer ids up to 2^53 in magnitude reach the SDK
// as the integers they spell, each distinct from its neighbour.
func TestExactIDsAreServed(t *testing.T) {
	for _, tt := range []struct {
		raw  string
		want int64
	}{{"9007199254740992", 1 << 53}, {"9007199254740991", 1<<53 - 1}, {"-9007199254740992", -(1 << 53)}, {"7.0", 7}, {"0", 0}} {
		p := newPipe(t, Options{})
		p.send(`{"jsonrpc":"2.0","id":` + tt.raw + `,"method":"tools/list"}`)
		req, ok := p.next().(*jsonrpc.Request)
		if !ok || req.ID.Raw() != tt.want {
			t.Errorf("id %s reached the SDK as %+v, want %d", tt.raw, req, tt.want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		msg  string
		code int64
	}{
		{`{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/list"}`, jsonrpc.CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":1}`, jsonrpc.CodeInvalidRequest},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, 0},
		{`{"jsonrpc":"2.0","id":9007199254740992,"method":"tools/list"}`, 0},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, 0},
		{`{"jsonrpc":"2.0","id":true,"method":"x"}`, 0}, // the SDK refuses it itself
	} {
		r := Check([]byte(tt.msg))
		switch {
		case tt.code == 0 && r != nil:
			t.Errorf("Check(%s) = %+v, want nil", tt.msg, r)
		case tt.code != 0 && (r == nil || r.Code != tt.code):
			t.Errorf("Check(%s) = %+v, want code %d", tt.msg, r, tt.code)
		}
	}
}
