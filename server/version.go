package server

import (
	"reflect"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocol revisions whose features the answers depend on.
const (
	// linksFrom is the first revision that defines resource_link content
	// (2025-06-18, "Resource Links"): a session of an older revision gets
	// the links as text, which its clients can parse (TypeScript SDK
	// 1.10.2 and 1.12.1 reject the whole result of a call that carries
	// one).
	linksFrom = "2025-06-18"
)

// protocolOf is the protocol revision req's session speaks: the one a
// request names in its _meta (2026-07-28 and later), else the one
// negotiated at initialize, which the go-sdk derives from the client's
// as this does (its own is not exported: go-sdk v1.8.0 negotiatedVersion
// keeps a supported client revision older than 2026-07-28, else answers
// with the newest such). "" when the session has not initialized.
func protocolOf(req mcp.Request) string {
	if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() {
		if v, ok := p.GetMeta()[mcp.MetaKeyProtocolVersion].(string); ok && v != "" {
			return v
		}
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil || ss.InitializeParams() == nil {
		return ""
	}
	return negotiated(ss.InitializeParams().ProtocolVersion)
}

// negotiated is the revision an initialize naming client settles on.
func negotiated(client string) string {
	supported := mcp.SupportedProtocolVersions()
	if slices.Contains(supported, client) && client < statelessFrom {
		return client
	}
	for _, v := range supported {
		if v < statelessFrom {
			return v
		}
	}
	return client
}
