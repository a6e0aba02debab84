package argvrules

import (
	"strings"

	"github.com/seed-b63acb1b/mcp-shell-server/redirect"
)

// Programs that distributions ship as wrapper scripts around another
// program: their families exist for the sandbox, which must let the
// script run what it wraps (7z runs /usr/lib/p7zip/7z, zcat runs gzip,
// Debian's yq runs jq).

// check7z is the recognizer of p7zip 16.02 and 7-Zip 22+ (7z, 7za, 7zr:
// "7z <command> [<switches>...] <archive> [<files>...]", 7-Zip's
// Command Line Syntax). 7z runs no program; the directories it writes,
// -o{DIR} (the extraction directory) and -w{DIR} (the working directory
// of a new archive), stay inside the working directory. Switches are
// case-insensitive. The archive it writes is delegated, like zip's.
func check7z(argv []string, ctx Context) *Rejection {
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		if w == "--" {
			return nil
		}
		if len(w) < 2 || w[0] != '-' {
			continue
		}
		switch lower := strings.ToLower(w); {
		case strings.HasPrefix(lower, "-o") && len(w) > 2:
			if r := outputPath(ctx, "7z", i, w, w[2:], redirect.Dir); r != nil {
				return r
			}
		case strings.HasPrefix(lower, "-w") && len(w) > 2:
			if r := outputPath(ctx, "7z", i, w, w[2:], redirect.Dir); r != nil {
				return r
			}
		}
	}
	return nil
}

// checkYq is the recognizer of yq, xq and tomlq (python-yq 3.x, which
// runs jq with the filter and the options it does not know itself) and of
// the Go yq (mikefarah/yq 4). Neither runs a program of the request's
// choosing: python-yq runs jq only, and jq reads files (--rawfile,
// --slurpfile, -L modules written in jq) but writes none and runs
// nothing. -i/--in-place rewrites the file operands, which the kernel
// sandbox keeps inside the allowed directories like any other write.
func checkYq([]string, Context) *Rejection { return nil }

// checkZScripts is the recognizer of the decompress-and-search wrapper
// scripts of gzip 1.12 (gunzip, zcat, zgrep, zdiff, zcmp, uncompress),
// bzip2 1.0.8 (bzgrep, bzdiff), xz 5.4 (xzgrep, xzdiff) and zstd 1.5
// (zstdgrep): they pass their options to gzip, grep or diff, which run
// no program, and write only beside their operands (gunzip).
func checkZScripts([]string, Context) *Rejection { return nil }
