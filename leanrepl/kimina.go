package leanrepl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"io"
	"net/http"
	"strings"
	"time"
)

// BackendKimina names a Kimina Lean Server (github.com/project-numina/
// kimina-lean-server) as the backend that ran Lean.
const BackendKimina = "kimina"

// Kimina checks Lean code on a Kimina Lean Server: `POST {URL}/verify`
// with {"codes": [{"custom_id", "proof"}], "timeout", "infotree_type"}
// (the server's backward-compatible endpoint, the one its README shows),
// answered by {"results": [{"custom_id", "error", "response": {"env",
// "messages", "sorries", "time"}}]} — the REPL's own command response, or
// {"message"} when the REPL failed. The server keeps REPLs warm per header
// (its imports) across machines, so the header and the stub go as one
// snippet. An API key, when set, goes as "Authorization: Bearer KEY", as
// the server's require_key reads it.
type Kimina struct {
	// URL is the server's base URL (http://host:port).
	URL string
	// APIKey is the server's key ("" when it has none).
	APIKey string
	// Timeout is the per-snippet deadline sent to the server (and, with a
	// margin, the HTTP request's); 0 means 60 s.
	Timeout time.Duration
	// Client is the HTTP client (nil: http.DefaultClient).
	Client *http.Client
}

type kiminaCode struct {
	CustomID string `json:"custom_id"`
	Proof    string `json:"proof"`
}

type kiminaRequest struct {
	Codes        []kiminaCode `json:"codes"`
	Timeout      int          `json:"timeout"`
	DisableCache bool         `json:"disable_cache"`
}

type kiminaResult struct {
	CustomID string          `json:"custom_id"`
	Error    *string         `json:"error"`
	Response json.RawMessage `json:"response"`
}

type kiminaResponse struct {
	Results []kiminaResult `json:"results"`
}

// maxKiminaBytes bounds the server's answer.
const maxKiminaBytes = 16 << 20

// run checks cmd under header and returns Lean's answer with positions
// in cmd (the header's lines subtracted).
func (k *Kimina) run(ctx context.Context, header, cmd string, say func(string)) (*Response, error) {
	timeout := k.Timeout
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	code, shift := cmd, 0
	if h := strings.TrimSpace(header); h != "" {
		code = h + "\n\n" + cmd
		shift = strings.Count(h, "\n") + 2
	}
	body, err := json.Marshal(kiminaRequest{Codes: []kiminaCode{{CustomID: "drift", Proof: code}}, Timeout: int((timeout + time.Second - 1) / time.Second)})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout+30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(k.URL, "/")+"/verify", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if k.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+k.APIKey)
	}
	client := k.Client
	if client == nil {
		client = http.DefaultClient
	}
	if say != nil {
		say("Checking with Lean (" + BackendKimina + " at " + k.URL + ")…")
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("kimina: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxKiminaBytes+1))
	if err != nil {
		return nil, fmt.Errorf("kimina: %w", err)
	}
	if len(data) > maxKiminaBytes {
		return nil, fmt.Errorf("kimina: the answer is larger than %d bytes", maxKiminaBytes)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("kimina: HTTP %d: %s", resp.StatusCode, textcut.CutBytes(strings.TrimSpace(string(data)), 200))
	}
	var vr kiminaResponse
	if err := json.Unmarshal(data, &vr); err != nil {
		return nil, fmt.Errorf("kimina: the answer is not JSON of /verify: %w", err)
	}
	if len(vr.Results) != 1 {
		return nil, fmt.Errorf("kimina: %d results for one snippet", len(vr.Results))
	}
	res := vr.Results[0]
	if res.Error != nil && *res.Error != "" {
		return nil, fmt.Errorf("kimina: %s", *res.Error)
	}
	if len(res.Response) == 0 || string(res.Response) == "null" {
		return nil, errors.New("kimina: no response for the snippet")
	}
	var r Response
	if err := json.Unmarshal(res.Response, &r); err != nil {
		return nil, fmt.Errorf("kimina: %w", err)
	}
	if r.Message != "" && len(r.Messages) == 0 {
		return nil, fmt.Errorf("kimina: the REPL failed: %s", r.Message)
	}
	for i := range r.Messages {
		r.Messages[i] = shiftPos(r.Messages[i], shift)
	}
	return &r, nil
}
