// Package framing is the JSON-RPC layer between the server's stdin/stdout
// and the go-sdk: an mcp.Transport for newline-delimited JSON that the SDK
// reads validated messages from and writes its messages through.
//
// It exists because the SDK's own stdio transport ends the session on the
// first message it cannot decode (go-sdk v1.8.0, mcp.ioConn: every decode
// error is a read error), drops a request whose id is already in flight
// without an answer (jsonrpc2 acceptRequest), answers every cancelled
// request, and ends the session at stdin's EOF before in-flight calls can
// be answered.
//
// # Contract
//
// Reading (one goroutine, one line at a time):
//
//   - A line is one message; "\r\n" endings and a leading UTF-8 byte order
//     mark are accepted, blank lines skipped.
//   - A line that is longer than Options.MaxLine, is not JSON, nests
//     deeper than Options.MaxDepth, is a batch (an array), is not an
//     object, lacks "jsonrpc": "2.0", has an id that is not a string or an
//     integer of at most 2^53 in magnitude (objects, booleans, null,
//     fractions, exponents, and 2^53+1 and beyond, which a double would
//     round onto another id), has a method that is not a string, has
//     neither a method nor a result or error, is a tools/call whose params are not an
//     object, or reuses the id of a request still in flight is answered
//     with a JSON-RPC error (-32700 parse error, -32600 invalid request,
//     -32602 invalid params) carrying its id when one could be read, and
//     Options.OnRefused learns of it; the session goes on. A batch gets an
//     array of errors, one per element that has an id.
//   - A request past Options.MaxInFlight requests awaiting their response,
//     or past Options.MaxInFlightBytes of their lines (a single request is
//     always taken when none is in flight), is answered with CodeBusy and
//     Options.OnRefused learns of it: a client cannot make the server hold
//     an unbounded number of requests (SECURITY.md, "Memory bound").
//   - A response (no method, a result or an error) without an id, or
//     that does not decode, cannot be answered; it is logged and dropped.
//   - Check is the part of these rules the SDK's own decoding lacks on any
//     transport (exact integer ids, a message with neither a method nor a
//     result or error), for the HTTP front.
//   - Every other message is passed to the SDK as read. Requests with an
//     id are tracked in flight until their response is written.
//   - At the end of the input (EOF or a read error) InputEnded is closed,
//     but Read reports io.EOF only after EndInput or Close: the caller
//     decides when the SDK learns of it, so in-flight calls can still be
//     answered.
//
// Writing:
//
//   - Each message is written under one lock, writeMu, so messages never
//     interleave; error replies from the reader take the same lock. A
//     successful response is written around its result as the SDK encoded
//     it (the envelope, the result, "}\n") in one Write, without
//     jsonrpc.EncodeMessage validating and compacting the result again;
//     other messages (requests, notifications, error responses) go
//     through EncodeMessage.
//   - A value a handler deferred (Defer, with the Transport found through
//     FromContext in a handler's context) is written in place of its
//     placeholder, straight from the handler's data through a 64 KiB
//     buffer, as several writes under writeMu: the one copy of a large
//     answer that ever exists is the output buffer's. The placeholder is a
//     string token with a per-transport random part; only a token
//     registered (by the SDK marshalling the placeholder) and not yet
//     written is replaced, so output that prints a token stays text.
//   - A response to a request the client cancelled (notifications/cancelled
//     naming an id in flight) is not written: MCP says the receiver should
//     not answer a cancelled request. The SDK still cancels the handler.
//     Its deferred value is forgotten.
//   - Drain waits until every tracked request has had its response
//     written or dropped.
//
// Write is the one place messages are encoded: each message stays one
// line written under writeMu, and responses still pass the in-flight
// bookkeeping (settle) before they are written.
//
// Not covered: messages the SDK refuses after decoding (unknown methods,
// bad params of other methods) are answered by the SDK; a response that
// cannot be written (stdout closed) ends the session as in the SDK.
package framing
