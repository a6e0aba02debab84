package config

// Defaults this package owns: it is the only reader of these variables.
// Defaults owned elsewhere are used from their owner: MCP_SHELL_SAFE_PATH
// from childenv.DefaultPath (childenv applies the children's PATH and
// already falls back to it), MCP_SHELL_SANDBOX_READ_DIRS from
// sandbox.DefaultReadDirs and the MCP_SHELL_RLIMIT_* values from
// sandbox.DefaultLimits.
const (
	defaultTimeoutSeconds = 30
	maxTimeoutSeconds     = 300
	defaultOutputLimit    = 1 << 20 // bytes per stream
	defaultMaxConcurrent  = 16
	defaultAuditLog       = "stderr"
	defaultLogLevel       = "info"
	defaultTool           = "shell_execute"
	defaultTransport      = "stdio"
	defaultHTTPAddr       = "127.0.0.1:8080"
	defaultHTTPMaxBody    = 8 << 20 // bytes
	defaultSandbox        = "off"
	defaultSandboxNetwork = "deny"
)
