package main

import (
	"bytes"
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/cmd/internal/mcpserver"
	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/leanrepl/leantest"
)

// fakeEmbeddings serves /v1/embeddings as OpenAI does, with a bag of
// hashed words as each text's vector: texts that share words are near.
func fakeEmbeddings(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
			Model string   `json:"model"`
		}
		if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		}
		data := make([]item, len(req.Input))
		for i, text := range req.Input {
			v := make([]float32, 32)
			for _, word := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !('a' <= r && r <= 'z') }) {
				h := fnv.New32a()
				h.Write([]byte(word))
				v[h.Sum32()%32]++
			}
			var n float64
			for _, x := range v {
				n += float64(x * x)
			}
			for j := range v {
				v[j] /= float32(math.Max(math.Sqrt(n), 1))
			}
			data[i] = item{"embedding", v, i}
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data,
			"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCommandRanksAsServer: from the same environment, with an embedder
// configured, `drift-lsp retrieve` and the server's workspace (app.Open
// under app.ServerOptions' settings, as serve and mcp open it) use the same
// index cache and rank the same hits with the same scores, the dense
// channel included.
func TestCommandRanksAsServer(t *testing.T) {
	ws, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	srv := fakeEmbeddings(t)
	env := map[string]string{
		"DRIFT_CACHE_DIR": cache, "DRIFT_EMBED_PROVIDER": "openai", "DRIFT_EMBED_BASE_URL": srv.URL + "/v1",
		"DRIFT_EMBED_MODEL": "bag-of-words", "DRIFT_LLM_BASE_URL": "", "DRIFT_LLM_LOCAL": "off", "DRIFT_REPL": "",
		"DRIFT_LEAN": "", "ELAN_HOME": filepath.Join(ws, ".no-elan"), "DRIFT_ROOTS": "",
	}
	for k, v := range env {
		t.Setenv(k, v)
	}
	t.Setenv("PATH", t.TempDir()) // no Lean from the machine
	const query = "every prime number other than two is odd"

	// The server's settings and workspace.
	opts := app.ServerOptions(settings.FromEnv(os.Getenv))
	if got := addIndexFlags(newFlagSet("x", io.Discard)).cache; got != cache || opts.Base.Cache() != cache {
		t.Fatalf("cache: command %q, server %q, want %q", got, opts.Base.Cache(), cache)
	}
	ctx := context.Background()
	w, err := app.Open(ctx, *opts.Base, ws, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := waitEngine(ctx, w.Engine()); err != nil {
		t.Fatal(err)
	}
	hits, err := w.Engine().Retrieve(ctx, query, nil, 5)
	if err != nil {
		t.Fatal(err)
	}

	// The command's.
	var out, errb bytes.Buffer
	if rc := dispatch([]string{"retrieve", "--json", "-k", "5", "--root", ws, query}, &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	var res struct {
		Premises []mcpserver.Hit `json:"premises"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	cli := res.Premises
	if len(cli) != len(hits) || len(cli) == 0 {
		t.Fatalf("command: %d hits, server: %d", len(cli), len(hits))
	}
	dense := 0
	for i, h := range hits {
		if cli[i].Name != h.Decl.Name || math.Abs(cli[i].Score-h.Score) > 1e-9 {
			t.Errorf("hit %d: command %s %.4f, server %s %.4f", i, cli[i].Name, cli[i].Score, h.Decl.Name, h.Score)
		}
		if _, ok := cli[i].Channels["dense"]; ok {
			dense++
		}
	}
	if dense == 0 {
		t.Errorf("the command ranked without the embedder: %+v", cli)
	}
	libs, _ := filepath.Glob(filepath.Join(cache, "library-*.lib"))
	if len(libs) != 1 {
		t.Errorf("library snapshots in the shared cache: %v, want one", libs)
	}
}

// TestCommandChecksAsServer: from the same environment (DRIFT_LEAN naming
// Lean, no flag), `drift-lsp check` and the server's workspace build the
// same checker: the same backend and command run Lean, with the same
// verdict.
func TestCommandChecksAsServer(t *testing.T) {
	lean := leantest.Binary(t)
	root := leantest.PreludeWorkspace(t)
	for k, v := range map[string]string{"DRIFT_CACHE_DIR": t.TempDir(), "DRIFT_EMBED_PROVIDER": "none", "DRIFT_LLM_BASE_URL": "",
		"DRIFT_LLM_LOCAL": "off", "DRIFT_REPL": "", "DRIFT_LEAN": lean, "DRIFT_ROOTS": ""} {
		t.Setenv(k, v)
	}
	const stub = "theorem add_comm' (m n : Nat) : Eq (Nat.add m n) (Nat.add n m) := sorry"
	ctx := context.Background()
	w, err := app.Open(ctx, settings.FromEnv(os.Getenv), root, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Engine().WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
	rep, err := w.Check(ctx, leanrepl.CheckRequest{Header: leantest.PreludeHeader, Stub: stub})
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if rc := dispatch([]string{"check", "--json", "--root", root, "--header", leantest.PreludeHeader, stub}, &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s%s", rc, out.String(), errb.String())
	}
	var cli checkOutput
	if err := json.Unmarshal(out.Bytes(), &cli); err != nil {
		t.Fatal(err)
	}
	if !rep.LeanRan || cli.LeanBackend != rep.LeanBackend || cli.LeanCommand != rep.LeanCommand || cli.LeanOK != rep.LeanOK || !cli.LeanOK {
		t.Errorf("command: %s %q ok=%v; server: %s %q ran=%v ok=%v", cli.LeanBackend, cli.LeanCommand, cli.LeanOK,
			rep.LeanBackend, rep.LeanCommand, rep.LeanRan, rep.LeanOK)
	}
}

// TestCommandFormalizesAsServer: from the same environment, `formalize`,
// the server's workspace (app.Open under app.ServerOptions' settings) and
// MCP's (app.Open under the commands' settings, as runMCP opens it) run the
// pipeline with the same parameters, the editor's repair budget included;
// a flag overrides the settings for the command alone, and the benchmark's
// configurations keep the settings' repairs and retrieval.
func TestCommandFormalizesAsServer(t *testing.T) {
	ws, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"DRIFT_CACHE_DIR": t.TempDir(), "DRIFT_EMBED_PROVIDER": "none", "DRIFT_LLM_BASE_URL": "",
		"DRIFT_LLM_LOCAL": "off", "DRIFT_REPL": "", "DRIFT_LEAN": "", "DRIFT_ROOTS": "", "ELAN_HOME": filepath.Join(ws, ".no-elan"),
		"DRIFT_SAMPLES": "3", "DRIFT_REPAIR_BUDGET": "2"} {
		t.Setenv(k, v)
	}
	t.Setenv("PATH", t.TempDir())
	ctx := context.Background()
	open := func(s settings.Settings) drift.Params {
		w, err := app.Open(ctx, s, ws, func(string, ...any) {})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		return w.PipelineParams()
	}
	server := open(*app.ServerOptions(settings.FromEnv(os.Getenv)).Base)
	mcp := open(envSettings(io.Discard))
	command := func(args ...string) drift.Params {
		fs := newFlagSet("formalize", io.Discard)
		pf := addPipelineFlags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return drift.NewWith(nil, nil, nil, nil, pf.params(envSettings(io.Discard))).Params()
	}
	cli := command()
	if server.Samples != 3 || server.RepairBudget != 2 || cli != server || mcp != server {
		t.Errorf("params:\ncommand %+v\nserver  %+v\nmcp     %+v", cli, server, mcp)
	}
	flagged := command("--samples", "5", "--repair", "0")
	want := server
	want.Samples, want.RepairBudget = 5, 0
	want.CallBudget = 0
	want = drift.NewWith(nil, nil, nil, nil, want).Params()
	if flagged != want {
		t.Errorf("with flags: %+v, want %+v", flagged, want)
	}
	for _, c := range benchConfigs(app.PipelineParams(envSettings(io.Discard))) {
		p := drift.NewWith(nil, nil, nil, nil, c.Params).Params()
		if p.K != server.K || p.M != server.M || p.PerSubQuery != server.PerSubQuery ||
			(c.Name == "full" || c.Name == "full+plain") && (p.RepairBudget != server.RepairBudget || p.NoNameRepair || p.NoConditionRepair) {
			t.Errorf("bench %s: %+v, server %+v", c.Name, p, server)
		}
	}
}
