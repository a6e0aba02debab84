package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
	"github.com/seed-b63acb1b/mcp-shell-server/plan"
	"github.com/seed-b63acb1b/mcp-shell-server/refusal"
)

// The confirm tier: the policy marks an approved call that matches
// MCP_SHELL_CONFIRM_COMMANDS or MCP_SHELL_CONFIRM_PATTERNS
// (plan.Call.Confirm); the server holds it, with a concurrency slot, and
// asks the user through the client (elicitation/create) before anything
// starts. Only an accept runs it; every other ending is a refusal or a
// cancellation, and the record says which (audit.Confirmed).

// asker is the session a call came on, as far as asking the user goes
// (*mcp.ServerSession).
type asker interface {
	InitializeParams() *mcp.InitializeParams
	Elicit(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error)
}

// askerOf is the session req came on, or nil.
func askerOf(req *mcp.CallToolRequest) asker {
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		return ss
	}
	return nil
}

// confirmSchema asks for nothing but the answer itself: elicitation's
// accept, decline and cancel are the question's three outcomes (MCP
// 2025-06-18 "Elicitation": requestedSchema is a flat object schema; an
// object without properties is the smallest one clients validate).
var confirmSchema = map[string]any{"type": "object", "properties": map[string]any{}}

// errConfirmTimeout is the cause of a question that went unanswered.
var errConfirmTimeout = errors.New("no answer within the confirmation timeout")

// held reports a call the confirm tier holds.
func held(o outcome) bool { return o.plan != nil && len(o.plan.Confirm) > 0 }

// confirm asks the user about a held call (the caller holds its slot);
// ok is false when it must not run, o then saying why. A call the tier
// does not hold passes unchanged.
func (s *Server) confirm(ctx context.Context, c call, o outcome) (outcome, bool) {
	if !held(o) {
		return o, true
	}
	answer, err := s.ask(ctx, c, o.plan)
	o.confirmed = answer
	switch answer {
	case audit.ConfirmAccepted:
		return o, true
	case audit.ConfirmCancelled:
		o = o.withNotStarted("cancelled while waiting for the user's confirmation: " + err.Error())
		o.confirmed = answer
		return o, false
	}
	o.kind, o.err = refused, err
	return o, false
}

// confirmJob asks about a held background call before it becomes a job,
// holding a concurrency slot while the question is open, as a foreground
// call does (the job then runs under the job bound, not this one).
func (s *Server) confirmJob(ctx context.Context, c call, o outcome) (outcome, bool) {
	if !held(o) {
		return o, true
	}
	if s.gate.closing() {
		return o.withNotStarted("the server is shutting down"), false
	}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	defer context.AfterFunc(s.base, func() { stop(errShutdown) })()
	select {
	case s.sem <- struct{}{}:
		defer func() { <-s.sem }()
	case <-ctx.Done():
		return o.withNotStarted("cancelled while waiting for a free slot: " + cancelReason(ctx)), false
	}
	return s.confirm(ctx, c, o)
}

// ask puts the question and reads the answer. The error is the refusal
// (declined, unavailable, timeout) or, for a cancelled wait, why.
func (s *Server) ask(ctx context.Context, c call, pl *plan.Call) (audit.Confirmed, error) {
	rules := confirmRules(pl)
	if why, fix := unaskable(c); why != "" {
		return audit.ConfirmUnavailable, refusal.New(CodeConfirmUnavailable, -1, "",
			"This command needs the user's confirmation (%s), but %s, so nothing was run; %s, or ask the operator to take it out of %s", rules, why, fix, confirmVariables(pl))
	}
	wait, stop := context.WithTimeoutCause(ctx, s.opts.ConfirmTimeout, errConfirmTimeout)
	defer stop()
	res, err := c.asker.Elicit(wait, &mcp.ElicitParams{Mode: "form", Message: question(c, pl), RequestedSchema: confirmSchema})
	switch {
	case err == nil && res.Action == "accept":
		return audit.ConfirmAccepted, nil
	case err == nil && res.Action == "decline":
		return audit.ConfirmDeclined, refusal.New(CodeConfirmDeclined, -1, "", "The user declined to run this command (it needs confirmation: %s); nothing was run. Ask the user what to do instead rather than sending it again", rules)
	case err == nil:
		return audit.ConfirmDeclined, refusal.New(CodeConfirmDeclined, -1, "", "The user dismissed the confirmation of this command (%s) without accepting it; nothing was run", rules)
	case ctx.Err() != nil:
		return audit.ConfirmCancelled, errors.New(cancelReason(ctx))
	case errors.Is(err, mcp.ErrConnectionClosed):
		return audit.ConfirmCancelled, errors.New("the connection closed")
	case errors.Is(context.Cause(wait), errConfirmTimeout):
		return audit.ConfirmTimeout, refusal.New(CodeConfirmTimeout, -1, "", "The user did not answer whether to run this command (%s) within %s (MCP_SHELL_CONFIRM_TIMEOUT_SECONDS); nothing was run. Send it again when the user can answer", rules, seconds(s.opts.ConfirmTimeout))
	}
	return audit.ConfirmUnavailable, refusal.New(CodeConfirmUnavailable, -1, "", "This command needs the user's confirmation (%s), but the client failed the question (%v), so nothing was run; fix the client's elicitation support, or ask the operator to take it out of %s", rules, err, confirmVariables(pl))
}

// seconds is d as the setting spells it ("120 s"), or as Go does when it
// is no whole number of seconds (tests).
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return d.String()
}

// unaskable says why the call's client cannot be asked, and how to make
// it askable; "" when it can be.
func unaskable(c call) (why, fix string) {
	if c.protocol >= statelessFrom {
		// go-sdk v1.8.0 refuses the request itself at these revisions
		// (ServerSession.assertServerInitiatedRequestAllowed): the
		// question would have to travel in the result (SEP-2322 input
		// requests), which this server does not send.
		return fmt.Sprintf("this request speaks protocol %s (over HTTP, stateless), under which a server may not send the client a request", c.protocol),
			"connect with protocol 2025-11-25 or earlier (over HTTP, a session with an Mcp-Session-Id), whose sessions the server can ask through"
	}
	var ip *mcp.InitializeParams
	if c.asker != nil {
		ip = c.asker.InitializeParams()
	}
	const elicit = "use a client that supports MCP elicitation (it declares the elicitation capability at initialize)"
	switch {
	case ip == nil || ip.Capabilities == nil || ip.Capabilities.Elicitation == nil:
		return "the client did not declare the elicitation capability, so the server cannot ask the user", elicit
	case ip.Capabilities.Elicitation.Form == nil && ip.Capabilities.Elicitation.URL != nil:
		return "the client declared only URL-mode elicitation, and this question is a form (accept or decline)", elicit
	}
	return "", ""
}

// confirmRules names the rules that hold pl, with their stages.
func confirmRules(pl *plan.Call) string {
	var parts []string
	for _, cf := range pl.Confirm {
		part := cf.Rule
		if len(pl.Stages) > 1 {
			part = fmt.Sprintf("stage %d: %s", cf.Stage+1, cf.Rule)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// confirmVariables names the settings that hold pl.
func confirmVariables(pl *plan.Call) string {
	var vars []string
	for _, cf := range pl.Confirm {
		v := "MCP_SHELL_CONFIRM_PATTERNS"
		if strings.HasPrefix(cf.Rule, "confirm.command:") {
			v = "MCP_SHELL_CONFIRM_COMMANDS"
		}
		if !slices.Contains(vars, v) {
			vars = append(vars, v)
		}
	}
	return strings.Join(vars, " and ")
}

// question is what the user is shown: the exact argv of every stage (as
// JSON strings, so no character hides), the directory, the
// redirections, the call's own input and variables, and what the sandbox
// lets each stage write, execute and reach.
func question(c call, pl *plan.Call) string {
	var b strings.Builder
	how := ""
	if c.job.Background || c.job.Detached {
		how = ", as a background job"
	}
	fmt.Fprintf(&b, "Run this command? It needs your confirmation (%s).\n", confirmRules(pl))
	fmt.Fprintf(&b, "Tool: %s%s\nDirectory: %s\n", c.tool, how, pl.Dir.Real())
	for i, st := range pl.Stages {
		argv, _ := json.Marshal(st.Argv)
		fmt.Fprintf(&b, "Stage %d: %s\n", i+1, argv)
		if st.Program.Found != "" {
			fmt.Fprintf(&b, "  program: %s\n", st.Program.Real)
		}
		fmt.Fprintf(&b, "  sandbox: %s\n", confinement(st.Confinement))
	}
	if pl.StdinFile != "" {
		fmt.Fprintf(&b, "Stdin from the file %q\n", pl.StdinFile)
	}
	switch {
	case pl.StdoutFile != "" && pl.StdoutAppend:
		fmt.Fprintf(&b, "Stdout appended to the file %q\n", pl.StdoutFile)
	case pl.StdoutFile != "":
		fmt.Fprintf(&b, "Stdout replaces the file %q\n", pl.StdoutFile)
	}
	switch {
	case c.stdin != nil:
		fmt.Fprintf(&b, "Stdin: %d bytes sent with the call\n", len(*c.stdin))
	case c.job.StdinOutputID != nil:
		fmt.Fprintf(&b, "Stdin: the stdout of output %s\n", *c.job.StdinOutputID)
	case c.job.StdinOpen:
		b.WriteString("Stdin: kept open for job_stdin\n")
	}
	if len(c.envs) > 0 {
		fmt.Fprintf(&b, "Variables set by the call: %s\n", strings.Join(slices.Sorted(maps.Keys(c.envs)), ", "))
	}
	b.WriteString("Accept to run it; decline to refuse it.")
	return b.String()
}

// confinement says what a stage may write, execute and reach.
func confinement(cf plan.Confinement) string {
	switch cf.Mode {
	case "landlock":
	case "limits":
		return "resource limits only: it may write, execute and reach whatever the server's user may"
	default:
		return "off: it may write, execute and reach whatever the server's user may"
	}
	write := "nothing"
	if len(cf.Write) > 0 {
		write = strings.Join(cf.Write, ", ")
	}
	exec := strings.Join(cf.Exec, ", ")
	if cf.RunAny {
		exec += ", and any program beneath what it may read or write"
	}
	network := "no"
	if cf.Network {
		network = "yes"
		if cf.NetworkReason != "" {
			network += " (" + cf.NetworkReason + ")"
		}
	}
	out := fmt.Sprintf("landlock; may write: %s; may execute: %s; network: %s", write, exec, network)
	if len(cf.Sockets) > 0 {
		out += "; agent sockets: " + strings.Join(cf.Sockets, ", ")
	}
	return out
}
