package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"

	"github.com/drift-lsp/drift-lsp/internal/textcut"
)

// Errors callers may test for with errors.Is.
var (
	// ErrNotConfigured means no endpoint is set.
	ErrNotConfigured = errors.New(HowToConfigure)
	// ErrBudget means the action has used its call budget.
	ErrBudget = errors.New("llm: call budget of this action exhausted")
	// ErrTooLarge means the server's answer exceeded the size cap.
	ErrTooLarge = errors.New("llm: answer exceeds the size limit")
	// ErrIncomplete means the answer stopped before the model finished (a
	// stream cut midway, or finish_reason "length").
	ErrIncomplete = errors.New("llm: answer incomplete")
	// ErrTimeout means one call took longer than the configured timeout.
	ErrTimeout = errors.New("llm: call timed out")
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is one chat completion request of a pipeline stage.
type Request struct {
	// Stage selects the model (see Config.StageModels) and labels usage.
	Stage    string
	Messages []Message
	// Temperature is sent when positive.
	Temperature float64
	// Seed is sent when non-nil (servers that do not support seeds ignore it).
	Seed *int
	// N, above 1, draws N answers together from one prompt (OpenAI's n:
	// the server processes the prompt once; llama.cpp's server copies it to
	// N slots and decodes them in one batch). They count N against the
	// action's budget, fewer when the budget has fewer left; a server that
	// ignores n answers once (Response.Texts has what came back, and the
	// budget is charged for that).
	N int
	// MaxTokens, when positive and below Config.MaxTokens, caps this answer
	// (a stage whose answers are short need not wait for a rambling model).
	MaxTokens int
	// Schema, when set, asks for structured output: a JSON answer matching
	// it (response_format json_schema; llama.cpp and vLLM constrain decoding
	// to it). A server that refuses response_format gets the request again
	// without it, and the client stops sending it (Response.Structured tells
	// which happened).
	Schema *Schema
	// Grammar, when set, is an LLGuidance Lark grammar (starting with
	// `%llguidance {}`) that the answer must follow, sent where the client
	// is configured to send one (Config.Grammar: llama.cpp's `grammar`,
	// vLLM's `structured_outputs.grammar`) instead of Schema's
	// response_format; elsewhere Schema is sent as without it.
	// Response.Grammar tells whether it was sent: a server that cannot
	// load a grammar still answers, unconstrained, so the caller checks
	// the answer.
	Grammar string
}

// Schema is a JSON schema for structured output.
type Schema struct {
	// Name identifies the schema (letters, digits, _ and -).
	Name string
	// JSON is the schema itself, a JSON object.
	JSON json.RawMessage
}

// Response is a complete answer.
type Response struct {
	// Text is the (first) answer; Texts every answer of a request with N
	// above 1, in the server's order (Texts[0] is Text), without those cut
	// at the token limit.
	Text         string
	Texts        []string
	Model        string
	FinishReason string
	// Cached is true when the answer came from the on-disk cache (free).
	Cached bool
	// Structured is true when the request carried Request.Schema, so that the
	// text should be JSON matching it.
	Structured bool
	// Grammar is true when the request's Grammar was sent, so that the
	// text should follow it (when the server could load it).
	Grammar      bool
	PromptTokens int
	// CachedPromptTokens is the part of the prompt the server served from
	// its prompt cache (0 when it does not say).
	CachedPromptTokens int
	CompletionTokens   int
}

// Usage accumulates the cost of one action.
type Usage struct {
	// Calls counts answered model calls (not cache hits).
	Calls int `json:"calls"`
	// CacheHits counts answers served from the cache.
	CacheHits int `json:"cache_hits"`
	// Attempts counts HTTP requests, retries included.
	Attempts int `json:"attempts"`
	// Failures counts calls that ended in an error.
	Failures     int `json:"failures"`
	PromptTokens int `json:"prompt_tokens"`
	// CachedPromptTokens counts the prompt tokens the server served from its
	// prompt cache.
	CachedPromptTokens int           `json:"cached_prompt_tokens"`
	CompletionTokens   int           `json:"completion_tokens"`
	Duration           time.Duration `json:"duration_ns"`
	// PerStage breaks Calls down by stage.
	PerStage map[string]int `json:"per_stage,omitempty"`
	// Stages totals tokens and seconds per stage, cache hits and failures
	// included.
	Stages map[string]StageUsage `json:"stages,omitempty"`
	// Log lists every call in the order they ended.
	Log []Call `json:"-"`
}

// Client talks to one OpenAI-compatible endpoint. It is safe for concurrent
// use.
type Client struct {
	cfg   Config
	api   *openai.Client
	key   string
	sem   chan struct{}
	cache *cache
	tr    *transport
	// noSchema is set once the server refused response_format.
	noSchema atomic.Bool
	// failed maps the cache keys of failed requests to their errors
	// (Config.ReplayFailures).
	failed sync.Map
}

// New returns a client for cfg, with the API key cfg.APIKey (resolved by the
// caller; New reads no environment).
func New(cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	if !cfg.Configured() {
		return nil, ErrNotConfigured
	}
	if cfg.Model == "" {
		for _, s := range Stages {
			if cfg.StageModels[s] == "" {
				return nil, errors.New("llm: DRIFT_LLM_MODEL is not set (the model name to request from " + cfg.BaseURL + ")")
			}
		}
	}
	key := cfg.APIKey
	tr := &transport{
		base:     http.DefaultTransport,
		retries:  cfg.MaxRetries,
		maxWait:  cfg.MaxRetryWait,
		maxBytes: int64(cfg.MaxResponseBytes),
		logf:     cfg.Logf,
	}
	oc := openai.DefaultConfig(key)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.BaseURL == "" {
		// The transport asks cfg.Endpoint for the real address of every request.
		oc.BaseURL = "http://endpoint.invalid/v1"
		tr.endpoint = cfg.Endpoint
	}
	oc.HTTPClient = &http.Client{Transport: tr}
	c := &Client{
		cfg: cfg,
		api: openai.NewClientWithConfig(oc),
		key: key,
		sem: make(chan struct{}, cfg.Concurrency),
		tr:  tr,
	}
	if cfg.CacheDir != "" {
		c.cache = &cache{dir: cfg.CacheDir}
	}
	return c, nil
}

// Config returns the client's effective configuration.
func (c *Client) Config() Config { return c.cfg }

// Structured reports whether requests with a Schema are sent as structured
// output: not turned off, and not refused by the server so far.
func (c *Client) Structured() bool { return !c.cfg.NoStructured && !c.noSchema.Load() }

// Start makes the endpoint ready when it is one started on demand
// (Config.Endpoint, e.g. the local model), reporting progress lines; with a
// fixed BaseURL it returns nil at once.
func (c *Client) Start(ctx context.Context, progress func(string)) error {
	if c.tr.endpoint == nil {
		return nil
	}
	return c.tr.endpoint.Start(ctx, progress)
}

// NewAction starts an action (one user request, e.g. one formalize) with the
// configured call budget; budget > 0 overrides it.
func (c *Client) NewAction(budget int) *Action {
	if budget <= 0 {
		budget = c.cfg.CallBudget
	}
	return &Action{c: c, budget: budget, usage: Usage{PerStage: map[string]int{}}}
}

// Action meters the calls of one user request: budget and usage.
type Action struct {
	c      *Client
	mu     sync.Mutex
	budget int
	used   int
	usage  Usage
}

// Remaining returns how many calls the action may still make.
func (a *Action) Remaining() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.budget - a.used
}

// Usage returns a copy of the usage so far.
func (a *Action) Usage() Usage {
	a.mu.Lock()
	defer a.mu.Unlock()
	u := a.usage
	u.PerStage = maps.Clone(a.usage.PerStage)
	u.Stages = maps.Clone(a.usage.Stages)
	u.Log = slices.Clone(a.usage.Log)
	return u
}

// Complete sends one request: from the cache when possible, else to the model
// (counting against the budget), with retries, timeout and size cap. Errors
// never contain the API key.
func (a *Action) Complete(ctx context.Context, req Request) (*Response, error) {
	c := a.c
	model := c.cfg.ModelFor(req.Stage)
	maxTokens := c.cfg.MaxTokens
	if req.MaxTokens > 0 && (maxTokens == 0 || req.MaxTokens < maxTokens) {
		maxTokens = req.MaxTokens
	}
	creq := openai.ChatCompletionRequest{
		Model: model,
		//lint:ignore SA1019 max_tokens is what most OpenAI-compatible servers (vLLM, llama.cpp, Ollama) understand; reasoning models are retried with max_completion_tokens
		MaxTokens: maxTokens,
		Seed:      req.Seed,
	}
	if req.N > 1 {
		creq.N = req.N
	}
	if req.Temperature > 0 {
		creq.Temperature = float32(req.Temperature)
	}
	for _, m := range req.Messages {
		creq.Messages = append(creq.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
	}
	extra := c.grammarBody(req.Grammar)
	if req.Schema != nil && extra == nil && !c.cfg.NoStructured && !c.noSchema.Load() {
		creq.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type:       openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: req.Schema.Name, Schema: req.Schema.JSON, Strict: true},
		}
	}
	key := cacheKey(creq, extra)
	if c.cache != nil {
		if r, ok := c.cache.get(key); ok {
			a.mu.Lock()
			a.usage.CacheHits++
			a.usage.record(Call{Stage: req.Stage, Answers: len(r.Texts), CacheHit: true})
			a.mu.Unlock()
			r.Cached = true
			r.Structured, r.Grammar = creq.ResponseFormat != nil, extra != nil
			if c.cfg.Observe != nil {
				c.cfg.Observe(req, r)
			}
			return r, nil
		}
	}
	if c.cfg.ReplayFailures {
		if err, ok := c.failed.Load(key); ok {
			return nil, a.fail(req.Stage, err.(error))
		}
	}
	a.mu.Lock()
	if a.used >= a.budget {
		a.mu.Unlock()
		return nil, fmt.Errorf("%w (%d calls)", ErrBudget, a.budget)
	}
	if n := min(creq.N, a.budget-a.used); n > 1 {
		creq.N = n
	} else {
		creq.N = 0
	}
	charged := max(creq.N, 1)
	a.used += charged
	a.mu.Unlock()
	key = cacheKey(creq, extra)

	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, a.fail(req.Stage, ctx.Err())
	}
	defer func() { <-c.sem }()

	start := time.Now()
	attempts := 0
	ctx = withAttemptCounter(ctx, &attempts)
	cctx, cancel := context.WithTimeoutCause(ctx, c.cfg.Timeout, ErrTimeout)
	defer cancel()
	if extra != nil {
		cctx = withExtraBody(cctx, extra)
	}
	var resp *Response
	var err error
	send := func(creq openai.ChatCompletionRequest) (*Response, error) {
		if c.cfg.Stream {
			return c.stream(cctx, creq)
		}
		return c.complete(cctx, creq)
	}
	resp, err = send(creq)
	if reasoningRejected(err) {
		// Reasoning models (o1, o3, gpt-5, …) take max_completion_tokens
		// and a fixed temperature; go-openai refuses the request before
		// sending it, so adapt and send once more.
		//lint:ignore SA1019 moving the limit from the deprecated field to the new one
		creq.MaxCompletionTokens, creq.MaxTokens, creq.Temperature = creq.MaxTokens, 0, 0
		resp, err = send(creq)
	}
	if creq.ResponseFormat != nil && schemaRefused(err) {
		// The server does not do structured output: ask again in plain text
		// (the prompts say which format to use) and stop asking.
		c.noSchema.Store(true)
		if c.cfg.Logf != nil {
			c.cfg.Logf("llm: the server refused response_format (%v); structured output off", c.clean(req.Stage, err))
		}
		creq.ResponseFormat = nil
		key = cacheKey(creq, extra)
		resp, err = send(creq)
	}
	if creq.ResponseFormat != nil && err != nil && outputUnparsed(err.Error()) {
		// Draw once more with another seed: the failure belongs to one
		// sampled output, and the answer is cached under the question.
		seed := 1
		if creq.Seed != nil {
			seed = *creq.Seed + 1
		}
		creq.Seed = &seed
		if c.cfg.Logf != nil {
			c.cfg.Logf("llm: %s: the server could not parse the model's structured answer; drawing again with seed %d", req.Stage, seed)
		}
		resp, err = send(creq)
	}
	if err != nil && context.Cause(cctx) == ErrTimeout && ctx.Err() == nil {
		err = fmt.Errorf("%w after %s (model %s)", ErrTimeout, c.cfg.Timeout, model)
	}
	took := time.Since(start)
	a.mu.Lock()
	a.usage.Attempts += attempts
	a.usage.Duration += took
	a.mu.Unlock()
	if err != nil {
		err = c.clean(req.Stage, err)
		if c.cfg.ReplayFailures && ctx.Err() == nil {
			c.failed.Store(key, err)
		}
		a.mu.Lock()
		a.usage.record(Call{Stage: req.Stage, Answers: charged, Seconds: took.Seconds(), Error: err.Error()})
		a.mu.Unlock()
		return nil, a.fail(req.Stage, err)
	}
	resp.Model = model
	resp.Structured, resp.Grammar = creq.ResponseFormat != nil, extra != nil
	a.mu.Lock()
	a.used -= max(charged-len(resp.Texts), 0)
	a.usage.Calls++
	a.usage.PerStage[req.Stage]++
	a.usage.PromptTokens += resp.PromptTokens
	a.usage.CachedPromptTokens += resp.CachedPromptTokens
	a.usage.CompletionTokens += resp.CompletionTokens
	a.usage.record(Call{Stage: req.Stage, Answers: len(resp.Texts), PromptTokens: resp.PromptTokens, CachedPromptTokens: resp.CachedPromptTokens,
		CompletionTokens: resp.CompletionTokens, Seconds: took.Seconds()})
	a.mu.Unlock()
	if c.cache != nil {
		if err := c.cache.put(key, resp); err != nil && c.cfg.Logf != nil {
			c.cfg.Logf("llm: cache write: %v", err)
		}
	}
	if c.cfg.Observe != nil {
		c.cfg.Observe(req, resp)
	}
	return resp, nil
}

func (a *Action) fail(stage string, err error) error {
	a.mu.Lock()
	a.usage.Failures++
	a.mu.Unlock()
	return err
}

func (c *Client) complete(ctx context.Context, creq openai.ChatCompletionRequest) (*Response, error) {
	out, err := c.api.CreateChatCompletion(ctx, creq)
	if err != nil {
		return nil, err
	}
	if len(out.Choices) == 0 {
		return nil, errors.New("llm: answer has no choices")
	}
	r := &Response{PromptTokens: out.Usage.PromptTokens, CompletionTokens: out.Usage.CompletionTokens}
	if d := out.Usage.PromptTokensDetails; d != nil {
		r.CachedPromptTokens = d.CachedTokens
	}
	texts, reasons := make([]string, len(out.Choices)), make([]string, len(out.Choices))
	for i, ch := range out.Choices {
		texts[i], reasons[i] = ch.Message.Content, string(ch.FinishReason)
	}
	return r, r.setAnswers(texts, reasons)
}

// setAnswers fills in the answers of r from the choices' texts and finish
// reasons, keeping the complete ones; it fails like checkFinish on the
// first choice when none is complete.
func (r *Response) setAnswers(texts, reasons []string) error {
	var firstErr error
	for i, t := range texts {
		one := &Response{Text: t, FinishReason: reasons[i]}
		if err := checkFinish(one); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if len(r.Texts) == 0 {
			r.Text, r.FinishReason = t, reasons[i]
		}
		r.Texts = append(r.Texts, t)
	}
	if len(r.Texts) == 0 {
		return firstErr
	}
	return nil
}

func (c *Client) stream(ctx context.Context, creq openai.ChatCompletionRequest) (*Response, error) {
	creq.Stream = true
	creq.StreamOptions = &openai.StreamOptions{IncludeUsage: true}
	st, err := c.api.CreateChatCompletionStream(ctx, creq)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var texts []*strings.Builder
	var reasons []string
	size := 0
	r := &Response{}
	for {
		chunk, err := st.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if ctx.Err() == nil && !errors.Is(err, ErrTooLarge) {
				return nil, fmt.Errorf("%w: the stream broke after %d bytes: %v", ErrIncomplete, size, err)
			}
			return nil, err
		}
		if chunk.Usage != nil {
			r.PromptTokens = chunk.Usage.PromptTokens
			r.CompletionTokens = chunk.Usage.CompletionTokens
			if d := chunk.Usage.PromptTokensDetails; d != nil {
				r.CachedPromptTokens = d.CachedTokens
			}
		}
		for _, ch := range chunk.Choices {
			if ch.Index < 0 || ch.Index >= max(creq.N, 1) {
				continue
			}
			for len(texts) <= ch.Index {
				texts, reasons = append(texts, &strings.Builder{}), append(reasons, "")
			}
			texts[ch.Index].WriteString(ch.Delta.Content)
			size += len(ch.Delta.Content)
			if ch.FinishReason != "" {
				reasons[ch.Index] = string(ch.FinishReason)
			}
		}
		if size > c.cfg.MaxResponseBytes {
			return nil, fmt.Errorf("%w of %d bytes", ErrTooLarge, c.cfg.MaxResponseBytes)
		}
	}
	out := make([]string, len(texts))
	for i := range texts {
		out[i] = texts[i].String()
		if reasons[i] == "" {
			return nil, fmt.Errorf("%w: the stream ended after %d bytes without a finish reason", ErrIncomplete, size)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: the stream ended after %d bytes without a finish reason", ErrIncomplete, size)
	}
	return r, r.setAnswers(out, reasons)
}

// reasoningRejected reports whether go-openai refused a request client-side
// because the model is a reasoning model.
func reasoningRejected(err error) bool {
	//lint:ignore SA1019 older go-openai paths still return the O1 error
	for _, e := range []error{openai.ErrReasoningModelMaxTokensDeprecated, openai.ErrO1MaxTokensDeprecated,
		openai.ErrReasoningModelLimitationsOther, openai.ErrReasoningSamplingUnsupported, openai.ErrO1BetaLimitationsOther} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// schemaRefused reports whether err is a server's refusal of a request as
// malformed (HTTP 400, 422, 501), which is how servers without structured
// output answer response_format.
func schemaRefused(err error) bool {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	status := 0
	switch {
	case errors.As(err, &apiErr):
		status = apiErr.HTTPStatusCode
	case errors.As(err, &reqErr):
		status = reqErr.HTTPStatusCode
	}
	return status == http.StatusBadRequest || status == http.StatusUnprocessableEntity || status == http.StatusNotImplemented
}

func checkFinish(r *Response) error {
	switch r.FinishReason {
	case "length":
		return fmt.Errorf("%w: the model hit its token limit after %d bytes", ErrIncomplete, len(r.Text))
	case "content_filter":
		return errors.New("llm: the answer was withheld by the server's content filter")
	}
	if !utf8.ValidString(r.Text) {
		return errors.New("llm: the answer is not valid UTF-8")
	}
	return nil
}

// clean turns an error into a short message that never contains the key.
func (c *Client) clean(stage string, err error) error {
	var msg string
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.Is(err, ErrTooLarge), errors.Is(err, ErrIncomplete), errors.Is(err, ErrTimeout),
		errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return &Error{Stage: stage, err: err, msg: c.redact(err.Error())}
	case errors.As(err, &apiErr):
		msg = fmt.Sprintf("HTTP %d: %s", apiErr.HTTPStatusCode, textcut.Line(apiErr.Message, 200))
		return &Error{Stage: stage, Status: apiErr.HTTPStatusCode, msg: c.redact(msg)}
	case errors.As(err, &reqErr):
		msg = fmt.Sprintf("HTTP %d: %s", reqErr.HTTPStatusCode, textcut.Line(string(reqErr.Body), 200))
		return &Error{Stage: stage, Status: reqErr.HTTPStatusCode, msg: c.redact(msg)}
	}
	return &Error{Stage: stage, err: err, msg: c.redact(err.Error())}
}

func (c *Client) redact(s string) string {
	if len(c.key) >= 4 {
		s = strings.ReplaceAll(s, c.key, "[redacted]")
	}
	return s
}

// Error is a failed model call. Its message never contains the API key.
type Error struct {
	Stage  string
	Status int
	msg    string
	err    error
}

// Error implements error.
func (e *Error) Error() string { return "llm " + e.Stage + ": " + e.msg }

// Unwrap returns the underlying sentinel (ErrTooLarge, context.Canceled, …)
// when there is one.
func (e *Error) Unwrap() error { return e.err }
