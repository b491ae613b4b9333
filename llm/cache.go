package llm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/drift-lsp/drift-lsp/internal/atomicfile"

	openai "github.com/sashabaranov/go-openai"
)

// cache stores complete, successful answers on disk, one JSON file per
// request, keyed by the SHA-256 of the model, the sampling parameters and the
// messages.
type cache struct{ dir string }

// cacheVersion changes when the cache entry format changes.
const cacheVersion = "drift-llm-cache-v1"

func cacheKey(req openai.ChatCompletionRequest, extra map[string]any) string {
	keyed := struct {
		V           string
		Model       string
		Temperature float32
		Seed        *int
		MaxTokens   int
		Messages    []openai.ChatCompletionMessage
		Format      *openai.ChatCompletionResponseFormat `json:",omitempty"`
		N           int                                  `json:",omitempty"`
		Extra       map[string]any                       `json:",omitempty"`
		//lint:ignore SA1019 the cache key covers the field the request sets
	}{cacheVersion, req.Model, req.Temperature, req.Seed, req.MaxTokens, req.Messages, req.ResponseFormat, req.N, extra}
	b, _ := json.Marshal(keyed)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (c *cache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

func (c *cache) get(key string) (*Response, bool) {
	b, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false
	}
	var r Response
	if json.Unmarshal(b, &r) != nil || r.Text == "" {
		return nil, false
	}
	if len(r.Texts) == 0 {
		// Entries written before answers were counted hold one.
		r.Texts = []string{r.Text}
	}
	return &r, true
}

// put writes atomically (temp file + rename) so a crash never leaves a
// half-written entry that a later get would serve.
func (c *cache) put(key string, r *Response) error {
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return atomicfile.Write(p, 0o600, b)
}
