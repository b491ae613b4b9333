package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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
	return Span{Start: Pos{r.Start.Line, r.Start.Character}, End: Pos{r.End.Line, r.End.Character}}
}

func toJSONRange(s Span) jsonRange {
	return jsonRange{Start: jsonPos{s.Start.Line, s.Start.Char}, End: jsonPos{s.End.Line, s.End.Char}}
}

// codeAction answers textDocument/codeAction from the document text alone:
// no pipeline work happens in the request.
func (s *server) codeAction(params []byte) (any, error) {
	var p protocol.CodeActionParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "drift: bad codeAction params: %v", err)
	}
	u := string(p.TextDocument.URI)
	out := []protocol.CommandOrCodeAction{}
	s.mu.Lock()
	d := s.docs[u]
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

// executeCommand runs a drift.* command. Jobs run inside the request, so
// $/cancelRequest on it cancels the job.
func (s *server) executeCommand(ctx context.Context, params []byte) (any, error) {
	var p protocol.ExecuteCommandParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "drift: bad executeCommand params: %v", err)
	}
	switch p.Command {
	case cmdReindex:
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.reopenBackend()
		}()
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
	return s.runJob(ctx, p.Command, a, p.WorkDoneToken)
}

// errRefused marks a result that was not applied because the text it
// belongs to changed; the user has been told already.
var errRefused = errors.New("refused")

// runJob runs one background action to its end.
func (s *server) runJob(ctx context.Context, cmd string, a actionArgs, token protocol.ProgressToken) (any, error) {
	s.mu.Lock()
	d := s.docs[a.URI]
	var t Target
	var ok bool
	var doc *Document
	if d != nil {
		doc = d.clone()
	}
	s.mu.Unlock()
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
func (s *server) jobStopped(ctx context.Context, j *job, prog *progress, title string) (any, error) {
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
func (s *server) waitBackend(ctx context.Context, prog *progress) (Backend, error) {
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

// progressFunc turns pipeline events into progress reports.
func progressFunc(prog *progress) func(Progress) {
	return func(ev Progress) {
		msg := ev.Message
		if msg == "" {
			msg = ev.Stage
		}
		pct := -1
		if ev.Total > 0 {
			pct = ev.Done * 100 / ev.Total
		}
		prog.report(msg, pct)
	}
}

// header returns the import and open lines of a Lean file.
func header(text string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "import ") || (strings.HasPrefix(t, "open ") && !strings.Contains(t, " in ")) {
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

// formalize runs the pipeline and inserts the stub after the comment.
func (s *server) formalize(ctx context.Context, b Backend, doc *Document, t Target, prog *progress) (string, error) {
	// A placeholder's name is used as given; otherwise the pipeline decides
	// the name (the comment's "name: foo", the model's, a few words of the
	// statement), unique in the file.
	var name string
	if ph, ok := placeholderAfter(doc, t); ok {
		name = ph.name
	}
	res, err := b.Formalize(ctx, FormalizeRequest{Statement: t.Statement, Name: name, Header: header(doc.Text), Path: uriToPath(doc.URI),
		Text: doc.Text}, progressFunc(prog))
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
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.refreshDiagnostics(doc.URI)
		}()
	}
	summary := "Inserted " + firstLine(final)
	if res.Summary != "" {
		summary += " (" + res.Summary + ")"
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

// placeholderAfter finds a placeholder declaration right after target t.
func placeholderAfter(d *Document, t Target) (placeholder, bool) {
	line := d.Position(t.End).Line + 1
	for line < d.LineCount() && strings.TrimSpace(d.LineText(line)) == "" {
		line++
	}
	if line >= d.LineCount() {
		return placeholder{}, false
	}
	start, end, ok := findDecl(d, line)
	if !ok || start != d.LineStart(line) {
		return placeholder{}, false
	}
	text := strings.Join(strings.Fields(d.Text[start:end]), " ")
	m := placeholderRE.FindStringSubmatch(text)
	if m == nil {
		return placeholder{}, false
	}
	return placeholder{name: m[2], start: start, end: end}, true
}

// findPremises runs retrieval and illustrate and inserts (or replaces) the
// premises block under the comment.
func (s *server) findPremises(ctx context.Context, b Backend, doc *Document, t Target, prog *progress) (string, error) {
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

// check runs the checker on a declaration and publishes diagnostics.
func (s *server) check(ctx context.Context, b Backend, doc *Document, t Target, prog *progress) (string, error) {
	key := declKey(doc, t.Start, t.Raw)
	s.track(doc.URI, key)
	prog.report("Checking names and lints…", -1)
	n, rep, err := s.refreshOne(ctx, b, doc.URI, key)
	if err != nil {
		return "", err
	}
	summary := fmt.Sprintf("%d finding(s)", n)
	if rep != nil {
		if rep.LeanRan {
			summary += "; checked by Lean"
		} else if rep.LeanSkipped != "" {
			summary += "; Lean not run: " + rep.LeanSkipped
		}
	}
	return summary, nil
}

// declKey identifies a tracked declaration: by name, or, for an example,
// by its ordinal among the file's examples (so that edits inside it keep it
// tracked).
func declKey(d *Document, start int, decl string) string {
	if n := stubName(decl); n != "" {
		return "name:" + n
	}
	k := 0
	for l := 0; l < d.LineCount() && d.LineStart(l) < start; l++ {
		if m := declRE.FindStringSubmatch(d.LineText(l)); m != nil && m[1] == "example" {
			k++
		}
	}
	return "example:" + strconv.Itoa(k)
}

func (s *server) track(u, key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tracked[u] == nil {
		s.tracked[u] = map[string]bool{}
	}
	s.tracked[u][key] = true
}

// findTracked finds the declaration a key names in d.
func findTracked(d *Document, key string) (start, end int, ok bool) {
	kind, val, _ := strings.Cut(key, ":")
	examples := 0
	for l := 0; l < d.LineCount(); l++ {
		text := d.LineText(l)
		m := declRE.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		var hit bool
		if kind == "name" {
			n := stubNameRE.FindStringSubmatch(text)
			hit = n != nil && n[2] == val
		} else if m[1] == "example" {
			hit = strconv.Itoa(examples) == val
			examples++
		}
		if hit {
			return findDecl(d, l)
		}
	}
	return 0, 0, false
}

// refreshOne checks one tracked declaration and republishes the file's
// diagnostics; it returns the number of findings of that declaration.
func (s *server) refreshOne(ctx context.Context, b Backend, u, key string) (int, *CheckReport, error) {
	d := s.snapshot(u)
	if d == nil {
		return 0, nil, errors.New("the document is not open")
	}
	start, end, ok := findTracked(d, key)
	if !ok {
		return 0, nil, fmt.Errorf("declaration %s not found", strings.TrimPrefix(key, "name:"))
	}
	rep, err := b.Check(ctx, header(d.Text), d.Text[start:end])
	if err != nil {
		return 0, nil, err
	}
	s.storeFindings(u, key, d.Text[start:end], rep)
	s.publish(u)
	return len(rep.Findings()), rep, nil
}

// refreshDiagnostics re-checks every tracked declaration of u whose text
// changed and republishes.
func (s *server) refreshDiagnostics(u string) {
	b := s.currentBackend()
	if b == nil || !b.Status().Ready {
		return
	}
	s.mu.Lock()
	var keys []string
	for k := range s.tracked[u] {
		keys = append(keys, k)
	}
	s.mu.Unlock()
	d := s.snapshot(u)
	if d == nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, 30*time.Second)
	defer cancel()
	for _, k := range keys {
		start, end, ok := findTracked(d, k)
		if !ok {
			s.mu.Lock()
			delete(s.tracked[u], k)
			delete(s.findings, u+"\x00"+k)
			s.mu.Unlock()
			continue
		}
		text := d.Text[start:end]
		s.mu.Lock()
		f := s.findings[u+"\x00"+k]
		s.mu.Unlock()
		if f != nil && f.text == text {
			continue
		}
		rep, err := b.Check(ctx, header(d.Text), text)
		if err != nil {
			s.log.Warnf("drift: check: %v", err)
			continue
		}
		s.storeFindings(u, k, text, rep)
	}
	s.publish(u)
}

// checked is the last check result of a tracked declaration.
type checked struct {
	text     string
	findings []Finding
}

// storeFindings keeps rep's findings for the declaration text; rep.Stub is
// text trimmed (and cut at its proof), so offsets shift by the leading
// white space.
func (s *server) storeFindings(u, key, text string, rep *CheckReport) {
	shift := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	fs := rep.Findings()
	for i := range fs {
		if fs[i].Start >= 0 {
			fs[i].Start += shift
			fs[i].End += shift
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.findings[u+"\x00"+key] = &checked{text: text, findings: fs}
}

// publish sends the drift diagnostics of every tracked declaration of u,
// located in the current text.
func (s *server) publish(u string) {
	s.mu.Lock()
	d := s.docs[u]
	if d == nil {
		s.mu.Unlock()
		return
	}
	d = d.clone()
	diags := []protocol.Diagnostic{}
	for k := range s.tracked[u] {
		c := s.findings[u+"\x00"+k]
		if c == nil {
			continue
		}
		base, ok := locate(d.Text, c.text, 0)
		if !ok {
			continue
		}
		for _, f := range c.findings {
			start, end := base, base+len(c.text)
			if f.Start >= 0 && f.End >= f.Start && f.End <= len(c.text) {
				start, end = base+f.Start, base+f.End
			}
			diag := protocol.Diagnostic{
				Range:    toRange(d.SpanOf(start, end)),
				Severity: protocol.DiagnosticSeverity(f.Severity),
				Source:   protocol.NewOptional("drift"),
				Message:  protocol.String(f.Message),
			}
			if f.Code != "" {
				diag.Code = protocol.String(f.Code)
			}
			diags = append(diags, diag)
		}
	}
	version := d.Version
	s.mu.Unlock()
	_ = s.conn.Notify(context.Background(), "textDocument/publishDiagnostics", &protocol.PublishDiagnosticsParams{
		URI: uri.URI(u), Version: protocol.NewOptional(version), Diagnostics: diags,
	})
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
		var we protocol.WorkspaceEdit
		if caps.documentChanges {
			v := cur.Version
			we.DocumentChanges = []protocol.DocumentChange{&protocol.TextDocumentEdit{
				TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri.URI(cur.URI)}, Version: &v},
				Edits:        []protocol.TextDocumentEditElement{&edit},
			}}
		} else {
			we.Changes = map[uri.URI][]protocol.TextEdit{uri.URI(cur.URI): {edit}}
		}
		label := "DRIFT: " + title
		var res protocol.ApplyWorkspaceEditResult
		if _, err := s.conn.Call(ctx, "workspace/applyEdit", &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: we}, &res); err != nil {
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

// workspaceSymbol answers workspace/symbol from the library search.
func (s *server) workspaceSymbol(ctx context.Context, params []byte) (any, error) {
	var p protocol.WorkspaceSymbolParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "drift: bad workspace/symbol params: %v", err)
	}
	b := s.currentBackend()
	if b == nil {
		if s.opts.Open == nil {
			return protocol.SymbolInformationSlice{}, nil
		}
		return nil, jsonrpc2.NewError(codeRequestFailed, "drift: indexing, 0%")
	}
	st := b.Status()
	if st.Err != nil {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "drift: library index failed: %s", firstLine(st.Err.Error()))
	}
	if !st.Ready {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "drift: indexing, %d%%", st.Percent())
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
		return nil, jsonrpc2.Errorf(codeRequestFailed, "drift: search failed: %s", firstLine(err.Error()))
	}
	out := make(protocol.SymbolInformationSlice, 0, len(hits))
	for _, h := range hits {
		if h.Path == "" {
			continue
		}
		si := protocol.SymbolInformation{Location: protocol.Location{URI: pathToURI(h.Path), Range: toRange(h.Range)}}
		si.Name = h.Name
		si.Kind = symbolKind(h.Kind)
		if h.Container != "" {
			c := h.Container
			si.ContainerName = &c
		}
		out = append(out, si)
	}
	return out, nil
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
