package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// The dialects of Config.Grammar: how a server takes a per-request grammar.
const (
	// GrammarLlamaCpp sends it as llama.cpp's `grammar` (its server hands
	// a grammar starting with `%llguidance {}` to LLGuidance).
	GrammarLlamaCpp = "llama.cpp"
	// GrammarVLLM sends it as vLLM's `structured_outputs: {"grammar": …}`.
	GrammarVLLM = "vllm"
)

// grammarBody returns the request-body fields that carry grammar in the
// configured dialect, or nil when none is configured or there is no
// grammar.
func (c *Client) grammarBody(grammar string) map[string]any {
	if grammar == "" {
		return nil
	}
	switch c.cfg.Grammar {
	case GrammarLlamaCpp:
		return map[string]any{"grammar": grammar}
	case GrammarVLLM:
		return map[string]any{"structured_outputs": map[string]any{"grammar": grammar}}
	}
	return nil
}

type extraBodyKey struct{}

// withExtraBody makes the transport add fields to the JSON body of the
// request sent under ctx.
//
// go-openai (v1.43) has no extra-body field on chat requests (its
// ChatCompletionRequestExtensions holds vLLM's guided_choice only, and the
// withExtraBody option it has is unexported and used for embeddings), and
// CreateChatCompletion takes its own struct type, so a wrapping type cannot
// add fields either. The client already owns the HTTP transport (retries,
// size cap), so the fields travel in the request's context and the
// transport merges them into the marshalled body, once, before the first
// attempt: the request stays go-openai's own, and a field go-openai adds
// later wins over nothing.
func withExtraBody(ctx context.Context, fields map[string]any) context.Context {
	return context.WithValue(ctx, extraBodyKey{}, fields)
}

// mergeExtraBody adds the context's extra fields to req's JSON body (a
// field the body already has is kept: go-openai's own field wins).
func mergeExtraBody(req *http.Request) (*http.Request, error) {
	fields, _ := req.Context().Value(extraBodyKey{}).(map[string]any)
	if len(fields) == 0 || req.Body == nil || req.Method != http.MethodPost {
		return req, nil
	}
	raw, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, fmt.Errorf("llm: request body is not a JSON object: %v", err)
	}
	for k, v := range fields {
		if _, ok := body[k]; ok {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		body[k] = b
	}
	merged, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(merged))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(merged)), nil }
	r.ContentLength = int64(len(merged))
	return r, nil
}
