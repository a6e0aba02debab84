package childenv

import (
	"bytes"
	"debug/elf"
	"io"
	"io/fs"
	"os"
	"sync"
)

// What the start of a program file says about how the kernel runs it is
// read once per file and kept, keyed by path and checked against the
// file's identity (sameFile: device, inode and change time, which every
// write and every replacement changes and no user can set back) on each
// use (unchanged). Every call resolves its programs (Resolve: whether
// each is a script, its Interpreters), and reading them again cost an
// open, reads and, for ELF, the parse of every section header, for each
// program and its dynamic loader on every call (BenchmarkResolve); a stat
// replaces that while the file is the one that was read.

// fileHead is what the kernel reads of a file to execute it.
type fileHead struct {
	script bool   // starts with "#!"
	line   string // a script's first line after "#!", at most shebangMax bytes
	interp string // an ELF file's PT_INTERP
}

// maxHeads bounds the files remembered: a call runs a handful of
// programs, each with one or two interpreters; past the bound the table
// starts over.
const maxHeads = 512

type headEntry struct {
	info fs.FileInfo // the identity of the file that was read
	head fileHead
}

var heads struct {
	mu sync.Mutex
	m  map[string]headEntry
}

// headOf returns p's fileHead. fi, when not nil, is a Stat of p the
// caller just made (it saves the one headOf would make). An unreadable
// file has the zero fileHead, which is not remembered.
func headOf(p string, fi fs.FileInfo) fileHead {
	if fi == nil {
		fi, _ = os.Stat(p)
	}
	if fi != nil {
		heads.mu.Lock()
		e, ok := heads.m[p]
		heads.mu.Unlock()
		if ok && unchanged(e.info, fi) {
			return e.head
		}
	}
	f, err := os.Open(p)
	if err != nil {
		return fileHead{}
	}
	defer f.Close()
	// The identity stored is the opened file's, so that a file replaced
	// between the Stat above and the open is remembered as what was read.
	info, err := f.Stat()
	if err != nil {
		return fileHead{}
	}
	h := readHead(f)
	heads.mu.Lock()
	if heads.m == nil || len(heads.m) >= maxHeads {
		heads.m = make(map[string]headEntry)
	}
	heads.m[p] = headEntry{info: info, head: h}
	heads.mu.Unlock()
	return h
}

// unchanged reports whether b is the file a was, in the same state:
// sameFile, and the same size and modification time besides, so that even
// two writes within one tick of a coarse change time tell apart unless
// they also keep the size.
func unchanged(a, b fs.FileInfo) bool {
	return sameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// readHead reads the fileHead of the open file f.
func readHead(f *os.File) fileHead {
	head := make([]byte, shebangMax)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("#!")):
		line := head[2:]
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		return fileHead{script: true, line: string(line)}
	case bytes.HasPrefix(head, []byte(elf.ELFMAG)):
		return fileHead{interp: elfInterp(f)}
	}
	return fileHead{}
}
