package lsp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/progress"
)

// The diagnostic codes of names in comments.
const (
	codeStale      = "stale-reference"
	codeDeprecated = "deprecated-reference"
)

// declKey identifies a tracked declaration: by name, or, for an example,
// by its ordinal among the file's examples (so that edits inside it keep it
// tracked).
func declKey(d *Document, start int, decl string) string {
	if n := stubName(decl); n != "" {
		return "name:" + n
	}
	k := 0
	for _, c := range d.Commands() {
		if c.Start < start && c.Keyword == "example" {
			k++
		}
	}
	return "example:" + strconv.Itoa(k)
}

func (s *server) track(u, key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.docs[u]
	if st == nil {
		return
	}
	if st.checks == nil {
		st.checks = map[string]*checked{}
	}
	if _, ok := st.checks[key]; !ok {
		st.checks[key] = nil
	}
}

// findTracked finds the declaration a key names in d.
func findTracked(d *Document, key string) (start, end int, ok bool) {
	kind, val, _ := strings.Cut(key, ":")
	examples := 0
	for _, c := range d.Commands() {
		var hit bool
		switch {
		case kind == "name" && (c.Keyword == "theorem" || c.Keyword == "lemma"):
			hit = c.Name == val
		case kind != "name" && c.Keyword == "example":
			hit = strconv.Itoa(examples) == val
			examples++
		}
		if hit {
			return c.Start, c.End, true
		}
	}
	return 0, 0, false
}

// refreshOne checks one tracked declaration and republishes the file's
// diagnostics; it returns the number of findings of that declaration.
func (s *server) refreshOne(ctx context.Context, b Backend, u, key string, report progress.Func) (int, *CheckReport, error) {
	d := s.snapshot(u)
	if d == nil {
		return 0, nil, errors.New("the document is not open")
	}
	start, end, ok := findTracked(d, key)
	if !ok {
		return 0, nil, fmt.Errorf("declaration %s not found", strings.TrimPrefix(key, "name:"))
	}
	rep, err := b.Check(ctx, leansrc.Header(d.Text), d.Text[start:end], report)
	if err != nil {
		return 0, nil, err
	}
	s.storeFindings(u, key, d.Text[start:end], rep)
	s.publish(u)
	return len(rep.Findings), rep, nil
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
	if st := s.docs[u]; st != nil {
		for k := range st.checks {
			keys = append(keys, k)
		}
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
			if st := s.docs[u]; st != nil {
				delete(st.checks, k)
			}
			s.mu.Unlock()
			continue
		}
		text := d.Text[start:end]
		var f *checked
		s.mu.Lock()
		if st := s.docs[u]; st != nil {
			f = st.checks[k]
		}
		s.mu.Unlock()
		if f != nil && f.text == text {
			continue
		}
		rep, err := b.Check(ctx, leansrc.Header(d.Text), text, nil)
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

// storeFindings keeps rep's findings for the declaration text while it is
// tracked; rep.Stub is text trimmed (and cut at its proof), so offsets
// shift by the leading white space.
func (s *server) storeFindings(u, key, text string, rep *CheckReport) {
	shift := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	fs := append([]Finding(nil), rep.Findings...)
	for i := range fs {
		if fs[i].Start >= 0 {
			fs[i].Start += shift
			fs[i].End += shift
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.docs[u]; st != nil {
		if _, tracked := st.checks[key]; tracked {
			st.checks[key] = &checked{text: text, findings: fs}
		}
	}
}

// publish sends the drift diagnostics of every tracked declaration of u,
// located in the current text.
func (s *server) publish(u string) {
	s.mu.Lock()
	st := s.docs[u]
	if st == nil {
		s.mu.Unlock()
		return
	}
	d := st.doc.clone()
	diags := []protocol.Diagnostic{}
	for _, c := range st.checks {
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
	diags = append(diags, st.commentDiags...)
	version := d.Version
	s.mu.Unlock()
	_ = s.client.PublishDiagnostics(context.Background(), &protocol.PublishDiagnosticsParams{
		URI: uri.URI(u), Version: protocol.NewOptional(version), Diagnostics: diags,
	})
}

// commentsWhenReady waits (until ctx ends) for the backend's checker of
// names in comments, which it builds in the background once the index is
// ready, then computes the diagnostics of every open document, and again
// each time the backend rebuilt the checker because the library changed.
func (s *server) commentsWhenReady(ctx context.Context, b Backend) {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for b.Comments() == nil {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
	for {
		changed := b.CommentsChanged()
		s.refreshOpenComments()
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
	}
}

// refreshOpenComments recomputes the comment diagnostics of every open
// document.
func (s *server) refreshOpenComments() {
	s.mu.Lock()
	us := make([]string, 0, len(s.docs))
	for u := range s.docs {
		us = append(us, u)
	}
	s.mu.Unlock()
	for _, u := range us {
		s.refreshComments(u)
	}
}

// refreshComments recomputes the diagnostics of the names in u's comments
// (after the debounce, off the read loop) and republishes.
func (s *server) refreshComments(u string) {
	d, doc, _ := s.commentDoc(u)
	if doc == nil {
		// Turned off (comments.enable): take back what was published.
		s.mu.Lock()
		st := s.docs[u]
		had := st != nil && len(st.commentDiags) > 0 && !s.settings.Comments.Enable
		if had {
			st.commentDiags = nil
		}
		s.mu.Unlock()
		if had {
			s.publish(u)
		}
		return
	}
	s.mu.Lock()
	severity := commentSeverity(s.settings.Comments.Severity)
	s.mu.Unlock()
	var diags []protocol.Diagnostic
	for _, f := range doc.Diagnostics() {
		diag := protocol.Diagnostic{Range: toRange(f.Range), Source: protocol.NewOptional("drift")}
		if f.Deprecated {
			diag.Severity = protocol.DiagnosticSeverityHint
			diag.Code = protocol.String(codeDeprecated)
			msg := fmt.Sprintf("`%s` is deprecated", f.Name)
			if len(f.Suggestions) > 0 {
				msg += fmt.Sprintf(": use `%s`", f.Suggestions[0])
			}
			diag.Message = protocol.String(msg)
		} else {
			if severity == 0 {
				continue
			}
			diag.Severity = severity
			diag.Code = protocol.String(codeStale)
			msg := fmt.Sprintf("`%s` does not resolve here", f.Name)
			if len(f.Suggestions) > 0 {
				msg += "; did you mean `" + strings.Join(f.Suggestions, "`, `") + "`?"
			}
			diag.Message = protocol.String(msg)
		}
		diags = append(diags, diag)
	}
	s.mu.Lock()
	if !s.current(u, d.Rev) {
		s.mu.Unlock()
		return // a newer edit will refresh again
	}
	s.docs[u].commentDiags = diags
	s.mu.Unlock()
	s.publish(u)
}

// commentSeverity maps the comments.severity setting to a severity (0:
// off). The default is Information.
func commentSeverity(v string) protocol.DiagnosticSeverity {
	switch strings.ToLower(v) {
	case "off", "none":
		return 0
	case "hint":
		return protocol.DiagnosticSeverityHint
	case "warning":
		return protocol.DiagnosticSeverityWarning
	case "error":
		return protocol.DiagnosticSeverityError
	}
	return protocol.DiagnosticSeverityInformation
}
