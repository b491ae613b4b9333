package lsp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// versionedEdit wraps one edit of document d as a workspace edit tied to
// d's version (the client refuses it if its text moved on), or as a plain
// change for clients without document changes.
func versionedEdit(caps clientCaps, d *Document, edit protocol.TextEdit) protocol.WorkspaceEdit {
	var we protocol.WorkspaceEdit
	if caps.documentChanges {
		v := d.Version
		we.DocumentChanges = []protocol.DocumentChange{&protocol.TextDocumentEdit{
			TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri.URI(d.URI)}, Version: &v},
			Edits:        []protocol.TextDocumentEditElement{&edit},
		}}
	} else {
		we.Changes = map[uri.URI][]protocol.TextEdit{uri.URI(d.URI): {edit}}
	}
	return we
}

// applyAt applies the edit that build computes against the current text,
// re-anchored on the target's text when the document changed since doc. It
// refuses (and tells the user) when the target is gone or changed.
func (s *server) applyAt(ctx context.Context, doc *Document, t Target, title string, build func(cur *Document, at Target) (start, end int, text string)) error {
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	if !caps.applyEdit {
		return errors.New("the editor does not support workspace/applyEdit")
	}
	for attempt := 0; attempt < 3; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		cur := s.snapshot(doc.URI)
		if cur == nil {
			s.showMessage(protocol.MessageTypeWarning, "DRIFT: "+title+": the file was closed; nothing was inserted.")
			return errRefused
		}
		at, ok := reanchor(cur, doc, t)
		if !ok {
			s.showMessage(protocol.MessageTypeWarning, "DRIFT: "+title+": the comment changed or was removed while DRIFT was working; nothing was inserted.")
			return errRefused
		}
		start, end, text := build(cur, at)
		edit := protocol.TextEdit{Range: toRange(cur.SpanOf(start, end)), NewText: text}
		we := versionedEdit(caps, cur, edit)
		label := "DRIFT: " + title
		res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: we})
		if err != nil {
			return fmt.Errorf("workspace/applyEdit: %w", err)
		}
		if res.Applied {
			return nil
		}
		reason := ""
		if res.FailureReason != nil {
			reason = *res.FailureReason
		}
		s.log.Infof("drift: the editor did not apply the edit (%s); retrying", reason)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return errors.New("the editor rejected the edit three times")
}

// reanchor finds target t (taken from doc) in cur: in place when the text did
// not change, else at the nearest occurrence of its text.
func reanchor(cur, doc *Document, t Target) (Target, bool) {
	if cur.Rev == doc.Rev && t.End <= len(cur.Text) && cur.Text[t.Start:t.End] == t.Raw {
		return t, true
	}
	start, ok := locate(cur.Text, t.Raw, t.Start)
	if !ok {
		return Target{}, false
	}
	t.End = start + len(t.Raw)
	t.Start = start
	return t, true
}

// locate finds the occurrence of needle in text closest to hint.
func locate(text, needle string, hint int) (int, bool) {
	if needle == "" {
		return 0, false
	}
	best, bestDist := -1, math.MaxInt
	for from := 0; from <= len(text); {
		i := strings.Index(text[from:], needle)
		if i < 0 {
			break
		}
		at := from + i
		dist := at - hint
		if dist < 0 {
			dist = -dist
		}
		if dist < bestDist {
			best, bestDist = at, dist
		}
		from = at + 1
	}
	return best, best >= 0
}

// resolveTarget finds the target of a command in the current text: the
// given text near the given range, else whatever is under the range now.
func resolveTarget(d *Document, a actionArgs) (Target, bool) {
	r := a.Range.span()
	if a.Text == "" {
		return findTarget(d, r)
	}
	hint := d.Offset(r.Start)
	start, ok := locate(d.Text, a.Text, hint)
	if !ok {
		return Target{}, false
	}
	kind := CommentKind(a.Kind)
	t := Target{Kind: kind, Start: start, End: start + len(a.Text), Raw: a.Text}
	if kind == KindSelection || kind == "" {
		t.Kind = KindSelection
		t.Statement = strings.TrimSpace(a.Text)
	} else {
		t.Statement = commentBody(kind, a.Text)
	}
	if strings.TrimSpace(t.Statement) == "" {
		return Target{}, false
	}
	return t, true
}

// insertionPoint is where results go: the end of the target's last line, or
// the end of the declaration the target lies in (for a selection in code).
func insertionPoint(d *Document, t Target) int {
	line := d.Position(t.End).Line
	end := d.lineEnd(line)
	if _, declEnd, ok := findDecl(d, line); ok && declEnd > end {
		end = declEnd
	}
	return end
}
