package local

import "strconv"

// DefaultSlots is the number of sequences the server decodes side by side:
// the candidates of one formalize action with drift's defaults, 4 drawn
// with retrieved context (one request for 4 answers: llama.cpp processes
// the prompt once and copies it to 4 slots) and 1 without.
const DefaultSlots = 5

// serverArgs are the launcher's arguments (serve.py's argv after the
// script): the model, the port and llama.cpp's parameters. The context is
// one unified KV cache shared by the slots (kv_unified), so a prompt that
// the slots share is held once and the context need not be split per slot.
func (s *Server) serverArgs(port int) []string {
	return []string{s.inst.Model, strconv.Itoa(port), strconv.Itoa(s.opts.ContextSize), strconv.Itoa(s.opts.Threads),
		s.inst.ModelName(), strconv.Itoa(s.opts.Slots)}
}
