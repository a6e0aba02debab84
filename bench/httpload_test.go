package main

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestLoopRate: every goroutine's calls are counted, a failing call ends
// the loop with its error, and the rate is calls per second of the window.
func TestLoopRate(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name    string
		failAt  int64 // the call that fails (0: none)
		wantErr error
	}{
		{"all succeed", 0, nil},
		{"one fails", 5, boom},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int64
			rate, err := loopRate(4, 20*time.Millisecond, func(int) error {
				if n := calls.Add(1); n == tc.failAt {
					return boom
				}
				return nil
			})
			if !errors.Is(err, tc.wantErr) || tc.wantErr == nil && err != nil {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if max := float64(calls.Load()) / 0.020; rate <= 0 || rate > max {
				t.Errorf("rate %.0f/s for %d calls in 20 ms (at most %.0f/s)", rate, calls.Load(), max)
			}
		})
	}
}

func TestMedianRange(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median %v, want 2", m)
	}
	if r := rateRange([]float64{30, 10, 20}); r != "20 (10–30)" {
		t.Errorf("rateRange %q", r)
	}
}
