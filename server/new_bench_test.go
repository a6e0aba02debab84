package server

import (
	"context"
	"testing"
)

// BenchmarkNew is the server's construction at start-up, with every tool
// and jobs on: the tools' schemas, the SDK server, the output store.
func BenchmarkNew(b *testing.B) {
	o := jobOptions(b)
	o.Tools = []string{"shell_execute", "execute_command"}
	for b.Loop() {
		s, _ := newServer(b, o)
		s.Shutdown(context.Background())
	}
}
