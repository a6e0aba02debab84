package server

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/runner"
)

// progressInterval bounds the rate of progress notifications per call.
const progressInterval = 500 * time.Millisecond

// reporter sends progress notifications for one call whose request carried
// a progress token: elapsed seconds as progress, the timeout in seconds as
// total, and the bytes each stream carried so far as the message.
type reporter struct {
	session *mcp.ServerSession
	token   any
}

// newReporter returns nil when the client asked for no progress.
func newReporter(req *mcp.CallToolRequest) *reporter {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return nil
	}
	return &reporter{session: req.Session, token: tok}
}

// start reports on live until the returned stop is called; stop returns
// after the last notification was sent, so none follows the result.
func (r *reporter) start(ctx context.Context, live *runner.Progress, timeout time.Duration) (stop func()) {
	if r == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	begin := time.Now()
	go func() {
		defer close(finished)
		tick := time.NewTicker(progressInterval)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-tick.C:
				out, errb := live.Bytes()
				elapsed := now.Sub(begin).Seconds()
				r.session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: r.token,
					Progress:      elapsed,
					Total:         timeout.Seconds(),
					Message:       fmt.Sprintf("running for %.1fs; stdout %d bytes, stderr %d bytes", elapsed, out, errb),
				})
			}
		}
	}()
	return func() { close(done); <-finished }
}
