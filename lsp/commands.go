package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
)

// The commands the server executes.
const (
	cmdFormalize = "drift.formalize"
	cmdPremises  = "drift.findPremises"
	cmdCheck     = "drift.check"
	cmdReindex   = "drift.reindex"
)

// The code action titles.
const (
	titleFormalize = "Formalize with DRIFT"
	titlePremises  = "Find premises and examples"
	titleCheck     = "Check this theorem"
)

// premisesMarker starts the comment block that "Find premises and examples"
// inserts; a block that starts with it is replaced on the next run.
const premisesMarker = "/- DRIFT premises and examples"

// cmdFixReference replaces a name in a comment (a quick fix).
const cmdFixReference = "drift.fixReference"

// ExecuteCommand implements protocol.Server: it runs a drift.* command.
// Jobs run inside the request, released from the read loop, so
// $/cancelRequest on it cancels the job; drift.reindex is a request to the
// backend's owner and returns at once.
func (s *server) ExecuteCommand(ctx context.Context, p *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	switch p.Command {
	case cmdReindex:
		s.owner.request(ownerOpen)
		return nil, nil
	case cmdFixReference:
		if len(p.Arguments) == 0 {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "drift: %s needs an argument", p.Command)
		}
		jsonrpc2.Async(ctx) // the edit's answer comes through the read loop
		if err := s.fixReference(ctx, json.RawMessage(p.Arguments[0])); err != nil && err != errRefused {
			return nil, err
		}
		return nil, nil
	case cmdBlueprint:
		var a blueprintArgs
		if len(p.Arguments) > 0 {
			_ = json.Unmarshal(p.Arguments[0], &a)
		}
		jsonrpc2.Async(ctx)
		return nil, s.runBlueprint(ctx, a, p.WorkDoneToken)
	case cmdFormalize, cmdPremises, cmdCheck:
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "drift: unknown command %q", p.Command)
	}
	if len(p.Arguments) == 0 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "drift: %s needs an argument {uri, range}", p.Command)
	}
	var a actionArgs
	if err := json.Unmarshal(p.Arguments[0], &a); err != nil || a.URI == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "drift: %s: bad argument: want {uri, range}", p.Command)
	}
	jsonrpc2.Async(ctx)
	_, err := s.runJob(ctx, p.Command, a, p.WorkDoneToken)
	return nil, err
}

// errRefused marks a result that was not applied because the text it
// belongs to changed; the user has been told already.
var errRefused = errors.New("refused")

// formalize runs the pipeline and inserts the stub after the comment.
func (s *server) formalize(ctx context.Context, b Backend, doc *Document, t Target, prog *workDone) (string, error) {
	// A placeholder's name is used as given; otherwise the pipeline decides
	// the name (the comment's "name: foo", the model's, a few words of the
	// statement), unique in the file.
	var name string
	if ph, ok := placeholderAfter(doc, t); ok {
		name = ph.name
	}
	res, err := b.Formalize(ctx, FormalizeRequest{Statement: t.Statement, Name: name, Header: leansrc.Header(doc.Text), Path: uriToPath(uri.URI(doc.URI)),
		Text: doc.Text, Found: func(p *Premises, final bool) { s.storeFound(doc.URI, t, p, final) }}, progressFunc(prog))
	if err != nil {
		return "", err
	}
	stub := strings.TrimSpace(res.Stub)
	if stub == "" {
		return "", errors.New("the pipeline returned no stub")
	}
	prog.report("Inserting the theorem…", 100)
	final := stub
	err = s.applyAt(ctx, doc, t, titleFormalize, func(cur *Document, at Target) (int, int, string) {
		if ph, ok := placeholderAfter(cur, at); ok && ph.name == res.Name {
			return ph.start, ph.end, final
		}
		end := insertionPoint(cur, at)
		return end, end, "\n" + final
	})
	if err != nil {
		return "", err
	}
	if n := res.Name; n != "" {
		s.track(doc.URI, "name:"+n)
		if res.Report != nil && res.Report.Stub == final {
			// The pipeline's report is about exactly this text: shown as
			// it is, not checked again.
			s.storeFindings(doc.URI, "name:"+n, final, res.Report)
		}
		s.spawn(func() { s.refreshDiagnostics(doc.URI) })
	}
	summary := "Inserted " + firstLine(final)
	if res.Summary != "" {
		summary += " (" + res.Summary + ")"
	}
	if r := res.Report; r != nil && r.Passed {
		summary += " — passed the checks that ran: " + r.Verdict
	}
	if r := res.Report; r != nil && !r.Passed {
		// The same verdict as the CLI's: the stub is kept for the user to
		// fix (its findings are diagnostics), never passed off as a result.
		verdict := "the inserted theorem did not pass its checks: " + r.Verdict
		summary = "Inserted, but " + verdict + " — " + firstLine(final)
		s.showMessage(protocol.MessageTypeWarning, "DRIFT: "+verdict)
	}
	s.log.Infof("drift: formalize: %s", summary)
	return textcut.Cut(summary, 200), nil
}

// placeholder is a `theorem NAME … : sorry` line under a comment.
type placeholder struct {
	name       string
	start, end int
}

// placeholderAfter finds a placeholder declaration (leansrc.Command's
// Placeholder) right after target t.
func placeholderAfter(d *Document, t Target) (placeholder, bool) {
	line := d.Position(t.End).Line + 1
	for line < d.LineCount() && strings.TrimSpace(d.LineText(line)) == "" {
		line++
	}
	if line >= d.LineCount() {
		return placeholder{}, false
	}
	c, ok := leansrc.TheoremAt(d.Commands(), d.LineStart(line), d.lineEnd(line))
	if !ok || !c.Placeholder || c.Start != d.LineStart(line) {
		return placeholder{}, false
	}
	return placeholder{name: c.Name, start: c.Start, end: c.End}, true
}

// findPremises runs retrieval and illustrate and inserts (or replaces) the
// premises block under the comment.
func (s *server) findPremises(ctx context.Context, b Backend, doc *Document, t Target, prog *workDone) (string, error) {
	res, err := b.FindPremises(ctx, t.Statement, progressFunc(prog))
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	block := formatPremises(res, root)
	err = s.applyAt(ctx, doc, t, titlePremises, func(cur *Document, at Target) (int, int, string) {
		end := insertionPoint(cur, at)
		rest := cur.Text[end:]
		trimmed := strings.TrimLeft(rest, " \t\r\n")
		if strings.HasPrefix(trimmed, premisesMarker) {
			bs := end + len(rest) - len(trimmed)
			for _, c := range scanComments(cur.Text[bs:]) {
				return end, bs + c.end, "\n" + block
			}
		}
		return end, end, "\n" + block
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d premises, %d examples", len(res.Premises), len(res.Examples)), nil
}

// formatPremises renders the premises block as a Lean comment.
func formatPremises(p *Premises, root string) string {
	var b strings.Builder
	b.WriteString(premisesMarker + "\n")
	b.WriteString("Premises:\n")
	if len(p.Premises) == 0 {
		b.WriteString("  (none found)\n")
	}
	for _, x := range p.Premises {
		writeSymbol(&b, x, root)
	}
	b.WriteString(fmt.Sprintf("Examples (coverage %.0f%%):\n", p.Coverage*100))
	if len(p.Examples) == 0 {
		b.WriteString("  (none found)\n")
	}
	for _, x := range p.Examples {
		writeSymbol(&b, x, root)
	}
	b.WriteString("-/")
	return b.String()
}

func writeSymbol(b *strings.Builder, x Symbol, root string) {
	path := x.Path
	if root != "" {
		if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
			path = rel
		}
	}
	sig := strings.Join(strings.Fields(x.Signature), " ")
	fmt.Fprintf(b, "  %s : %s  (%s:%d)\n", safeComment(x.Name), safeComment(textcut.Cut(sig, 300)), safeComment(filepath.ToSlash(path)), x.Range.Start.Line+1)
}

// safeComment keeps text from closing or opening a comment.
func safeComment(s string) string {
	s = strings.ReplaceAll(s, "-/", "- /")
	return strings.ReplaceAll(s, "/-", "/ -")
}

// check runs the checker on a declaration and publishes diagnostics.
func (s *server) check(ctx context.Context, b Backend, doc *Document, t Target, prog *workDone) (string, error) {
	key := declKey(doc, t.Start, t.Raw)
	s.track(doc.URI, key)
	prog.report("Checking names and lints…", -1)
	n, rep, err := s.refreshOne(ctx, b, doc.URI, key, progressFunc(prog))
	if err != nil {
		return "", err
	}
	summary := fmt.Sprintf("%d finding(s)", n)
	if rep != nil {
		switch {
		case rep.LeanRan:
			summary += "; checked by Lean (" + rep.LeanBackend + ")"
		case rep.LeanFailed:
			summary += "; Lean (" + rep.LeanBackend + ") " + strings.TrimPrefix(rep.LeanSkipped, "Lean ")
		case rep.LeanSkipped != "":
			summary += "; Lean not run: " + rep.LeanSkipped
		}
	}
	return summary, nil
}

// fixArgs is the argument of drift.fixReference: the reference as it was
// when the quick fix was offered.
type fixArgs struct {
	URI         string    `json:"uri"`
	Version     int32     `json:"version"`
	Range       jsonRange `json:"range"`
	Name        string    `json:"name"`
	Replacement string    `json:"replacement"`
}

// fixReference applies a quick fix as a versioned edit, refusing it when
// the document changed since the fix was offered.
func (s *server) fixReference(ctx context.Context, raw json.RawMessage) error {
	var a fixArgs
	if err := json.Unmarshal(raw, &a); err != nil || a.URI == "" || a.Replacement == "" {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "drift: %s: bad argument", cmdFixReference)
	}
	d := s.snapshot(a.URI)
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	span := Span{Start: Pos{Line: a.Range.Start.Line, Character: a.Range.Start.Character}, End: Pos{Line: a.Range.End.Line, Character: a.Range.End.Character}}
	if d == nil || d.Version != a.Version || d.Text[d.Offset(span.Start):d.Offset(span.End)] != a.Name {
		s.showMessage(protocol.MessageTypeWarning, "DRIFT: the document changed since the fix was offered; nothing was replaced.")
		return errRefused
	}
	we := versionedEdit(caps, d, protocol.TextEdit{Range: toRange(span), NewText: a.Replacement})
	label := "DRIFT: fix reference"
	res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: we})
	if err != nil {
		return fmt.Errorf("workspace/applyEdit: %w", err)
	}
	if res == nil || !res.Applied {
		return errRefused
	}
	return nil
}
