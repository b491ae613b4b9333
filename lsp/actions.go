package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
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

// runJob runs one background action to its end.
func (s *server) runJob(ctx context.Context, cmd string, a actionArgs, token protocol.ProgressToken) (any, error) {
	doc := s.snapshot(a.URI)
	var t Target
	var ok bool
	if doc == nil {
		s.showMessage(protocol.MessageTypeWarning, "DRIFT: the document is not open.")
		return nil, nil
	}
	if cmd == cmdCheck {
		var start, end int
		start, end, ok = findDecl(doc, a.Range.span().Start.Line)
		if ok {
			t = Target{Kind: "declaration", Start: start, End: end, Raw: doc.Text[start:end]}
		}
	} else {
		t, ok = resolveTarget(doc, a)
	}
	title := map[string]string{cmdFormalize: titleFormalize, cmdPremises: titlePremises, cmdCheck: titleCheck}[cmd]
	if !ok {
		s.showMessage(protocol.MessageTypeWarning, "DRIFT: "+title+": no comment, selection or theorem here.")
		return nil, nil
	}
	key := cmd + "\x00" + a.URI + "\x00" + t.Raw
	j, jctx := s.jobs.start(ctx, key)
	defer s.jobs.finish(j)
	prog := s.newProgress(jctx, token, "DRIFT: "+title, true)
	if prog.key != "" {
		s.jobs.setToken(j, prog.key)
	}
	if !s.jobs.acquire(jctx, func(n int) { prog.report(fmt.Sprintf("Queued behind %d running job(s)…", n), -1) }) {
		return s.jobStopped(ctx, j, prog, title)
	}
	defer s.jobs.release()
	b, err := s.waitBackend(jctx, prog)
	if err == nil {
		var summary string
		switch cmd {
		case cmdFormalize:
			summary, err = s.formalize(jctx, b, doc, t, prog)
		case cmdPremises:
			summary, err = s.findPremises(jctx, b, doc, t, prog)
		case cmdCheck:
			summary, err = s.check(jctx, b, doc, t, prog)
		}
		if err == nil {
			prog.end(summary)
			return nil, nil
		}
	}
	if jctx.Err() != nil {
		return s.jobStopped(ctx, j, prog, title)
	}
	if errors.Is(err, errRefused) {
		prog.end("Not applied: the text changed")
		return nil, nil
	}
	prog.end("Failed: " + firstLine(err.Error()))
	s.log.Errorf("drift: %s failed: %v", title, err)
	s.showMessage(protocol.MessageTypeError, "DRIFT: "+title+" failed: "+firstLine(err.Error()))
	return nil, nil
}

// jobStopped ends a cancelled or replaced job.
func (s *server) jobStopped(ctx context.Context, j *job, prog *workDone, title string) (any, error) {
	if s.jobs.isReplaced(j) {
		prog.end("Replaced by a newer request")
		return nil, nil
	}
	prog.end("Cancelled")
	s.log.Infof("drift: %s cancelled", title)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, nil
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

// waitBackend waits until the backend's index is ready, reporting
// "indexing, N%" meanwhile.
func (s *server) waitBackend(ctx context.Context, prog *workDone) (Backend, error) {
	if s.opts.Open == nil {
		return nil, errors.New("no library index is configured in this server")
	}
	last := ""
	for {
		b := s.currentBackend()
		if b != nil {
			st := b.Status()
			if st.Ready {
				return b, nil
			}
			if st.Err != nil {
				return nil, fmt.Errorf("library index failed: %w", st.Err)
			}
			if msg := fmt.Sprintf("Waiting for the library index: indexing, %d%%", st.Percent()); msg != last {
				prog.report(msg, -1)
				last = msg
			}
		} else if last == "" {
			last = "Waiting for the library index…"
			prog.report(last, -1)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// progressFunc turns pipeline and checker events into progress reports.
func progressFunc(prog *workDone) progress.Func {
	return func(ev progress.Event) {
		msg := ev.Message
		if msg == "" {
			msg = ev.Stage
		}
		prog.report(msg, ev.Percent())
	}
}

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
		if ph, ok := placeholderAfter(cur, at); ok && ph.name == stubName(stub) {
			return ph.start, ph.end, final
		}
		end := insertionPoint(cur, at)
		return end, end, "\n" + final
	})
	if err != nil {
		return "", err
	}
	if n := stubName(final); n != "" {
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
	return truncate(summary, 200), nil
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
	fmt.Fprintf(b, "  %s : %s  (%s:%d)\n", safeComment(x.Name), safeComment(truncate(sig, 300)), safeComment(filepath.ToSlash(path)), x.Range.Start.Line+1)
}

// safeComment keeps text from closing or opening a comment.
func safeComment(s string) string {
	s = strings.ReplaceAll(s, "-/", "- /")
	return strings.ReplaceAll(s, "/-", "/ -")
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
