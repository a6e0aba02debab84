package config

// Defaults this package owns: it is the only reader of these variables.
// Defaults owned elsewhere are used from their owner: MCP_SHELL_SAFE_PATH
// from childenv.DefaultPath (childenv applies the children's PATH and
// already falls back to it), MCP_SHELL_SANDBOX_READ_DIRS from
// sandbox.DefaultReadDirs, the MCP_SHELL_RLIMIT_* values from
// sandbox.DefaultLimits and MCP_SHELL_OUTPUT_LIMIT_BYTES from
// runner.DefaultOutputLimit, MCP_SHELL_CONFIRM_TIMEOUT_SECONDS from
// server.DefaultConfirmTimeout.
const (
	defaultTimeoutSeconds = 30
	maxTimeoutSeconds     = 300
	defaultAuditLog       = "stderr"
	defaultLogLevel       = "info"
	defaultTool           = "shell_execute"
	defaultTransport      = "stdio"
	defaultHTTPAddr       = "127.0.0.1:8080"
	defaultHTTPMaxBody    = 8 << 20 // bytes
	defaultSandbox        = "auto"
	defaultSandboxNetwork = "family"
)

// defaultRedirectLimit caps a ">"/">>" file. The file is streamed to
// disk, never held in memory, so it need not be as small as the captured
// streams' cap: 64 MiB holds a generated lock file, a sorted log or a
// build listing many times over, while a runaway writer stops long before
// it fills a disk (RLIMIT_FSIZE, when set, still applies to the program's
// own files).
const defaultRedirectLimit = 64 << 20

// defaultHTTPMaxSessions caps the open MCP sessions over HTTP. Measured
// (test/fault TestHTTPSessionsBounded): a session opened and abandoned
// holds about 20 KiB of the server's RSS (19.6 KiB), so 1,024 sessions
// are some 20 MiB. That is four sessions for each of the 256
// authenticated connections the transport keeps (a client holds one
// session per connection, plus the ones it abandoned on restarts within
// the half-hour idle timeout), and the memory bound stays small beside
// the running calls' (SECURITY.md). Past the cap the least recently used
// idle session is closed.
const defaultHTTPMaxSessions = 1024

// defaultMaxConcurrent bounds the calls running at once. It is
// a memory and process bound, not a CPU one: a call that waits (sleep, a
// network fetch, a test suite's I/O) uses no CPU, and CPU-bound children
// share the cores through the kernel's scheduler whatever the bound, so a
// bound near the core count only queues waiting calls (with 16, 64 HTTP
// clients running sleep 0.2 got 60-79 calls/s against the floor's 216-312,
// bench section 9). What a running call holds is bounded by the output
// cap: at most 2 x MCP_SHELL_OUTPUT_LIMIT_BYTES captured (stdout and
// stderr), 128 MiB for 64 calls at the default 1 MiB cap, plus about ten
// descriptors and, when confined, one thread per stage. 64 covers an
// agent fan-out or 64 HTTP clients without queueing; raise it with the
// cap in mind (SECURITY.md states the memory bound).
const defaultMaxConcurrent = 64

// Defaults of jobs, retained output and the text limit.
const (
	// defaultMaxJobs: a coding agent keeps a few things going at once (a
	// dev server, a watcher, a long build or test run); eight covers that
	// while bounding the processes and the in-memory capture (at most
	// 2 x MCP_SHELL_OUTPUT_LIMIT_BYTES per job, 16 MiB at the defaults).
	defaultMaxJobs = 8
	// defaultMaxJobSeconds: an hour fits long builds and test suites, and
	// a forgotten dev server does not run for ever.
	defaultMaxJobSeconds = 3600
	// defaultAdaptiveSeconds: off, so a foreground call waits for its
	// result as in the reference server unless the operator opts in.
	defaultAdaptiveSeconds = 0
	// defaultRetainBytes: 16 MiB per stream holds a full build or test log
	// (typically well under 1 MiB) sixteen times over, and stops a runaway
	// "yes" from filling the quota on its own.
	defaultRetainBytes = 16 << 20
	// defaultRetainQuota: 256 MiB in all; the directory is usually on a
	// tmpfs (the Docker image mounts one at /tmp), i.e. RAM.
	defaultRetainQuota = 256 << 20
	// defaultRetainTTLSeconds: an hour, about one working session of an
	// agent; older output can be produced again by re-running the command.
	defaultRetainTTLSeconds = 3600
	// defaultRetainDir: a fixed /tmp rather than $TMPDIR, because Parse
	// reads only the variables it declares; Linux always has /tmp, and the
	// Docker image mounts a tmpfs there. When MCP_SHELL_RETAIN_DIR is unset
	// and /tmp lies inside an allowed directory (a server started in /tmp
	// serves /tmp), the first of retainFallbacks outside every allowed
	// directory is used instead: starting in /tmp is a reason to keep the
	// output elsewhere, not to refuse to start.
	defaultRetainDir = "/tmp"
	// defaultTextLimit: 16 KiB per stream is about 4,000 tokens: enough for
	// a compiler's error list or a test summary, while a 1 MiB output no
	// longer puts some 250,000 tokens into the model's context (the rest is
	// in the retained output, paged with read_output). See README.
	defaultTextLimit = 16 << 10
)

// retainFallbacks are tried in order after defaultRetainDir when the
// operator did not choose a retain directory: /var/tmp and /dev/shm exist
// on every Linux (FHS 3.0 §5.15, and the tmpfs systemd and Docker mount);
// the private directory inside is removed at exit either way.
var retainFallbacks = []string{"/var/tmp", "/dev/shm"}
