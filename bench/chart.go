package main

import (
	"math"
	"strconv"
	"strings"
)

// chartWidth is the width of a latency chart's plot area in characters:
// about 25 per decade on a typical 2–3 decade axis, and with the longest
// series name (about 40) a line stays near the ~100 columns a Markdown code
// block shows without scrolling.
const chartWidth = 60

// chartLegend explains latencyChart's marks; the report prints it once.
const chartLegend = "`-` p10–p90, `=` p25–p75 (the IQR), `|` p50, `.` p90–p99, on a logarithmic millisecond axis shared by the series of one chart"

// latencyChart draws each series as one line of text on a logarithmic
// millisecond axis shared by all of them (see chartLegend), followed by
// the axis with 1-2-5 ticks: the distributions of one interleaved loop,
// readable in the Markdown itself, in a terminal and in a diff. An empty
// series gets a blank line.
func latencyChart(ss []*series) string {
	sums := make([]summary, len(ss))
	lo, hi := math.Inf(1), math.Inf(-1)
	nameW := 0
	for i, s := range ss {
		sums[i] = summarize(s.d)
		nameW = max(nameW, len(s.name))
		if sums[i].N > 0 {
			lo, hi = min(lo, toMS(sums[i].P10)), max(hi, toMS(sums[i].P99))
		}
	}
	if math.IsInf(lo, 1) {
		return "(no latency measured)\n"
	}
	ticks := ticks125(max(lo, 1e-3), max(hi, 1e-3))
	l0, l1 := math.Log10(ticks[0]), math.Log10(ticks[len(ticks)-1])
	col := func(msv float64) int {
		c := int(math.Round((math.Log10(max(msv, 1e-3)) - l0) / (l1 - l0) * (chartWidth - 1)))
		return min(max(c, 0), chartWidth-1)
	}
	var w strings.Builder
	pad := strings.Repeat(" ", nameW+2)
	for i, s := range ss {
		line := []byte(strings.Repeat(" ", chartWidth))
		if m := sums[i]; m.N > 0 {
			mark := func(from, to float64, c byte) {
				for x := col(from); x <= col(to); x++ {
					line[x] = c
				}
			}
			mark(toMS(m.P90), toMS(m.P99), '.')
			mark(toMS(m.P10), toMS(m.P90), '-')
			mark(toMS(m.P25), toMS(m.P75), '=')
			mark(toMS(m.P50), toMS(m.P50), '|')
		}
		w.WriteString(strings.TrimRight(s.name+pad[len(s.name):]+string(line), " ") + "\n")
	}
	axis := []byte(strings.Repeat("-", chartWidth))
	labels := []byte(strings.Repeat(" ", chartWidth+8))
	free := 0 // first column a label may start at without touching the previous one
	for _, t := range ticks {
		c := col(t)
		axis[c] = '+'
		if l := strconv.FormatFloat(t, 'f', -1, 64); c >= free {
			copy(labels[c:], l)
			free = c + len(l) + 1
		}
	}
	w.WriteString(pad + string(axis) + "\n" + pad + strings.TrimRight(string(labels), " ") + " ms\n")
	return w.String()
}

// ticks125 is the 1-2-5 sequence (… 0.5, 1, 2, 5, 10 …) from the largest
// value at or below lo to the smallest at or above hi, with at least two
// values so that the axis has a length.
func ticks125(lo, hi float64) []float64 {
	e0 := math.Floor(math.Log10(lo))
	var t []float64
	for i := 0; ; i++ {
		v := []float64{1, 2, 5}[i%3] * math.Pow(10, e0+float64(i/3))
		if v <= lo {
			t = t[:0] // only the last tick at or below lo starts the axis
		}
		t = append(t, v)
		if v >= hi && len(t) > 1 {
			return t
		}
	}
}
