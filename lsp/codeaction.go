package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
)

// CodeAction implements protocol.Server from the document text alone: no
// pipeline work happens in the request.
func (s *server) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	u := string(p.TextDocument.URI)
	out := []protocol.CommandOrCodeAction{}
	s.mu.Lock()
	var d *Document
	if st := s.docs[u]; st != nil {
		d = st.doc
	}
	var t Target
	var ok bool
	var declOK bool
	var declStart, declEnd int
	var r Span
	if d != nil {
		r = fromRange(p.Range)
		t, ok = findTarget(d, r)
		declStart, declEnd, declOK = findDecl(d, r.Start.Line)
		if declOK {
			r = d.SpanOf(declStart, declEnd)
		}
	}
	var tspan Span
	if ok {
		tspan = d.SpanOf(t.Start, t.End)
	}
	s.mu.Unlock()
	if d == nil {
		return out, nil
	}
	if isTeX(d) {
		// A blueprint's .tex file: "Formalize this node" on a node, and
		// none of the Lean actions.
		kind := protocol.CodeActionKindRefactorRewrite
		if label := blueprintNodeAt(d, fromRange(p.Range).Start); label != "" && kindWanted(kind, p.Context.Only) {
			raw, _ := json.Marshal(blueprintArgs{Label: label})
			out = append(out, &protocol.CodeAction{Title: titleBlueprintNode, Kind: &kind,
				Command: protocol.Command{Title: titleBlueprintNode, Command: cmdBlueprint, Arguments: []protocol.LSPAny{raw}}})
		}
		return out, nil
	}
	if kindWanted(protocol.CodeActionKindQuickFix, p.Context.Only) {
		out = append(out, s.referenceFixes(u, fromRange(p.Range))...)
	}
	kind := protocol.CodeActionKindRefactorRewrite
	add := func(title, command string, args actionArgs) {
		raw, _ := json.Marshal(args)
		out = append(out, &protocol.CodeAction{
			Title:   title,
			Kind:    &kind,
			Command: protocol.Command{Title: title, Command: command, Arguments: []protocol.LSPAny{raw}},
		})
	}
	if !kindWanted(kind, p.Context.Only) {
		return out, nil
	}
	if ok {
		args := actionArgs{URI: u, Range: toJSONRange(tspan), Text: t.Raw, Kind: string(t.Kind)}
		add(titleFormalize, cmdFormalize, args)
		add(titlePremises, cmdPremises, args)
	}
	if declOK {
		add(titleCheck, cmdCheck, actionArgs{URI: u, Range: toJSONRange(r)})
	}
	return out, nil
}

// kindWanted applies the client's "only" filter.
func kindWanted(k protocol.CodeActionKind, only []protocol.CodeActionKind) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if o == k || strings.HasPrefix(string(k), string(o)+".") {
			return true
		}
	}
	return false
}

// referenceFixes returns the quick fixes of the names in comments within
// r: one per suggestion, each a drift.fixReference command.
func (s *server) referenceFixes(u string, r Span) []protocol.CommandOrCodeAction {
	d, doc, _ := s.commentDoc(u)
	if doc == nil {
		return nil
	}
	kind := protocol.CodeActionKindQuickFix
	var out []protocol.CommandOrCodeAction
	for _, f := range doc.Diagnostics() {
		fs := f.Range
		if fs.End.Before(r.Start) || r.End.Before(fs.Start) {
			continue
		}
		for i, sug := range f.Suggestions {
			title := fmt.Sprintf("Replace `%s` by `%s`", f.Name, sug)
			raw, _ := json.Marshal(fixArgs{URI: u, Version: d.Version, Range: toJSONRange(fs), Name: f.Name, Replacement: sug})
			preferred := i == 0 && f.Sure
			out = append(out, &protocol.CodeAction{Title: title, Kind: &kind, IsPreferred: &preferred,
				Command: protocol.Command{Title: title, Command: cmdFixReference, Arguments: []protocol.LSPAny{raw}}})
		}
	}
	return out
}

// actionArgs is the argument of the drift.* commands. Editors may send just
// URI and Range (the cursor or selection); code actions also carry the
// target's text so that the job starts from exactly what the user saw.
type actionArgs struct {
	URI   string    `json:"uri"`
	Range jsonRange `json:"range"`
	Text  string    `json:"text,omitempty"`
	Kind  string    `json:"kind,omitempty"`
}

type jsonPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type jsonRange struct {
	Start jsonPos `json:"start"`
	End   jsonPos `json:"end"`
}

func (r jsonRange) span() Span {
	return Span{Start: Pos{Line: r.Start.Line, Character: r.Start.Character}, End: Pos{Line: r.End.Line, Character: r.End.Character}}
}

func toJSONRange(s Span) jsonRange {
	return jsonRange{Start: jsonPos{s.Start.Line, s.Start.Character}, End: jsonPos{s.End.Line, s.End.Character}}
}
