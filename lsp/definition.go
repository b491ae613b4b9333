package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Definition implements protocol.Server for names in comments only (the
// Lean server owns code).
func (s *server) Definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	_, doc, _ := s.commentDoc(string(p.TextDocument.URI))
	if doc == nil {
		return protocol.LocationSlice{}, nil
	}
	r, ok := doc.At(toPos(p.Position))
	if !ok || r.Definition.Path == "" {
		return protocol.LocationSlice{}, nil
	}
	return &protocol.Location{URI: uri.File(r.Definition.Path), Range: toRange(r.Definition.Range)}, nil
}
