// Package benchstat reports latency percentiles from benchmarks (test
// support: only _test files import it), so every benchmark computes them
// one way.
package benchstat

import (
	"slices"
	"testing"
	"time"
)

// Report sorts ds and reports their median and 95th percentile in
// milliseconds as the metrics "p50-ms"+suffix and "p95-ms"+suffix.
func Report(b *testing.B, ds []time.Duration, suffix string) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(ds[len(ds)/2]), "p50-ms"+suffix)
	b.ReportMetric(ms(ds[len(ds)*95/100]), "p95-ms"+suffix)
}

// Timed runs f b.N times as the sub-benchmark name, timing each call, and
// reports the calls' percentiles (Report).
func Timed(b *testing.B, name string, f func(i int)) {
	b.Run(name, func(b *testing.B) {
		ds := make([]time.Duration, b.N)
		for i := range b.N {
			t0 := time.Now()
			f(i)
			ds[i] = time.Since(t0)
		}
		Report(b, ds, "")
	})
}
