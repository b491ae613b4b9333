// Package llmtest is an in-process OpenAI-compatible chat-completion server
// for tests: it checks the shape of every request, records it, and answers
// from a per-test script, with or without server-sent-event streaming.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Message is one chat message as received.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one recorded chat-completion request.
type Request struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature float64   `json:"temperature"`
	Seed        *int      `json:"seed"`
	// N is the number of answers asked for (OpenAI's n; 0 means 1).
	N         int  `json:"n"`
	MaxTokens int  `json:"max_tokens"`
	Stream    bool `json:"stream"`
	// ResponseFormat is the structured-output request, if any.
	ResponseFormat *ResponseFormat `json:"response_format"`
	// Grammar is llama.cpp's per-request grammar, StructuredOutputs vLLM's.
	Grammar           string             `json:"grammar"`
	StructuredOutputs *StructuredOutputs `json:"structured_outputs"`
	Authorization     string             `json:"-"`
	// Body is the request body's top-level fields as sent.
	Body map[string]json.RawMessage `json:"-"`
}

// StructuredOutputs is vLLM's structured_outputs field.
type StructuredOutputs struct {
	Grammar string `json:"grammar"`
}

// ResponseFormat is a request's response_format.
type ResponseFormat struct {
	Type       string `json:"type"`
	JSONSchema *struct {
		Name   string          `json:"name"`
		Schema json.RawMessage `json:"schema"`
		Strict bool            `json:"strict"`
	} `json:"json_schema"`
}

// Prompt returns all message contents joined by blank lines.
func (r Request) Prompt() string {
	parts := make([]string, len(r.Messages))
	for i, m := range r.Messages {
		parts[i] = m.Content
	}
	return strings.Join(parts, "\n\n")
}

// Reply is one scripted answer.
type Reply struct {
	// Text is the assistant message content.
	Text string
	// Choices, for a request with n above 1, are its answers in order
	// (default: Text n times); a server that ignores n (IgnoreN) sends the
	// first.
	Choices []string
	// Status, when non-zero and not 200, sends an error with Text as its
	// message (OpenAI error JSON).
	Status int
	// Header is added to the response (e.g. Retry-After).
	Header map[string]string
	// Delay waits before answering (interrupted when the client goes away).
	Delay time.Duration
	// CutStream, for streaming requests, sends about half of Text and then
	// closes the connection without a finish reason or [DONE].
	CutStream bool
	// FinishReason defaults to "stop".
	FinishReason string
	// PromptTokens and CompletionTokens are reported as usage (defaults: a
	// rough count of words).
	PromptTokens, CompletionTokens int
	// CachedPromptTokens is reported as the part of the prompt served from
	// the server's prompt cache, in usage.prompt_tokens_details.cached_tokens
	// and llama.cpp's timings.cache_n (default: as a prompt-caching server
	// does, the longest word prefix the prompt shares with an earlier
	// request's, keeping at least one word to process).
	CachedPromptTokens int
}

// Responder chooses the reply to a request; n is the 0-based index of the
// request at the server.
type Responder func(n int, req Request) Reply

// Queue answers the i-th request with replies[i] and fails the test (via a 500
// reply saying so) past the end of the script.
func Queue(replies ...Reply) Responder {
	return func(n int, _ Request) Reply {
		if n < len(replies) {
			return replies[n]
		}
		return Reply{Status: 500, Text: fmt.Sprintf("llmtest: script has %d replies, got request %d", len(replies), n+1)}
	}
}

// TB is the subset of testing.TB the server reports shape errors to.
type TB interface {
	Errorf(format string, args ...any)
	Helper()
}

// Server is a running fake endpoint.
type Server struct {
	// URL is the base URL to configure clients with (ends in /v1).
	URL  string
	srv  *httptest.Server
	t    TB
	resp Responder
	// APIKey, when set, must arrive as "Authorization: Bearer APIKey".
	APIKey string
	// NoStructured makes the server refuse response_format with HTTP 400, as
	// servers without structured output do.
	NoStructured bool
	// IgnoreN answers a request for n answers with one, as servers without
	// n (Ollama) do.
	IgnoreN bool

	mu   sync.Mutex
	reqs []Request
	// seen holds the word sequences of earlier prompts (the prompt cache).
	seen [][]string
}

// New starts a server answering with resp; shape errors are reported to t (nil
// to only reject them with HTTP 400). Close it when done.
func New(t TB, resp Responder) *Server {
	s := &Server{t: t, resp: resp}
	s.srv = httptest.NewServer(s)
	s.URL = s.srv.URL + "/v1"
	return s
}

// NewUnstarted returns a server that is not listening yet, for callers that
// provide their own listener (see fakellm); start it with Start.
func NewUnstarted(t TB, resp Responder) (*Server, *httptest.Server) {
	s := &Server{t: t, resp: resp}
	s.srv = httptest.NewUnstartedServer(s)
	return s, s.srv
}

// Started must be called after starting a server from NewUnstarted.
func (s *Server) Started() { s.URL = s.srv.URL + "/v1" }

// Close stops the server and drops open connections.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Requests returns the recorded requests so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) shapeError(w http.ResponseWriter, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if s.t != nil {
		s.t.Helper()
		s.t.Errorf("llmtest: bad request: %s", msg)
	}
	writeError(w, http.StatusBadRequest, msg)
}

// ServeHTTP implements the chat-completions endpoint and GET /v1/models.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet && r.URL.Path == "/v1/models" {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"fake","object":"model","owned_by":"llmtest"}]}`)
		return
	}
	if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/slots/") {
		// llama.cpp's slot save and restore, answered as a llama.cpp server
		// started without --slot-save-path answers them.
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotImplemented)
		io.WriteString(w, `{"error":{"code":501,"message":"This server does not support slots action.","type":"not_supported_error"}}`)
		return
	}
	if r.URL.Path != "/v1/chat/completions" {
		s.shapeError(w, "unexpected path %s %s", r.Method, r.URL.Path)
		return
	}
	if r.Method != http.MethodPost {
		s.shapeError(w, "method %s, want POST", r.Method)
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		s.shapeError(w, "Content-Type %q, want application/json", ct)
		return
	}
	if s.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+s.APIKey {
		writeError(w, http.StatusUnauthorized, "invalid API key")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	if err != nil {
		s.shapeError(w, "reading body: %v", err)
		return
	}
	var req Request
	dec := json.NewDecoder(strings.NewReader(string(body)))
	if err := dec.Decode(&req); err != nil {
		s.shapeError(w, "body is not a chat request: %v", err)
		return
	}
	req.Authorization = r.Header.Get("Authorization")
	_ = json.Unmarshal(body, &req.Body)
	switch {
	case req.Model == "":
		s.shapeError(w, "no model")
		return
	case len(req.Messages) == 0:
		s.shapeError(w, "no messages")
		return
	}
	for i, m := range req.Messages {
		switch m.Role {
		case "system", "user", "assistant":
		default:
			s.shapeError(w, "message %d has role %q", i, m.Role)
			return
		}
		if strings.TrimSpace(m.Content) == "" {
			s.shapeError(w, "message %d is empty", i)
			return
		}
	}
	if req.Temperature < 0 || req.Temperature > 2 {
		s.shapeError(w, "temperature %v out of range", req.Temperature)
		return
	}
	if rf := req.ResponseFormat; rf != nil {
		switch {
		case rf.Type == "json_schema" && (rf.JSONSchema == nil || rf.JSONSchema.Name == "" || !json.Valid(rf.JSONSchema.Schema) || !strings.HasPrefix(strings.TrimSpace(string(rf.JSONSchema.Schema)), "{")):
			s.shapeError(w, "response_format json_schema without a name and a schema object")
			return
		case rf.Type != "json_schema" && rf.Type != "json_object" && rf.Type != "text":
			s.shapeError(w, "response_format type %q", rf.Type)
			return
		}
	}
	words := promptWords(req)
	s.mu.Lock()
	n := len(s.reqs)
	s.reqs = append(s.reqs, req)
	cached := 0
	for _, w := range s.seen {
		cached = max(cached, commonPrefix(w, words))
	}
	s.seen = append(s.seen, words)
	s.mu.Unlock()
	if req.ResponseFormat != nil && s.NoStructured {
		writeError(w, http.StatusBadRequest, "unsupported parameter: response_format")
		return
	}

	rep := s.resp(n, req)
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		writeError(w, rep.Status, rep.Text)
		return
	}
	if rep.FinishReason == "" {
		rep.FinishReason = "stop"
	}
	if rep.PromptTokens == 0 {
		rep.PromptTokens = len(words)
		if rep.CachedPromptTokens == 0 {
			rep.CachedPromptTokens = min(cached, len(words)-1)
		}
	}
	if rep.CompletionTokens == 0 {
		rep.CompletionTokens = len(strings.Fields(rep.Text))
	}
	texts := []string{rep.Text}
	if req.N > 1 && !s.IgnoreN {
		texts = rep.Choices
		for len(texts) < req.N {
			texts = append(texts, rep.Text)
		}
		texts = texts[:req.N]
	}
	if req.Stream {
		writeStream(w, req.Model, rep, texts)
		return
	}
	var choices []any
	for i, text := range texts {
		choices = append(choices, map[string]any{
			"index": i, "message": map[string]any{"role": "assistant", "content": text},
			"finish_reason": rep.FinishReason,
		})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion", "created": 0, "model": req.Model,
		"choices": choices,
		"usage":   usage(rep),
		"timings": timings(rep),
	})
}

// usage is a reply's OpenAI usage object.
func usage(rep Reply) map[string]any {
	return map[string]any{
		"prompt_tokens": rep.PromptTokens, "completion_tokens": rep.CompletionTokens,
		"total_tokens":          rep.PromptTokens + rep.CompletionTokens,
		"prompt_tokens_details": map[string]any{"cached_tokens": rep.CachedPromptTokens},
	}
}

// timings is llama.cpp's timings object for a reply (the fields its server
// sends besides usage).
func timings(rep Reply) map[string]any {
	return map[string]any{"cache_n": rep.CachedPromptTokens, "prompt_n": rep.PromptTokens - rep.CachedPromptTokens, "predicted_n": rep.CompletionTokens}
}

// promptWords splits a request's messages into the words the fake counts
// as tokens, each message led by its role.
func promptWords(req Request) []string {
	var w []string
	for _, m := range req.Messages {
		w = append(w, "<|"+m.Role+"|>")
		w = append(w, strings.Fields(m.Content)...)
	}
	return w
}

func commonPrefix(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "llmtest_error"}})
}

// writeStream sends the reply's answers as server-sent events in chunks of
// a few runes, then the finish reasons, usage and [DONE] — unless CutStream.
func writeStream(w http.ResponseWriter, model string, rep Reply, texts []string) {
	w.Header().Set("Content-Type", "text/event-stream")
	fl, _ := w.(http.Flusher)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	chunk := func(index int, content string, finish any) map[string]any {
		return map[string]any{
			"id": "chatcmpl-stream", "object": "chat.completion.chunk", "model": model,
			"choices": []any{map[string]any{"index": index, "delta": map[string]any{"content": content}, "finish_reason": finish}},
		}
	}
	for k, text := range texts {
		runes := []rune(text)
		end := len(runes)
		if rep.CutStream {
			end /= 2
		}
		step := max(16, end/256)
		for i := 0; i < end; i += step {
			j := min(i+step, end)
			send(chunk(k, string(runes[i:j]), nil))
		}
		if rep.CutStream {
			break
		}
	}
	if rep.CutStream {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
			}
		}
		return
	}
	for k := range texts {
		send(chunk(k, "", rep.FinishReason))
	}
	send(map[string]any{
		"id": "chatcmpl-stream", "object": "chat.completion.chunk", "model": model, "choices": []any{},
		"usage": usage(rep), "timings": timings(rep),
	})
	io.WriteString(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}
