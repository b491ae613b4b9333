package embed

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeEmbeddings serves /v1/embeddings like OpenAI: vectors derived from the
// input text, returned in reverse order with their indices.
func fakeEmbeddings(t *testing.T, key string, calls *atomic.Int32) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/v1/embeddings" || r.Method != http.MethodPost {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+key {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`)
			return
		}
		var req struct {
			Input []string `json:"input"`
			Model string   `json:"model"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		type item struct {
			Object    string    `json:"object"`
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		}
		var data []item
		for i := len(req.Input) - 1; i >= 0; i-- {
			if req.Input[i] == "" {
				http.Error(w, "empty input", http.StatusBadRequest)
				return
			}
			data = append(data, item{"embedding", []float32{float32(len(req.Input[i])), 3, 4}, i})
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": req.Model, "data": data,
			"usage": map[string]int{"prompt_tokens": 1, "total_tokens": 1}})
	}))
}

func TestOpenAIEmbedder(t *testing.T) {
	const key = "sk-test-secret-123"
	var calls atomic.Int32
	srv := fakeEmbeddings(t, key, &calls)
	defer srv.Close()
	e, err := NewOpenAI(OpenAIOptions{BaseURL: srv.URL, Model: "test-embed", APIKey: key, BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if e.Dim() != 0 || e.Name() != "openai:test-embed" {
		t.Errorf("before first call: Dim %d Name %q", e.Dim(), e.Name())
	}
	texts := []string{"a", "bbbb", "", "cc", "ddddd"}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if got := calls.Load(); got != 3 {
		t.Errorf("%d requests for 5 texts in batches of 2, want 3", got)
	}
	if e.Dim() != 3 {
		t.Errorf("Dim = %d after first call, want 3", e.Dim())
	}
	for i, text := range texts {
		n := float32(len(text))
		if text == "" {
			n = 1 // sent as " "
		}
		want := []float32{n, 3, 4}
		Normalize(want)
		if c := Cosine(vecs[i], want); c < 0.999999 {
			t.Errorf("text %d: vector %v, want %v (order or normalisation wrong)", i, vecs[i], want)
		}
	}
}

func TestOpenAIErrorsHideKey(t *testing.T) {
	const key = "sk-test-secret-456"
	var calls atomic.Int32
	srv := fakeEmbeddings(t, "another-key", &calls)
	defer srv.Close()
	e, err := NewOpenAI(OpenAIOptions{BaseURL: srv.URL + "/v1/", Model: "m", APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Embed(context.Background(), []string{"x"})
	if err == nil {
		t.Fatal("wrong key accepted")
	}
	if strings.Contains(err.Error(), key) {
		t.Errorf("error leaks the API key: %v", err)
	}
	if !strings.Contains(err.Error(), "401") && !strings.Contains(err.Error(), "Incorrect API key") {
		t.Errorf("error does not say why: %v", err)
	}
	for _, bad := range []string{"ftp://x", "not a url", "http://"} {
		if _, err := NewOpenAI(OpenAIOptions{BaseURL: bad, Model: "m"}); err == nil {
			t.Errorf("base URL %q accepted", bad)
		}
	}
	if _, err := NewOpenAI(OpenAIOptions{BaseURL: srv.URL}); err == nil {
		t.Error("missing model accepted")
	}
}
