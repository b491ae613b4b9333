package acceptance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestKillDuringColdBuild checks issue 11's crash-safety point: a cold
// build killed with SIGKILL at random points (seeded) leaves a cache from
// which the next run serves a correct index: the same declarations (the
// `decls` dump and `index` counts, byte for byte) as a clean build, and a
// search that finds each of a sample of declarations by its docstring (a
// lexical index left half-written would miss some).
func TestKillDuringColdBuild(t *testing.T) {
	seed := time.Now().UnixNano()
	if s := os.Getenv("DRIFT_KILL_SEED"); s != "" {
		if _, err := fmt.Sscan(s, &seed); err != nil {
			t.Fatalf("DRIFT_KILL_SEED: %v", err)
		}
	}
	t.Logf("seed %d (DRIFT_KILL_SEED reproduces it)", seed)
	rng := rand.New(rand.NewSource(seed))
	for _, ws := range workspaces(t) {
		t.Run(ws.name, func(t *testing.T) {
			clean := t.TempDir()
			start := time.Now()
			run(t, ws, clean, "search", "--root", ws.dir, "--cache", clean, "--json", ws.query)
			cold := time.Since(start)
			want := declarations(t, ws, clean)
			probes := sampleDocs(t, ws, clean, want, rng, 6)
			iterations := 4
			if ws.name == "mathlib" {
				iterations = 2
			}
			for i := 0; i < iterations; i++ {
				cache := t.TempDir()
				// Kill one cold `search` (which builds every persisted
				// index), then another one that starts from what the first
				// left behind.
				for k := 0; k < 2; k++ {
					after := time.Duration(rng.Int63n(int64(cold)))
					killed := killAfter(t, ws, cache, after, ws.query)
					t.Logf("iteration %d: SIGKILL after %v (killed before finishing: %v)", i, after.Round(time.Millisecond), killed)
				}
				findable(t, ws, cache, probes, fmt.Sprintf("iteration %d, restarted after kill -9", i))
				if got := declarations(t, ws, cache); got != want {
					t.Fatalf("iteration %d: after kill -9, the restarted index holds other declarations than a clean build:\n%s", i, firstDiff(got, want))
				}
			}
		})
	}
}

// declarations returns `index --json` (without its timing) and the `decls`
// dump of a workspace with a cache directory.
func declarations(t *testing.T, ws workspace, cache string) string {
	t.Helper()
	out := trimSeconds(run(t, ws, cache, "index", "--root", ws.dir, "--cache", cache, "--json"))
	return string(out) + string(run(t, ws, cache, "decls", "--root", ws.dir, "--cache", cache))
}

// probe is a declaration and the docstring query that must find it.
type probe struct{ name, query string }

// sampleDocs picks n declarations with docstrings of at least five words
// from a decls dump that a search of their docstring finds on the clean
// build (ranking leaves out some kinds, such as instances).
func sampleDocs(t *testing.T, ws workspace, clean, dump string, rng *rand.Rand, n int) []probe {
	t.Helper()
	var all []probe
	for _, line := range strings.Split(dump, "\n") {
		var d struct{ Name, Doc string }
		if json.Unmarshal([]byte(line), &d) != nil || len(strings.Fields(d.Doc)) < 5 {
			continue
		}
		all = append(all, probe{d.Name, d.Doc})
	}
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	var out []probe
	for _, p := range all {
		if len(out) == n {
			break
		}
		if found(t, ws, clean, p) {
			out = append(out, p)
		}
	}
	if len(out) < n {
		t.Fatalf("only %d declarations are found by their docstring on a clean build", len(out))
	}
	return out
}

// findable checks that searching each probe's docstring returns its
// declaration among the first 20 hits.
func findable(t *testing.T, ws workspace, cache string, probes []probe, when string) {
	t.Helper()
	for _, p := range probes {
		if !found(t, ws, cache, p) {
			t.Fatalf("%s: searching the docstring of %s (%q) does not find it", when, p.name, p.query)
		}
	}
}

// found reports whether searching p's docstring returns p's declaration
// among the first 20 hits.
func found(t *testing.T, ws workspace, cache string, p probe) bool {
	t.Helper()
	out := run(t, ws, cache, "search", "--root", ws.dir, "--cache", cache, "--json", "-k", "20", p.query)
	var hits []struct{ Name string }
	if err := json.Unmarshal(out, &hits); err != nil {
		t.Fatalf("search output: %v", err)
	}
	for _, h := range hits {
		if h.Name == p.name {
			return true
		}
	}
	return false
}

// run runs one drift-lsp command to completion and returns its stdout.
func run(t *testing.T, ws workspace, cache string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), coldLimit(ws))
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = env(t, cache)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("drift-lsp %q: %v\n%s", args, err, stderr.String())
	}
	return out.Bytes()
}

// killAfter starts a cold search and sends it SIGKILL after d; it reports
// whether the process was still running then.
func killAfter(t *testing.T, ws workspace, cache string, d time.Duration, query string) bool {
	t.Helper()
	cmd := exec.Command(binary, "search", "--root", ws.dir, "--cache", cache, "--json", query)
	cmd.Env = env(t, cache)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	select {
	case <-exited:
		return false
	case <-time.After(d):
	}
	_ = cmd.Process.Kill()
	<-exited
	return true
}

// trimSeconds drops the "seconds" field of `index --json` output.
func trimSeconds(b []byte) []byte {
	if i := bytes.Index(b, []byte(`,"seconds":`)); i >= 0 {
		if j := bytes.IndexByte(b[i+1:], '}'); j >= 0 {
			return append(append([]byte(nil), b[:i]...), b[i+1+j:]...)
		}
	}
	return b
}

// firstDiff shows the first differing line of two outputs with context.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		if i >= len(g) || i >= len(w) || g[i] != w[i] {
			lo := max(0, i-3)
			return fmt.Sprintf("line %d\n--- restarted:\n%s\n--- clean:\n%s", i+1,
				strings.Join(g[lo:min(len(g), i+4)], "\n"), strings.Join(w[lo:min(len(w), i+4)], "\n"))
		}
	}
	return ""
}
