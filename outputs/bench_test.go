package outputs

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkOutput is one call's output from Create to its end, as the
// server drives it: the runner's tee writes (in pieces of at most 64 KiB,
// what one pipe read returns), then FinishCounted, and Drop for an empty
// one. The quota is small enough that old outputs are evicted as new ones
// arrive, so a steady state is measured (files created and removed).
//
//   - empty: a call that printed nothing (`true`).
//   - 200B, 16KiB: fits the text limit (16 KiB): held in memory.
//   - 200B-file, 1MiB-file: InMemory 0, every stream in its file from
//     its first byte.
//   - 1MiB: past the text limit: moves to its file at 16 KiB.
//
// The files are in a test directory (os.TempDir); MCP_SHELL_BENCH_RETAIN_DIR
// names another, e.g. a tmpfs (/dev/shm) as the Docker image has, where
// creating a file costs a fraction of what it does on ext4.
func BenchmarkOutput(b *testing.B) {
	for _, bc := range []struct {
		name     string
		size     int
		inMemory int64
	}{
		{"empty", 0, 16 << 10},
		{"200B", 200, 16 << 10},
		{"200B-file", 200, 0},
		{"16KiB", 16 << 10, 16 << 10},
		{"1MiB", 1 << 20, 16 << 10},
		{"1MiB-file", 1 << 20, 0},
	} {
		b.Run(bc.name, func(b *testing.B) {
			parent := b.TempDir()
			if p := os.Getenv("MCP_SHELL_BENCH_RETAIN_DIR"); p != "" {
				parent = p
			}
			s := open(b, Config{Parent: parent, PerStream: 16 << 20, Quota: 8 << 20, InMemory: bc.inMemory})
			data := bytes.Repeat([]byte("0123456789abcde\n"), bc.size/16)
			b.SetBytes(int64(bc.size))
			b.ReportAllocs()
			for b.Loop() {
				o, err := s.Create()
				if err != nil {
					b.Fatal(err)
				}
				w := o.Stdout()
				for p := data; len(p) > 0; {
					n := min(len(p), 64<<10)
					w.Write(p[:n])
					p = p[n:]
				}
				o.FinishCounted([2]int64{int64(bc.size), 0})
				if bc.size == 0 {
					o.Drop()
				}
			}
		})
	}
}

// BenchmarkRead is one read_output page of 64 KiB from a finished output
// held in memory and from one in its file.
func BenchmarkRead(b *testing.B) {
	for _, bc := range []struct {
		name     string
		inMemory int64
	}{{"memory", 1 << 20}, {"file", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			s := open(b, Config{Parent: b.TempDir(), InMemory: bc.inMemory})
			o, _ := s.Create()
			o.Stdout().Write(make([]byte, 256<<10))
			o.Finish()
			b.SetBytes(64 << 10)
			b.ReportAllocs()
			for b.Loop() {
				if c, err := o.Read(0, 64<<10, 64<<10); err != nil || len(c.Data) != 64<<10 {
					b.Fatal(len(c.Data), err)
				}
			}
		})
	}
}
