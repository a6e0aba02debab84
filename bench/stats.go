package main

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// quantile returns the q-quantile (0..1) of d with linear interpolation
// between order statistics; 0 for an empty sample.
func quantile[T ~int64 | ~float64](d []T, q float64) T {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return sortedQuantile(s, q)
}

func sortedQuantile[T ~int64 | ~float64](s []T, q float64) T {
	if len(s) == 1 {
		return s[0]
	}
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(s)-1)
	frac := pos - float64(lo)
	return s[lo] + T(frac*float64(s[hi]-s[lo]))
}

// summary is the distribution of one sample: order statistics in
// nanoseconds.
type summary struct {
	N                       int
	P10, P25, P50, P75, P90 time.Duration
	P99                     time.Duration
}

func summarize(d []time.Duration) summary {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s) == 0 {
		return summary{}
	}
	return summary{
		N: len(s), P10: sortedQuantile(s, .10), P25: sortedQuantile(s, .25), P50: sortedQuantile(s, .50),
		P75: sortedQuantile(s, .75), P90: sortedQuantile(s, .90), P99: sortedQuantile(s, .99),
	}
}

// IQR is the interquartile range, the spread the report gives next to each
// median.
func (s summary) IQR() time.Duration { return s.P75 - s.P25 }

// blockRatios splits two paired, equally long samples (measured in the same
// interleaved loop) into k consecutive blocks and returns, per block, the
// ratio of a's median to b's median. Its range shows how much the noise of
// the shared machine moves the headline ratio.
func blockRatios(a, b []time.Duration, k int) []float64 {
	n := min(len(a), len(b))
	if k > n {
		k = n
	}
	var out []float64
	for i := range k {
		lo, hi := i*n/k, (i+1)*n/k
		mb := quantile(b[lo:hi], .5)
		if mb > 0 {
			out = append(out, float64(quantile(a[lo:hi], .5))/float64(mb))
		}
	}
	return out
}

// ratio is a/b as a float (0 when b is 0).
func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// ms formats d in milliseconds with 3 significant decimals for small
// values.
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v < 10:
		return fmt.Sprintf("%.3f", v)
	case v < 100:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.1f", v)
	}
}

// minMedMax formats the minimum, median and maximum of d as three cells
// of a Markdown table row, for repeated runs.
func minMedMax(d []time.Duration) string {
	return fmt.Sprintf("%s | %s | %s ms", ms(quantile(d, 0)), ms(quantile(d, .5)), ms(quantile(d, 1)))
}

// rangeOf formats the minimum and maximum of v as "lo–hi".
func rangeOf(v []float64, format string) string {
	if len(v) == 0 {
		return "n/a"
	}
	return fmt.Sprintf(format+"–"+format, slices.Min(v), slices.Max(v))
}

func medianDuration(d []time.Duration) time.Duration { return quantile(d, .5) }

func toMS(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
