package mcpserver_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/cmd/internal/mcpserver"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// workspaceDir is the demo workspace the tests serve.
var workspaceDir = filepath.Join("..", "..", "..", "testdata", "workspace")

// env is a test's whole environment: a private cache, no dense retrieval,
// no local model, the fake model at url ("" for none), answers not cached.
func env(t testing.TB, url string) func(string) string {
	home := t.TempDir()
	m := map[string]string{"HOME": home, "XDG_CACHE_HOME": home, "DRIFT_CACHE_DIR": filepath.Join(home, "cache"),
		"DRIFT_EMBED_PROVIDER": "none", "DRIFT_LLM_LOCAL": "off", "DRIFT_LLM_CACHE": "off"}
	if url != "" {
		m["DRIFT_LLM_BASE_URL"], m["DRIFT_LLM_MODEL"], m["DRIFT_LLM_API_KEY_ENV"] = url, "fake-model", "DRIFT_TEST_NO_KEY"
	}
	return func(k string) string { return m[k] }
}

// open opens the workspace at root as drift-lsp mcp does and returns it
// with a client session connected to its server over the SDK's in-memory
// transport.
func open(t testing.TB, root string, getenv func(string) string, copts *mcp.ClientOptions) (*app.Workspace, *mcp.ClientSession) {
	t.Helper()
	return openWith(t, root, getenv, copts, mcpserver.Options{Version: "test"})
}

// openWith is open with the server's options.
func openWith(t testing.TB, root string, getenv func(string) string, copts *mcp.ClientOptions, opts mcpserver.Options) (*app.Workspace, *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := app.Open(ctx, settings.FromEnv(getenv), mustAbs(t, root), func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpserver.New(app.MCP(w), opts)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		_ = ss.Wait()
		cancel()
		_ = w.Close()
	})
	return w, cs
}

// mustAbs returns the absolute path of p.
func mustAbs(t testing.TB, p string) string {
	t.Helper()
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// call calls a tool with raw JSON arguments.
func call(t testing.TB, cs *mcp.ClientSession, name, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: protocol error %v", name, args, err)
	}
	return res
}

// textOf joins a result's text content.
func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// decode unmarshals a result's structured content into v.
func decode(t testing.TB, res *mcp.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
}

// checkView is the check tool's output as a client reads it: severities
// are words.
type checkView struct {
	mcpserver.CheckOutput
	Findings []struct {
		Severity string `json:"severity"`
		Code     string `json:"code"`
	} `json:"findings"`
}

func names[T any](xs []T, name func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = name(x)
	}
	return out
}

// TestTools calls every tool on the demo workspace and checks its
// structured output and its text.
func TestTools(t *testing.T) {
	_, cs := open(t, workspaceDir, env(t, ""), nil)
	cases := []struct {
		tool, args string
		check      func(t *testing.T, res *mcp.CallToolResult)
	}{
		{"search", `{"query":"prime number","k":3}`, func(t *testing.T, res *mcp.CallToolResult) {
			var out mcpserver.SearchOutput
			decode(t, res, &out)
			if len(out.Hits) == 0 || len(out.Hits) > 3 || out.Hits[0].Name != "Mm.Prime" {
				t.Fatalf("hits %v, want Mm.Prime first, at most 3", names(out.Hits, func(h mcpserver.Hit) string { return h.Name }))
			}
			if h := out.Hits[0]; !filepath.IsAbs(h.File) || !strings.HasSuffix(h.File, filepath.Join("Minimath", "Basic.lean")) || h.Line != 107 {
				t.Errorf("Mm.Prime at %s:%d, want the absolute path of Minimath/Basic.lean, line 107", h.File, h.Line)
			}
			if !strings.Contains(textOf(res), "1. Mm.Prime  [def]") {
				t.Errorf("text %q", textOf(res))
			}
		}},
		{"search", `{"query":"prime","kind":"theorem"}`, func(t *testing.T, res *mcp.CallToolResult) {
			var out mcpserver.SearchOutput
			decode(t, res, &out)
			if len(out.Hits) == 0 {
				t.Fatal("no theorem about primes")
			}
			for _, h := range out.Hits {
				if h.Kind != "theorem" {
					t.Errorf("%s is a %s, want only theorems", h.Name, h.Kind)
				}
			}
		}},
		{"check_names", `{"names":["Mm.Prime","Mm.IsOdd","Prime","Nat","_root_.Mm.Odd"]}`, func(t *testing.T, res *mcp.CallToolResult) {
			var out mcpserver.CheckNamesOutput
			decode(t, res, &out)
			want := []struct {
				known bool
				kind  string
				match string
			}{{true, "def", "exact"}, {false, "", "missing"}, {false, "", "suffix"}, {true, "", "partial"}, {true, "def", "exact"}}
			if len(out.Names) != len(want) || out.Unknown != 2 {
				t.Fatalf("got %+v, want %d entries, 2 unknown", out, len(want))
			}
			for i, w := range want {
				if n := out.Names[i]; n.Known != w.known || n.Kind != w.kind || n.Match != w.match {
					t.Errorf("%s: known %v kind %q match %q, want %v %q %q", n.Name, n.Known, n.Kind, n.Match, w.known, w.kind, w.match)
				}
			}
			if s := out.Names[1].Suggestions; !slices.Contains(s, "Mm.Odd") {
				t.Errorf("Mm.IsOdd: suggestions %v, want Mm.Odd among them", s)
			}
			if r := out.Names[2].Resolved; !slices.Contains(r, "Mm.Prime") {
				t.Errorf("Prime: resolved %v, want Mm.Prime (the namespace to open)", r)
			}
			if !strings.Contains(textOf(res), "Mm.IsOdd: UNKNOWN; did you mean") {
				t.Errorf("text %q", textOf(res))
			}
		}},
		{"declaration", `{"name":"Mm.Prime"}`, func(t *testing.T, res *mcp.CallToolResult) {
			var out mcpserver.DeclarationOutput
			decode(t, res, &out)
			if out.Source != "def Prime (p : Nat) : Prop := 2 ≤ p ∧ ∀ m, m ∣ₘ p → m = 1 ∨ m = p" || out.Line != 107 || !strings.HasPrefix(out.Doc, "A natural number `p` is prime") {
				t.Errorf("got %+v", out)
			}
		}},
		{"declaration", `{"name":"prime_divisors"}`, func(t *testing.T, res *mcp.CallToolResult) {
			var out mcpserver.DeclarationOutput
			decode(t, res, &out)
			if out.Name != "DriftExample.Primes.prime_divisors" || out.ResolvedFrom != "prime_divisors" || !strings.HasPrefix(out.Source, "theorem prime_divisors") {
				t.Errorf("got %+v, want the one declaration ending in prime_divisors", out)
			}
		}},
		{"retrieve", `{"statement":"Every prime number greater than 2 is odd.","k":4,"m":2}`, func(t *testing.T, res *mcp.CallToolResult) {
			var out mcpserver.RetrieveOutput
			decode(t, res, &out)
			got := names(out.Premises, func(d mcpserver.Decl) string { return d.Name })
			if len(got) != 4 || !slices.Contains(got, "Mm.Prime") || !slices.Contains(got, "Mm.Odd") {
				t.Errorf("premises %v, want 4 with Mm.Prime and Mm.Odd", got)
			}
			if len(out.Illustrative) == 0 || len(out.Illustrative) > 2 || out.Coverage <= 0 {
				t.Errorf("illustrative %+v coverage %v", out.Illustrative, out.Coverage)
			}
		}},
		{"check", `{"stub":"theorem t (p : Nat) (hp : Mm.Prime p) (h : 2 < p) : Mm.IsOdd p := by sorry"}`, func(t *testing.T, res *mcp.CallToolResult) {
			var out checkView
			decode(t, res, &out)
			if !out.GatePassed || out.Passed || len(out.Unknown) != 1 || out.Unknown[0].Name != "Mm.IsOdd" || out.LeanRan {
				t.Errorf("report %+v, want the gate passed and Mm.IsOdd unknown", out.ReportJSON)
			}
			if !strings.Contains(textOf(res), "unknown name `Mm.IsOdd`") {
				t.Errorf("text %q", textOf(res))
			}
		}},
		{"check", `{"stub":"theorem t (p : Nat) (hp : Mm.Prime p) (h : 2 < p) : Mm.Odd p := by sorry","header":"import DriftExample"}`, func(t *testing.T, res *mcp.CallToolResult) {
			var out checkView
			decode(t, res, &out)
			if !out.Passed || out.Header != "import DriftExample" || out.LeanSkipped == "" {
				t.Errorf("report %+v, want passed without Lean under the header given", out)
			}
		}},
		{"lint_docs", `{}`, func(t *testing.T, res *mcp.CallToolResult) {
			var out mcpserver.LintDocsOutput
			decode(t, res, &out)
			if out.Files != 8 || out.Total != 0 {
				t.Errorf("got %+v, want the workspace's 8 own files (lakefile.lean too, not its package's) linted, no findings", out)
			}
		}},
		{"lint_docs", `{"path":"DriftExample/Primes.lean"}`, func(t *testing.T, res *mcp.CallToolResult) {
			var out mcpserver.LintDocsOutput
			decode(t, res, &out)
			if out.Files != 1 {
				t.Errorf("got %+v, want one file", out)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			res := call(t, cs, c.tool, c.args)
			if res.IsError {
				t.Fatalf("%s %s: tool error %s", c.tool, c.args, textOf(res))
			}
			c.check(t, res)
		})
	}
}

// TestBadInput: each bad call gets a tool error that says what is wrong,
// and the server keeps serving.
func TestBadInput(t *testing.T) {
	_, cs := open(t, workspaceDir, env(t, ""), nil)
	huge := strings.Repeat("x", 20<<10)
	many := `["` + strings.Repeat(`a","`, 300) + `a"]`
	cases := []struct {
		name, tool, args, want string
	}{
		{"unknown tool", "prove_it", `{}`, `unknown tool "prove_it"; the tools are search, check_names`},
		{"wrong type", "search", `{"query":5}`, `validating "arguments"`},
		{"wrong type of k", "search", `{"query":"gcd","k":"five"}`, `validating "arguments"`},
		{"missing argument", "declaration", `{}`, `missing properties: ["name"]`},
		{"blank argument", "declaration", `{"name":" "}`, `name is empty`},
		{"unknown argument", "search", `{"query":"gcd","limit":3}`, `validating "arguments"`},
		{"huge query", "search", `{"query":"` + huge + `"}`, "query is 20480 bytes, more than the limit of 16384"},
		{"k out of range", "search", `{"query":"gcd","k":1000}`, "k is 1000; it must be between 1 and 100"},
		{"negative m", "retrieve", `{"statement":"gcd","m":-1}`, "m is -1"},
		{"unknown kind", "search", `{"query":"gcd","kind":"lemma"}`, `unknown kind "lemma"; the kinds are def, theorem`},
		{"too many names", "check_names", `{"names":` + many + `}`, "names has 301 entries, more than the limit of 256"},
		{"no names", "check_names", `{"names":[]}`, "names is empty"},
		{"not a name", "check_names", `{"names":["Mm.Prime","Nat.Prime p"]}`, `names[1] is not a Lean name: "Nat.Prime p"`},
		{"long name", "declaration", `{"name":"Mm.` + strings.Repeat("x", 600) + `"}`, "more than the limit of 512 for a name"},
		{"names too large in all", "check_names", `{"names":[` + strings.Repeat(`"Mm.`+strings.Repeat("x", 500)+`",`, 40) + `"Mm.Prime"]}`, "names hold more than 16384 bytes in all"},
		{"unknown declaration", "declaration", `{"name":"Mm.IsOdd"}`, "no declaration named Mm.IsOdd; did you mean"},
		{"#eval", "check", `{"stub":"#eval IO.println 1"}`, "the command #eval"},
		{"run_cmd", "check", `{"stub":"theorem t : True := by sorry\nrun_cmd pure ()"}`, "run_cmd"},
		{"import", "check", `{"stub":"import Mathlib\ntheorem t : True := by sorry"}`, "import"},
		{"a proof", "check", `{"stub":"theorem t : True := trivial"}`, "sorry"},
		{"huge stub", "check", `{"stub":"` + huge + `"}`, "stub is 20480 bytes"},
		{"bad name", "formalize", `{"statement":"1 + 1 = 2","name":"two plus two"}`, "is not a Lean identifier"},
		{"no model", "formalize", `{"statement":"1 + 1 = 2"}`, "no model configured"},
		{"path outside", "lint_docs", `{"path":"/nonexistent"}`, "no indexed Lean file at or under /nonexistent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, cs, c.tool, c.args)
			text := textOf(res)
			// A stub the gate refuses is a tool error that carries the
			// report saying why.
			if c.tool == "check" && !strings.Contains(c.name, "huge") {
				var out checkView
				decode(t, res, &out)
				if !res.IsError || out.GatePassed || out.LeanRan || !strings.Contains(out.GateReason, c.want) || !strings.Contains(text, "REJECTED by the safety gate") {
					t.Fatalf("report %+v (isError %v, text %q), want a tool error: the gate refused it (%q), Lean not run", out.ReportJSON, res.IsError, text, c.want)
				}
				return
			}
			if !res.IsError || !strings.Contains(text, c.want) {
				t.Fatalf("isError %v, text %q; want a tool error containing %q", res.IsError, text, c.want)
			}
		})
	}
	if res := call(t, cs, "search", `{"query":"gcd"}`); res.IsError {
		t.Fatalf("the server stopped serving after bad input: %s", textOf(res))
	}
}

// TestToolsGolden: the tool list (names, descriptions, schemas) is the
// golden file's; run with -update after a deliberate change.
func TestToolsGolden(t *testing.T) {
	_, cs := open(t, workspaceDir, env(t, ""), nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.MarshalIndent(res.Tools, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "tools.golden.json")
	if *update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(got)+"\n" {
		t.Errorf("tools/list differs from %s (go test -update to accept):\n%s", golden, got)
	}
	for _, tool := range res.Tools {
		if n := strings.Count(strings.TrimSuffix(tool.Description, "."), ". "); !strings.HasPrefix(tool.Description, "Use ") || n > 0 {
			t.Errorf("%s: description %q is not one sentence saying when to use it", tool.Name, tool.Description)
		}
	}
}

// TestFormalize runs the pipeline with the fake model through the tool and
// receives its progress notifications.
func TestFormalize(t *testing.T) {
	model := llmtest.New(t, llmtest.Workspace())
	t.Cleanup(model.Close)
	var mu sync.Mutex
	var events []string
	copts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, req.Params.Message)
	}}
	_, cs := open(t, workspaceDir, env(t, model.URL), copts)
	params := &mcp.CallToolParams{Name: "formalize", Arguments: map[string]any{"statement": "Every prime number greater than 2 is odd.", "name": "odd_of_prime_gt_two"}}
	params.SetProgressToken("f1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("tool error %s", textOf(res))
	}
	var out mcpserver.FormalizeOutput
	decode(t, res, &out)
	if !strings.HasPrefix(out.Stub, "theorem odd_of_prime_gt_two") || !strings.HasSuffix(out.Stub, "sorry") || out.Report == nil || !out.Report.GatePassed || out.Usage.Calls == 0 {
		t.Errorf("got %+v, want a stub named odd_of_prime_gt_two that passed the gate", out)
	}
	if !strings.Contains(textOf(res), out.Stub) {
		t.Errorf("text %q lacks the stub", textOf(res))
	}
	// Notifications may trail the response: the pipeline's last stages are
	// reported before it returns, so at least the first ones are here.
	mu.Lock()
	defer mu.Unlock()
	if len(events) == 0 || !strings.HasPrefix(events[0], "[") {
		t.Errorf("progress %q, want the pipeline's stages", events)
	}
}

// TestFormalizeCancelled: cancelling a formalize call stops the pipeline
// (the model's request is dropped) and the server keeps serving.
func TestFormalizeCancelled(t *testing.T) {
	started := make(chan struct{})
	var once sync.Once
	ws := llmtest.Workspace()
	model := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply {
		if llmtest.StageOf(req) == llm.StageInformalize {
			return ws(n, req)
		}
		once.Do(func() { close(started) })
		return llmtest.Reply{Delay: time.Hour}
	})
	t.Cleanup(model.Close)
	logged := make(chan string, 16)
	logf := func(format string, args ...any) { logged <- fmt.Sprintf(format, args...) }
	_, cs := openWith(t, workspaceDir, env(t, model.URL), nil, mcpserver.Options{Logf: logf})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "formalize", Arguments: map[string]any{"statement": "Every prime number greater than 2 is odd."}})
		errc <- err
	}()
	<-started
	cancel()
	if err := <-errc; err == nil {
		t.Fatal("the cancelled call returned no error")
	}
	// The server's handler saw the cancellation: its call ended with a
	// tool error that says so.
	if line := <-logged; !strings.Contains(line, "formalize: cancelled") {
		t.Errorf("log %q, want the formalize call cancelled", line)
	}
	if res := call(t, cs, "search", `{"query":"gcd"}`); res.IsError {
		t.Fatalf("the server stopped serving after a cancelled call: %s", textOf(res))
	}
}

// TestFollowsEdits: a file written to the workspace while the server runs
// is searched, its names are known and its comments linted, as in the
// language server (the engine's file watcher).
func TestFollowsEdits(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(workspaceDir)); err != nil {
		t.Fatal(err)
	}
	w, cs := open(t, root, env(t, ""), nil)
	if res := call(t, cs, "check_names", `{"names":["DriftExample.Twin.twin_prime_pair"]}`); !strings.Contains(textOf(res), "UNKNOWN") {
		t.Fatalf("the name is known before the file exists: %s", textOf(res))
	}
	e := w.Engine()
	changed := e.Changed()
	src := "namespace DriftExample.Twin\n\n/-- **Twin primes**: `p` and `p + 2` are both prime; see `DriftExample.Primes.prime_divisor`. -/\n" +
		"def twin_prime_pair (p : Nat) : Prop := Mm.Prime p ∧ Mm.Prime (p + 2)\n\nend DriftExample.Twin\n"
	if err := os.WriteFile(filepath.Join(root, "DriftExample", "Twin.lean"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatal("the index did not take in the new file")
		}
		changed = e.Changed()
		if _, ok := e.Lookup("DriftExample.Twin.twin_prime_pair"); ok {
			break
		}
	}
	var names mcpserver.CheckNamesOutput
	decode(t, call(t, cs, "check_names", `{"names":["DriftExample.Twin.twin_prime_pair"]}`), &names)
	if !names.Names[0].Known || names.Names[0].Kind != "def" {
		t.Errorf("after the edit: %+v", names.Names[0])
	}
	var hits mcpserver.SearchOutput
	decode(t, call(t, cs, "search", `{"query":"twin primes","k":3}`), &hits)
	if len(hits.Hits) == 0 || hits.Hits[0].Name != "DriftExample.Twin.twin_prime_pair" {
		t.Errorf("search after the edit: %+v", hits.Hits)
	}
	var lint mcpserver.LintDocsOutput
	decode(t, call(t, cs, "lint_docs", `{"path":"DriftExample/Twin.lean"}`), &lint)
	if lint.Total != 1 || lint.Findings[0].Name != "DriftExample.Primes.prime_divisor" || lint.Findings[0].Line != 3 || !slices.Contains(lint.Findings[0].Suggestions, "DriftExample.Primes.prime_divisors") {
		t.Errorf("lint after the edit: %+v", lint)
	}
}

// TestSharedIndex: servers opened at once on one cache (an editor's and an
// agent's) both serve, and a later one opens the stored indexes rather
// than building them again.
func TestSharedIndex(t *testing.T) {
	getenv := env(t, "")
	logs := make([][]string, 3)
	var mu sync.Mutex
	openLogged := func(i int) *app.Workspace {
		w, err := app.Open(context.Background(), settings.FromEnv(getenv), mustAbs(t, workspaceDir), func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			logs[i] = append(logs[i], fmt.Sprintf(format, args...))
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Close() })
		return w
	}
	a, b := openLogged(0), openLogged(1)
	for _, w := range []*app.Workspace{a, b} {
		if err := w.Engine().WaitReady(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, ok := w.Engine().Lookup("Mm.Prime"); !ok {
			t.Fatal("a concurrently opened workspace lacks Mm.Prime")
		}
	}
	c := openLogged(2)
	if err := c.Engine().WaitReady(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.ContainsFunc(logs[2], func(l string) bool { return strings.Contains(l, "indexes opened") }) {
		t.Errorf("the third server did not open the stored indexes: %q", logs[2])
	}
}
