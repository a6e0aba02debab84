package main

import (
	"context"
	"fmt"
	"time"

	"github.com/seed-b63acb1b/mcp-shell-server/sandbox"
)

// Goals for the default sandbox (mode auto): its per-call
// cost must be small enough to be the default.
const (
	sandboxRatioGoal = 1.3                  // confined p50 ≤ 1.3 × unconfined p50 for `true`
	sandboxStageGoal = 1 * time.Millisecond // ≤ 1 ms more per pipeline stage
)

// sandboxModes are the servers of section 8, one per MCP_SHELL_SANDBOX
// value, in series order.
var sandboxModes = []string{"off", "limits", "auto"}

// sandboxCost is section 8: `true` and the three-stage pipeline
// `true | true | true` through three servers side by side, unconfined
// (off), rlimits and no_new_privs only (limits), and the default (auto:
// Landlock where the kernel offers it).
func (b *bench) sandboxCost(ctx context.Context) error {
	servers := make([]*server, len(sandboxModes))
	for i, m := range sandboxModes {
		s, err := launch(ctx, b.oursSpec("MCP_SHELL_SANDBOX="+m))
		if err != nil {
			return err
		}
		defer s.close()
		servers[i] = s
	}
	one, three := []string{"true"}, []string{"true", "|", "true", "|", "true"}
	groups := []*latencyGroup{
		{title: "`true`, by sandbox mode", short: "`true`", n: b.o.n},
		{title: "`true` three times in one pipeline (`true | true | true`), by sandbox mode", short: "3 stages", n: b.o.n / 2},
	}
	for i, m := range sandboxModes {
		groups[0].series = append(groups[0].series, &series{name: "MCP_SHELL_SANDBOX=" + m + ": true", do: oursShell(servers[i], one, 0)})
		groups[1].series = append(groups[1].series, &series{name: "MCP_SHELL_SANDBOX=" + m + ": 3 × true, piped", do: oursShell(servers[i], three, 0)})
	}
	warm := pick(b.o.smoke, smokeWarmup, warmup)
	for _, g := range groups {
		if err := interleave(ctx, max(g.n, 10), warm, g.series); err != nil {
			return err
		}
	}
	b.reportSandbox(groups, warm)
	return nil
}

func (b *bench) reportSandbox(groups []*latencyGroup, warm int) {
	p := b.newPart("8. Sandbox cost: the same calls unconfined, with rlimits, and confined")
	abi, _ := sandbox.KernelABI()
	p.printf("Three servers of this build side by side, differing only in MCP_SHELL_SANDBOX; one interleaved loop per table (%d warm-up iterations dropped), client-side round trips in milliseconds. "+
		"On this kernel (Landlock ABI %d) `auto` means every stage runs in its own Landlock ruleset with the seccomp socket filter, no_new_privs and rlimits, started from a restricted thread of the server (no launcher process). %s.\n\n", warm, abi, chartLegend)
	for _, g := range groups {
		writeLatencyTable(p, g)
	}
	off1, auto1 := summarize(groups[0].series[0].d), summarize(groups[0].series[2].d)
	off3, auto3 := summarize(groups[1].series[0].d), summarize(groups[1].series[2].d)
	r := ratio(auto1.P50, off1.P50)
	blocks := rangeOf(blockRatios(groups[0].series[2].d, groups[0].series[0].d, 5), "%.2f")
	perStage := max(auto1.P50-off1.P50, (auto3.P50-off3.P50)/3)
	p.printf("auto/off for `true`: p50 %.2f× (per fifth %s), p90 %.2f×; limits/off p50 %.2f×. Overhead per stage at the median: %s ms for one stage, %s ms per stage of three.\n\n",
		r, blocks, ratio(auto1.P90, off1.P90), ratio(quantile(groups[0].series[1].d, .5), off1.P50), ms(auto1.P50-off1.P50), ms((auto3.P50-off3.P50)/3))
	p.printf("What each part of the sandbox costs per stage and per restricted thread (ruleset, thread, key, traced start, the stage's own domain, the seccomp allowlist) is in [bench/README.md](bench/README.md#what-each-part-of-the-sandbox-costs), from the sandbox package's micro benchmarks.\n\n")
	b.addGoal("sandbox cost (`true`)", fmt.Sprintf("auto p50 ≤ %g × off p50", sandboxRatioGoal),
		fmt.Sprintf("%.2f× (%s vs %s ms; per-fifth %s)", r, ms(auto1.P50), ms(off1.P50), blocks), r <= sandboxRatioGoal)
	b.addGoal("sandbox cost per stage", "≤ 1 ms per stage (auto − off, p50)",
		fmt.Sprintf("%s ms (1 stage), %s ms per stage of 3", ms(auto1.P50-off1.P50), ms((auto3.P50-off3.P50)/3)), perStage <= sandboxStageGoal)
}
