package local

import (
	"path/filepath"
	"strconv"
)

// DefaultSlots is the number of sequences the server decodes side by side
// and keeps prompts in: the candidates of one formalize action with
// drift's defaults, 4 drawn with retrieved context (one request for 4
// answers: llama.cpp processes the prompt once and copies it to 4 slots)
// and 1 without, and the prompts of the two stages before them (Decompose,
// Propose), which the next action reuses (see promptcache.go).
const DefaultSlots = 7

// serverArgs are the launcher's arguments (serve.py's argv after the
// script): the model, the port, llama.cpp's parameters and the directory of
// saved slot states (the prompt cache). The context is
// one unified KV cache shared by the slots (kv_unified), so a prompt that
// the slots share is held once and the context need not be split per slot.
func (s *Server) serverArgs(port int) []string {
	return []string{s.inst.Model, strconv.Itoa(port), strconv.Itoa(s.opts.ContextSize), strconv.Itoa(s.opts.Threads),
		s.inst.ModelName(), strconv.Itoa(s.opts.Slots), s.promptCacheDir() + string(filepath.Separator)}
}
