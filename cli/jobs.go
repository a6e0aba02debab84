package cli

import (
	"github.com/seed-b63acb1b/mcp-shell-server/config"
	"github.com/seed-b63acb1b/mcp-shell-server/outputs"
	"github.com/seed-b63acb1b/mcp-shell-server/server"
)

// jobOptions maps the job and retention configuration onto the server's.
func jobOptions(j config.Jobs) server.JobOptions {
	return server.JobOptions{
		Retain:     outputs.Config{Parent: j.RetainDir, PerStream: j.RetainBytes, Quota: j.RetainQuota, TTL: j.RetainTTL},
		MaxJobs:    j.MaxJobs,
		MaxJobTime: j.MaxJobTime,
		Adaptive:   j.Adaptive,
	}
}
