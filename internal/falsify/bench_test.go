package falsify

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/benchstat"
)

// BenchmarkFalsify runs the falsifier with its default options on every
// stub of testdata/stubs.txt and reports the median and 95th percentile
// time per stub.
func BenchmarkFalsify(b *testing.B) {
	f, err := os.Open(filepath.Join("testdata", "stubs.txt"))
	if err != nil {
		b.Fatal(err)
	}
	var stmts []Statement
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if h := strings.TrimSpace(sc.Text()); h != "" && !strings.HasPrefix(h, "#") {
			stmts = append(stmts, stmt(b, h, nil))
		}
	}
	f.Close()
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		for _, st := range stmts {
			start := time.Now()
			Falsify(context.Background(), st, nil, Options{})
			times = append(times, time.Since(start))
		}
	}
	b.StopTimer()
	benchstat.Report(b, times, "/stub")
	b.ReportMetric(float64(len(stmts)), "stubs")
}
