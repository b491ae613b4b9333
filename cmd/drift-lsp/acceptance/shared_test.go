package acceptance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestSharedWorkspace checks issue 11's first acceptance point: a language
// server, a CLI search and a second language server on one workspace with
// one cache directory all answer within 10 s of the first index being
// ready (today the second process blocks on the lexical index's lock).
func TestSharedWorkspace(t *testing.T) {
	for _, ws := range workspaces(t) {
		t.Run(ws.name, func(t *testing.T) {
			cache := t.TempDir()
			environ := env(t, cache)
			settings := map[string]any{"cacheDir": cache, "embedding": map[string]any{"provider": "none"}}
			first := startServer(t, environ, ws.dir, settings)
			ctx, cancel := context.WithTimeout(context.Background(), coldLimit(ws))
			defer cancel()
			if names, err := first.symbols(ctx, ws.query); err != nil || !slices.Contains(names, ws.want) {
				t.Fatalf("first server: %q, %v (want %s)\n%s", names, err, ws.want, first.log())
			}
			ready := time.Now()
			deadline, cancel2 := context.WithDeadline(context.Background(), ready.Add(10*time.Second))
			defer cancel2()

			var wg sync.WaitGroup
			errs := make([]error, 3)
			wg.Add(3)
			go func() { // the first server keeps answering
				defer wg.Done()
				names, err := first.symbols(deadline, ws.query)
				errs[0] = check("first server again", names, err, ws.want, first.log)
			}()
			go func() {
				defer wg.Done()
				cmd := exec.CommandContext(deadline, binary, "search", "--root", ws.dir, "--cache", cache, "--json", "-k", "20", ws.query)
				cmd.Env = environ
				var out, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &stderr
				err := cmd.Run()
				var hits []struct{ Name string }
				if err == nil {
					err = json.Unmarshal(out.Bytes(), &hits)
				}
				var names []string
				for _, h := range hits {
					names = append(names, h.Name)
				}
				errs[1] = check("CLI search", names, err, ws.want, stderr.String)
			}()
			go func() {
				defer wg.Done()
				second := startServer(t, environ, ws.dir, settings)
				names, err := second.symbols(deadline, ws.query)
				errs[2] = check("second server", names, err, ws.want, second.log)
			}()
			wg.Wait()
			failed := false
			for _, err := range errs {
				if err != nil {
					t.Error(err)
					failed = true
				}
			}
			if failed {
				return
			}
			t.Logf("all three answered %.2fs after the first index was ready", time.Since(ready).Seconds())
		})
	}
}

// check reports a process that failed to answer or whose answer misses want.
func check(who string, names []string, err error, want string, log func() string) error {
	if err != nil {
		return fmt.Errorf("%s: no answer within 10 s of the first index being ready: %v\n%s", who, err, log())
	}
	if !slices.Contains(names, want) {
		return fmt.Errorf("%s: answer %q lacks %s", who, names, want)
	}
	return nil
}

// coldLimit bounds the first, cold index build.
func coldLimit(ws workspace) time.Duration {
	if ws.name == "mathlib" {
		return 10 * time.Minute
	}
	return time.Minute
}
