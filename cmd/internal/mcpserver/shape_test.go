package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// cliFormalizeGolden is drift-lsp formalize --json on the same workspace
// with the same fake model (cmd/drift-lsp's TestJSONGolden pins it).
var cliFormalizeGolden = filepath.Join("..", "..", "drift-lsp", "testdata", "json", "formalize.json")

// TestFormalizeShapeAsCLI: the formalize tool's structured output has the
// shape of formalize --json's golden, key for key at every depth: one type
// (FormalizeOutput, made by app.FormalizedOf) serves both edges.
func TestFormalizeShapeAsCLI(t *testing.T) {
	model := llmtest.New(t, llmtest.Workspace())
	t.Cleanup(model.Close)
	getenv := env(t, model.URL)
	// As the CLI's golden is made: Formalize's grammar report present.
	withGrammar := func(k string) string {
		if k == "DRIFT_LLM_GRAMMAR" {
			return "llama.cpp"
		}
		return getenv(k)
	}
	_, cs := open(t, workspaceDir, withGrammar, nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "formalize",
		Arguments: map[string]any{"statement": "Every prime number greater than 2 is odd.", "name": "odd_of_two_lt"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("tool error %s", textOf(res))
	}
	var got any
	decode(t, res, &got)
	b, err := os.ReadFile(cliFormalizeGolden)
	if err != nil {
		t.Fatal(err)
	}
	var want any
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if diffs := shapeDiff(shapeOf(want), shapeOf(got), ""); len(diffs) > 0 {
		t.Errorf("the formalize tool's output and formalize --json (%s) differ in shape:\n%s", cliFormalizeGolden, strings.Join(diffs, "\n"))
	}
	// The golden's shape is the whole type's: no field is left null or
	// empty there, so every key above was compared.
	if empty := emptyPaths(want, ""); len(empty) > 0 {
		t.Logf("not compared below (null or empty in the golden): %s", strings.Join(empty, ", "))
	}
}

// optionalKeys are members written only when set (omitempty).
var optionalKeys = map[string]bool{"doc": true, "not_applied": true, "error": true, "per_stage": true, "stages": true}

// shapeOf replaces each value by its JSON type; a list becomes one element,
// the union of its elements' shapes.
func shapeOf(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = shapeOf(e)
		}
		return out
	case []any:
		var merged any
		for _, e := range x {
			merged = union(merged, shapeOf(e))
		}
		if merged == nil {
			return []any{}
		}
		return []any{merged}
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	}
	return fmt.Sprintf("%T", v)
}

// union merges two shapes of list elements (objects: every key of either).
func union(a, b any) any {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		if a == nil || a == "null" {
			return b
		}
		return a
	}
	out := map[string]any{}
	for k, v := range am {
		out[k] = v
	}
	for k, v := range bm {
		out[k] = union(out[k], v)
	}
	return out
}

// shapeDiff lists where two shapes differ; a null or an empty list on
// either side matches anything there.
func shapeDiff(want, got any, path string) []string {
	if want == "null" || got == "null" {
		return nil
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: object in the golden, %v in the tool's", path, got)}
		}
		var out []string
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			wv, inW := w[k]
			gv, inG := g[k]
			switch {
			case !inG && !optionalKeys[k]:
				out = append(out, fmt.Sprintf("%s.%s: only in the golden", path, k))
			case !inW && !optionalKeys[k]:
				out = append(out, fmt.Sprintf("%s.%s: only in the tool's output", path, k))
			case inW && inG:
				out = append(out, shapeDiff(wv, gv, path+"."+k)...)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: list in the golden, %v in the tool's", path, got)}
		}
		if len(w) == 0 || len(g) == 0 {
			return nil
		}
		return shapeDiff(w[0], g[0], path+"[]")
	}
	if want != got {
		return []string{fmt.Sprintf("%s: %v in the golden, %v in the tool's", path, want, got)}
	}
	return nil
}

// emptyPaths lists the members of v that are null or empty lists.
func emptyPaths(v any, path string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if l, ok := e.([]any); e == nil || ok && len(l) == 0 {
				out = append(out, path+"."+k)
				continue
			}
			out = append(out, emptyPaths(e, path+"."+k)...)
		}
	case []any:
		for _, e := range x {
			out = append(out, emptyPaths(e, path+"[]")...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
