package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/drift-lsp/drift-lsp/internal/textcut"
)

// Symbols implements protocol.Server (workspace/symbol) from the library
// search, released from the read loop so that typing is never blocked.
func (s *server) Symbols(ctx context.Context, p *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	jsonrpc2.Async(ctx)
	b := s.currentBackend()
	if b == nil {
		if s.opts.Open == nil {
			return protocol.SymbolInformationSlice{}, nil
		}
		return nil, jsonrpc2.NewError(errCodeRequestFailed, "drift: indexing, 0%")
	}
	st := b.Status()
	if st.Err != nil {
		return nil, jsonrpc2.Errorf(errCodeRequestFailed, "drift: library index failed: %s", firstLine(st.Err.Error()))
	}
	if !st.Ready {
		return nil, jsonrpc2.Errorf(errCodeRequestFailed, "drift: indexing, %d%%", st.Percent())
	}
	q := strings.TrimSpace(p.Query)
	if q == "" {
		return protocol.SymbolInformationSlice{}, nil
	}
	hits, err := b.Search(ctx, q, 50)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, jsonrpc2.Errorf(errCodeRequestFailed, "drift: search failed: %s", firstLine(err.Error()))
	}
	out := make(protocol.SymbolInformationSlice, 0, len(hits))
	for _, h := range hits {
		if h.Path == "" {
			continue
		}
		si := protocol.SymbolInformation{Location: protocol.Location{URI: uri.File(h.Path), Range: toRange(h.Range)}}
		si.Name = h.Name
		si.Kind = symbolKind(h.Kind)
		if c := containerOf(h); c != "" {
			si.ContainerName = &c
		}
		out = append(out, si)
	}
	return out, nil
}

// containerOf is what the editor's symbol list shows beside a hit's name:
// its module and the first sentence of its docstring. SymbolInformation has
// no detail field, and editors (VS Code's pickers, Neovim's quickfix list)
// show containerName next to the name, so the summary travels there.
func containerOf(h Symbol) string {
	const max = 120
	sum := textcut.Line(h.Summary, max)
	switch {
	case sum == "":
		return h.Container
	case h.Container == "":
		return sum
	}
	return h.Container + " — " + sum
}

// symbolKind maps declaration kinds to LSP symbol kinds.
func symbolKind(k string) protocol.SymbolKind {
	switch k {
	case "theorem":
		return protocol.SymbolKindMethod
	case "def", "abbrev", "opaque":
		return protocol.SymbolKindFunction
	case "structure":
		return protocol.SymbolKindStruct
	case "class", "class inductive":
		return protocol.SymbolKindClass
	case "inductive":
		return protocol.SymbolKindEnum
	case "instance":
		return protocol.SymbolKindObject
	case "field":
		return protocol.SymbolKindField
	case "constructor":
		return protocol.SymbolKindConstructor
	case "notation":
		return protocol.SymbolKindOperator
	case "axiom":
		return protocol.SymbolKindConstant
	}
	return protocol.SymbolKindVariable
}
