package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/audit"
)

// auditFieldDocs say what each field of an audit record holds. The keys
// are checked against the records package audit writes (sampleRecords):
// a field it writes that is not here, or one here it never writes, is an
// error, so the table follows the code.
var auditFieldDocs = map[string]string{
	"time":                       "when the record was written (RFC 3339, from slog)",
	"level":                      "always INFO",
	"msg":                        "always `shell_execution_audit`",
	"logger":                     "always `mcp-shell-server.audit`",
	"timestamp":                  "when the call started, Unix seconds",
	"duration":                   "seconds the call took",
	"result_type":                "how the call ended (see Vocabularies)",
	"tool":                       "the tool called (`shell_execute`, `execute_command`, `read_output`, ...), or `resources/read`",
	"command":                    "argv[0], redacted",
	"argv":                       "the request's argv, each element redacted; at most 256 elements",
	"argv_count":                 "the argv's length, when it had more than 256 elements",
	"directory":                  "the working directory",
	"redirections.stdin":         "whether `<` was used",
	"redirections.stdout":        "whether `>` or `>>` was used",
	"redirections.stdout_append": "whether it was `>>`",
	"env":                        "the client's `envs`, values redacted unless on the safe list; at most 64 entries",
	"child_env":                  "the names (never the values) of every variable the children got: the minimal base, delegated names, a family's hardening such as `GIT_CONFIG_*`, `TMPDIR` where confined",
	"timeout":                    "the timeout that applied, seconds",
	"output_limit":               "the output cap per stream, bytes",
	"stdout_bytes":               "stdout bytes kept (in the result or the `>` file), at most the cap",
	"stderr_bytes":               "stderr bytes kept, at most the cap",
	"stdout_bytes_read":          "stdout bytes read from the stream: more than kept when the cap was reached before the group was stopped",
	"stderr_bytes_read":          "stderr bytes read from the stream",
	"return_code":                "the exit status (a pipeline's failing stage's), or null",
	"signal":                     "the signal that ended the process, when one did",
	"stages":                     "the number of pipeline stages",
	"rule":                       "the rule that decided: `allowlist.exact:NAME` or `allowlist.pattern:RE` for allowed calls, the reason code of a refusal (docs/rules.md)",
	"rejection_reason":           "the refusal's sentence, client values redacted (`result_type` `rejected`)",
	"error":                      "what failed, client values redacted (other results)",
	"error_type":                 "what kind of failure (see Vocabularies)",
	"confirmed":                  "how the user answered when the confirm tier held the call (see Vocabularies); absent when it did not",
	"sandbox":                    "the call's effective sandbox mode: `landlock`, `limits` or `off`",
	"sandbox_abi":                "the Landlock ABI applied, 0 without Landlock",
	"lifetime":                   "the mechanism binding the call's processes to it (see Vocabularies)",
	"remote":                     "the client's network address (HTTP)",
	"sandbox_denied":             "what the sandbox denied a failed call's stages, at most 8: `kind` (`exec`, `write`, `read`, `connect`, `access`, `credentials`: a registry's 401 to a stage given its configuration without the tokens, `signing`: git's gpg failed to sign in a confined git stage that failed, `library`: a stage that exited 127 could not load a shared library beneath a directory the read list leaves out, target its path), `target` (path or host:port), `guess` when read from the stage's \"Permission denied\" rather than reported by the kernel",
	"http_status":                "the HTTP status of a request refused before MCP saw it (401, 403, 413)",
	"suppressed":                 "records of the same kind left out by the rate limit since the last one written",
	"audit_dropped":              "records lost since the last one written (a queue full or a failed write), carried by the next record",
	"event":                      "what the record is about besides a foreground call (see Vocabularies)",
	"job_id":                     "the job",
	"output_id":                  "the call's retained output (a job's is its job id)",
	"adaptive":                   "true when a foreground call was handed off to a job after `MCP_SHELL_ADAPTIVE_SECONDS`",
	"killed_by":                  "`job_kill` or `shutdown`, for a killed job",
	"stream":                     "the stream an `output_read` read (`stdout`, `stderr`)",
	"offset":                     "where the read started, bytes",
	"read_bytes":                 "how many bytes the read returned (never the content)",
	"stdin_bytes":                "how many bytes `job_stdin` wrote",
	"session_id":                 "the label the client gave the call with `session_id` (its job's records carry it too)",
}

// sampleRecords are records that between them make package audit write
// every field it has.
func sampleRecords() []audit.Record {
	code := 2
	long := make([]string, 300)
	for i := range long {
		long[i] = "x"
	}
	base := audit.Record{Time: time.Unix(0, 0), ResultType: audit.Rejected, Tool: "shell_execute", Argv: []string{"sort", "-o", "/x"},
		Directory: "/w", Stdin: true, Stdout: true, Append: true, Env: map[string]string{"LANG": "C"}, ChildEnv: []string{"PATH"},
		Timeout: time.Second, OutputLim: 1, ReturnCode: &code, Signal: "SIGKILL", Stages: 1, Rule: "sort.output-path", Reason: "refused",
		ErrorKind: audit.KindToken, Remote: "127.0.0.1:1", Status: 401, Suppressed: 1, Sandbox: "landlock", SandboxABI: 6, Lifetime: "cgroup",
		SandboxDenied: []audit.Denial{{Kind: "exec", Target: "/bin/sh", Guess: true}}, Confirmed: audit.ConfirmDeclined,
		Job: audit.Job{Event: audit.EventJobEnd, JobID: "j", OutputID: "o", Adaptive: true, KilledBy: "job_kill", StdinBytes: 1, SessionID: "s"}}
	failed := base
	failed.ResultType, failed.Argv = audit.ProcessError, long
	read := base
	read.Job = audit.Job{Event: audit.EventOutputRead, OutputID: "o", Stream: "stdout", Offset: 1, ReadBytes: 1}
	return []audit.Record{base, failed, read}
}

// failOnce is a destination whose first write fails, so that the next
// record carries audit_dropped.
type failOnce struct {
	mu     sync.Mutex
	failed bool
	lines  [][]byte
}

func (f *failOnce) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.failed {
		f.failed = true
		return 0, errors.New("docgen: the first write fails")
	}
	f.lines = append(f.lines, append([]byte(nil), p...))
	return len(p), nil
}

// writtenFields are the field names (nested ones as group.name) of the
// records package audit writes for sampleRecords.
func writtenFields() ([]string, error) {
	dest := &failOnce{}
	l := audit.New(dest)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	records := append([]audit.Record{{Time: time.Unix(0, 0)}}, sampleRecords()...) // the first is lost, and counted
	for _, r := range records {
		if err := l.Log(ctx, r); err != nil {
			return nil, err
		}
		if err := l.Flush(ctx); err != nil {
			return nil, err
		}
	}
	if err := l.Close(ctx); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, line := range dest.lines {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, fmt.Errorf("audit wrote %q: %w", line, err)
		}
		for k, v := range rec {
			if group, ok := v.(map[string]any); ok && k != "env" {
				for sub := range group {
					seen[k+"."+sub] = true
				}
				continue
			}
			seen[k] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}

// auditFields is docs/audit.md's table of fields: every field package
// audit writes, with its meaning.
func auditFields(string) (string, error) {
	written, err := writtenFields()
	if err != nil {
		return "", err
	}
	for _, k := range written {
		if _, ok := auditFieldDocs[k]; !ok {
			return "", fmt.Errorf("package audit writes the field %q, which auditFieldDocs (internal/docgen/audit.go) does not describe", k)
		}
	}
	for k := range auditFieldDocs {
		if !slices.Contains(written, k) {
			return "", fmt.Errorf("auditFieldDocs describes %q, which package audit no longer writes", k)
		}
	}
	var b strings.Builder
	b.WriteString("| field | holds |\n|---|---|\n")
	for _, k := range auditFieldOrder(written) {
		fmt.Fprintf(&b, "| %s | %s |\n", code(k), cell(auditFieldDocs[k]))
	}
	return b.String(), nil
}

// auditFieldOrder is the table's order: slog's own fields, then
// recordOrder, then any other field written, by name.
func auditFieldOrder(written []string) []string {
	head := []string{"time", "level", "msg", "logger"}
	var out []string
	out = append(out, head...)
	for _, k := range recordOrder {
		if slices.Contains(written, k) && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	for _, k := range written {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// recordOrder is the order in which the fields are explained: what the
// call was, how it ended, then the optional fields.
var recordOrder = []string{
	"timestamp", "duration", "result_type", "tool", "command", "argv", "argv_count", "directory",
	"redirections.stdin", "redirections.stdout", "redirections.stdout_append", "env", "child_env",
	"timeout", "output_limit", "stdout_bytes", "stderr_bytes", "stdout_bytes_read", "stderr_bytes_read",
	"return_code", "signal", "stages", "rule", "rejection_reason", "error", "error_type", "confirmed",
	"sandbox", "sandbox_abi", "lifetime", "sandbox_denied", "remote", "http_status", "suppressed", "audit_dropped",
	"event", "job_id", "output_id", "adaptive", "killed_by", "stream", "offset", "read_bytes", "stdin_bytes", "session_id",
}

// vocabulary is one closed list of package audit: a named string type
// and its constants with their doc comments.
type vocabulary struct {
	typ, field, file string
}

var vocabularies = []vocabulary{
	{"Result", "result_type", "audit/result.go"},
	{"ErrorKind", "error_type", "audit/result.go"},
	{"Event", "event", "audit/job.go"},
	{"Confirmed", "confirmed", "audit/confirm.go"},
	{"Mechanism", "lifetime", "lifetime/lifetime.go"},
}

// auditVocabularies lists the values of result_type, error_type and
// event, read from the constants' declarations with their comments.
func auditVocabularies(root string) (string, error) {
	var b strings.Builder
	for i, v := range vocabularies {
		values, err := constants(filepath.Join(root, v.file), v.typ)
		if err != nil {
			return "", err
		}
		if len(values) == 0 {
			return "", fmt.Errorf("no constants of type %s in %s", v.typ, v.file)
		}
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "`%s` (the constants of type `%s` in [%s](../%s)):\n\n| value | meaning |\n|---|---|\n", v.field, v.typ, v.file, v.file)
		for _, c := range values {
			fmt.Fprintf(&b, "| %s | %s |\n", code(c.value), cell(c.doc))
		}
	}
	return b.String(), nil
}

type constant struct{ value, doc string }

// constants returns the string constants of type typ declared in file,
// in order, with their doc comments (without the leading "Name:").
func constants(file, typ string) ([]constant, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var out []constant
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != typ || len(vs.Values) != 1 {
				continue
			}
			lit, ok := vs.Values[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				continue
			}
			value, _ := strconv.Unquote(lit.Value)
			doc := strings.Join(strings.Fields(vs.Doc.Text()), " ")
			doc = strings.TrimSpace(strings.TrimPrefix(doc, vs.Names[0].Name+":"))
			out = append(out, constant{value, doc})
		}
	}
	return out, nil
}
