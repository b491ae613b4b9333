package embed

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// OpenAIOptions configures an OpenAI-compatible /v1/embeddings client.
type OpenAIOptions struct {
	BaseURL   string // e.g. https://api.openai.com/v1 or http://localhost:11434 ("/v1" is added to a bare host)
	Model     string // e.g. text-embedding-3-small, nomic-embed-text, BAAI/bge-m3
	APIKey    string // the key (the caller resolves it; embed reads no environment); may be empty for local servers
	Dim       int    // requested dimensions (sent only when set), else learned from the first answer
	BatchSize int    // texts per request (default 64)
	Timeout   time.Duration
	// HTTPClient overrides the HTTP client (tests); nil uses one with Timeout.
	HTTPClient *http.Client
}

// OpenAI is an Embedder calling an OpenAI-compatible embeddings endpoint.
type OpenAI struct {
	client *openai.Client
	model  string
	batch  int
	send   int // dimensions to request, 0 for the model's default
	mu     sync.Mutex
	dim    int
}

// NewOpenAI makes a client; it does not contact the server. The API key is
// never logged or echoed.
func NewOpenAI(o OpenAIOptions) (*OpenAI, error) {
	if o.Model == "" {
		return nil, errors.New("openai embeddings: no model configured")
	}
	base, err := normaliseBaseURL(o.BaseURL)
	if err != nil {
		return nil, err
	}
	cfg := openai.DefaultConfig(o.APIKey)
	cfg.BaseURL = base
	if o.HTTPClient != nil {
		cfg.HTTPClient = o.HTTPClient
	} else {
		timeout := o.Timeout
		if timeout <= 0 {
			timeout = 2 * time.Minute
		}
		cfg.HTTPClient = &http.Client{Timeout: timeout}
	}
	batch := o.BatchSize
	if batch <= 0 {
		batch = 64
	}
	return &OpenAI{client: openai.NewClientWithConfig(cfg), model: o.Model, batch: batch, send: o.Dim, dim: o.Dim}, nil
}

func normaliseBaseURL(s string) (string, error) {
	if s == "" {
		return "https://api.openai.com/v1", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("openai embeddings: base URL %q is not an http(s) URL", s)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	if u.Path == "" {
		u.Path = "/v1"
	}
	return u.String(), nil
}

// Name implements Embedder.
func (e *OpenAI) Name() string { return "openai:" + e.model }

// Dim implements Embedder; it is 0 until the first answer unless configured.
func (e *OpenAI) Dim() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.dim
}

// Embed implements Embedder, sending BatchSize texts per request.
func (e *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for lo := 0; lo < len(texts); lo += e.batch {
		chunk := texts[lo:min(lo+e.batch, len(texts))]
		input := make([]string, len(chunk))
		for i, t := range chunk {
			if strings.TrimSpace(t) == "" {
				t = " " // the OpenAI API rejects empty strings
			}
			input[i] = t
		}
		resp, err := e.client.CreateEmbeddings(ctx, openai.EmbeddingRequestStrings{
			Input: input, Model: openai.EmbeddingModel(e.model), Dimensions: e.send,
		})
		if err != nil {
			return nil, fmt.Errorf("embeddings endpoint (model %s): %w", e.model, err)
		}
		vecs := make([][]float32, len(chunk))
		for _, d := range resp.Data {
			if d.Index < 0 || d.Index >= len(chunk) || vecs[d.Index] != nil {
				return nil, fmt.Errorf("embeddings endpoint (model %s): bad or repeated index %d", e.model, d.Index)
			}
			vecs[d.Index] = d.Embedding
		}
		for i, v := range vecs {
			if len(v) == 0 {
				return nil, fmt.Errorf("embeddings endpoint (model %s): no vector for input %d", e.model, lo+i)
			}
			Normalize(v)
		}
		e.mu.Lock()
		if e.dim == 0 {
			e.dim = len(vecs[0])
		}
		dim := e.dim
		e.mu.Unlock()
		if err := checkVectors(vecs, len(chunk), dim); err != nil {
			return nil, fmt.Errorf("embeddings endpoint (model %s): %w", e.model, err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}
