package llm

// Call is what one model call of an action cost: answered by the model, by
// the response cache, or failed.
type Call struct {
	Stage string `json:"stage"`
	// Answers is the number of answers the call drew from one prompt
	// (Request.N; 1 for an ordinary call).
	Answers int `json:"answers"`
	// PromptTokens is the prompt's length as the server counted it;
	// CachedPromptTokens the part it served from its prompt cache (OpenAI's
	// usage.prompt_tokens_details.cached_tokens, llama.cpp's timings.cache_n),
	// so PromptTokens-CachedPromptTokens were processed by this call.
	PromptTokens       int `json:"prompt_tokens"`
	CachedPromptTokens int `json:"cached_prompt_tokens"`
	// CompletionTokens is the answer's length as the server counted it (for
	// a call with several answers some servers, llama.cpp's among them,
	// count only one of them).
	CompletionTokens int `json:"completion_tokens"`
	// Seconds is the call's wall time, retries and waiting for a free
	// connection slot included; 0 for a cache hit.
	Seconds float64 `json:"seconds"`
	// CacheHit is true when the response cache answered (no model call).
	CacheHit bool `json:"cache_hit"`
	// Error says why the call failed ("" when it was answered).
	Error string `json:"error,omitempty"`
}

// StageUsage totals the calls of one stage.
type StageUsage struct {
	// Calls counts model calls (not cache hits), CacheHits the answers from
	// the response cache, Failures the calls that ended in an error.
	Calls              int     `json:"calls"`
	CacheHits          int     `json:"cache_hits"`
	Failures           int     `json:"failures"`
	PromptTokens       int     `json:"prompt_tokens"`
	CachedPromptTokens int     `json:"cached_prompt_tokens"`
	CompletionTokens   int     `json:"completion_tokens"`
	Seconds            float64 `json:"seconds"`
}

// record adds one call to the log and the per-stage totals; the caller holds
// the action's lock.
func (u *Usage) record(c Call) {
	u.Log = append(u.Log, c)
	if u.Stages == nil {
		u.Stages = map[string]StageUsage{}
	}
	s := u.Stages[c.Stage]
	switch {
	case c.CacheHit:
		s.CacheHits++
	case c.Error != "":
		s.Failures++
	default:
		s.Calls++
	}
	s.PromptTokens += c.PromptTokens
	s.CachedPromptTokens += c.CachedPromptTokens
	s.CompletionTokens += c.CompletionTokens
	s.Seconds += c.Seconds
	u.Stages[c.Stage] = s
}
