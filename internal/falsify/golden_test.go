package falsify

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGoldenReports runs the falsifier on testdata/stubs.txt and compares
// its reports with testdata/reports.golden (-update rewrites it).
func TestGoldenReports(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "stubs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		h := strings.TrimSpace(sc.Text())
		if h == "" || strings.HasPrefix(h, "#") {
			continue
		}
		// a budget that is never reached: the cap alone ends the search, so
		// the report is deterministic
		r := Falsify(context.Background(), stmt(t, h, nil), nil, Options{Budget: 1e10, MaxAssignments: 2000})
		fmt.Fprintf(&out, "%s\n  %s", h, r.Verdict)
		if r.Counterexample != "" {
			fmt.Fprintf(&out, ": %s", r.Counterexample)
		}
		fmt.Fprintf(&out, " (%d assignments)", r.Assignments)
		if r.Reason != "" {
			fmt.Fprintf(&out, " %s", r.Reason)
		}
		out.WriteString("\n")
	}
	golden := filepath.Join("testdata", "reports.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(out.String(), "\n")
	for i, w := range strings.Split(string(want), "\n") {
		if i >= len(got) || got[i] != w {
			g := ""
			if i < len(got) {
				g = got[i]
			}
			t.Errorf("line %d differs:\n got %s\nwant %s", i+1, g, w)
		}
	}
}
