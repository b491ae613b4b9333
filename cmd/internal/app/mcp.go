package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/cmd/internal/mcpserver"
	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// MCP returns w as the MCP edge's backend (mcpserver.Backend): it runs each
// tool over the workspace and converts every result into the edge's own
// types, as Opener does for the language server's.
func MCP(w *Workspace) mcpserver.Backend { return mcpBackend{w} }

// mcpBackend implements mcpserver.Backend over a Workspace.
type mcpBackend struct{ w *Workspace }

// maxSource bounds the declaration source text returned, in bytes.
const maxSource = 64 << 10

// DeclOf converts d to the one JSON shape of a declaration, its file
// resolved by lib (library.DeclPath, the one resolver; its path in its
// package when no indexed file declares it).
func DeclOf(lib *library.Library, d *library.Decl) mcpserver.Decl {
	file, ok := lib.DeclPath(d)
	if !ok {
		file = d.File
	}
	return mcpserver.Decl{Name: d.Name, Kind: string(d.Kind), Module: d.Module, File: file, Line: d.Range.Start.Line + 1, Signature: d.Signature, Doc: d.Doc}
}

// HitOf converts a search hit, as DeclOf does its declaration.
func HitOf(lib *library.Library, h retrieval.Hit) mcpserver.Hit {
	ch := h.Channels
	if ch == nil {
		ch = map[string]int{}
	}
	return mcpserver.Hit{Decl: DeclOf(lib, h.Decl), Score: h.Score, Channels: ch, Summary: h.Summary, Why: h.Why}
}

func (m mcpBackend) Header() string      { return m.w.Header() }
func (m mcpBackend) Params() (k, mm int) { return m.w.Params() }

// Kinds lists the declaration kinds.
func (mcpBackend) Kinds() []string {
	out := make([]string, len(library.Kinds))
	for i, k := range library.Kinds {
		out[i] = string(k)
	}
	return out
}

// Gate runs the checker's safety gate alone.
func (mcpBackend) Gate(stub string) error {
	_, err := leanrepl.Gate(stub)
	return err
}

// SanitizeName is the Lean identifier the pipeline makes of name.
func (mcpBackend) SanitizeName(name string) string { return drift.SanitizeName(name) }

// Ready waits until the index is ready, or says how far it came.
func (m mcpBackend) Ready(ctx context.Context) error {
	e := m.w.b.eng
	if e.Status().Ready {
		return nil
	}
	if err := e.WaitReady(ctx); err != nil {
		st := e.Status()
		if st.Phase == "failed" {
			return fmt.Errorf("the index failed: %s", st.Warning)
		}
		return fmt.Errorf("%w (%s, %d/%d files); call again shortly", mcpserver.ErrNotReady, st.Phase, st.Done, st.Total)
	}
	return nil
}

func (m mcpBackend) Search(ctx context.Context, query string, k int, kinds []string) ([]mcpserver.Hit, error) {
	q := retrieval.Query{Text: query, K: k}
	for _, kd := range kinds {
		q.Kinds = append(q.Kinds, library.Kind(kd))
	}
	e := m.w.b.eng
	hits, err := e.Search(ctx, q)
	if err != nil {
		return nil, err
	}
	lib := e.Library()
	out := make([]mcpserver.Hit, 0, len(hits))
	for _, h := range hits {
		out = append(out, HitOf(lib, h))
	}
	return out, nil
}

func (m mcpBackend) CheckNames(ctx context.Context, names []string) ([]mcpserver.NameCheck, error) {
	e := m.w.b.eng
	ix := e.Names()
	if ix == nil {
		return nil, mcpserver.ErrNotReady
	}
	kindOf := leanrepl.LibraryKinds(e.Lookup, e.ExportAlias)
	matches, _ := drift.CheckNames(ix, names)
	out := make([]mcpserver.NameCheck, len(names))
	for i, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ok, sugg := leanrepl.Resolve(name, "", ix, kindOf)
		c := mcpserver.NameCheck{Name: name, Known: ok, Match: matches[i].Check, Resolved: matches[i].Resolved, Suggestions: sugg}
		if kind, _, found := kindOf(name); found {
			c.Kind = kind
		}
		if c.Suggestions == nil {
			c.Suggestions = []string{}
		}
		out[i] = c
	}
	return out, nil
}

func (m mcpBackend) Declaration(ctx context.Context, name string) (mcpserver.DeclarationOutput, error) {
	e := m.w.b.eng
	d, ok := e.Lookup(name)
	from := ""
	if !ok {
		var cands []string
		if ix := e.Names(); ix != nil {
			cands = ix.Suffix(name)
		}
		if len(cands) != 1 {
			_, sugg := leanrepl.Resolve(name, "", drift.LiveNames(e), nil)
			if len(cands) > 1 {
				sugg = cands[:min(len(cands), 10)]
			}
			if len(sugg) == 0 {
				return mcpserver.DeclarationOutput{}, fmt.Errorf("no declaration named %s", name)
			}
			return mcpserver.DeclarationOutput{}, fmt.Errorf("no declaration named %s; did you mean %s?", name, strings.Join(sugg, ", "))
		}
		from = name
		if d, ok = e.Lookup(cands[0]); !ok {
			return mcpserver.DeclarationOutput{}, fmt.Errorf("no declaration named %s", name)
		}
	}
	lib := e.Library()
	out := mcpserver.DeclarationOutput{Decl: DeclOf(lib, d), ResolvedFrom: from}
	if p, ok := lib.DeclPath(d); ok && !filepath.IsAbs(d.File) {
		var err error
		if out.Source, out.Truncated, err = source(p, d.Range); err != nil {
			return mcpserver.DeclarationOutput{}, err
		}
	}
	return out, nil
}

// source reads the text of range r of the file at path, cut at maxSource
// bytes.
func source(path string, r library.Range) (string, bool, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", false, err
	}
	src, _ := leansrc.Prepare(raw)
	ix := leansrc.NewLineIndex(src)
	from := ix.Offset(r.Start)
	to := ix.Offset(r.End)
	if to < from {
		return "", false, fmt.Errorf("%s changed since it was indexed", path)
	}
	s := string(src[from:to])
	if len(s) > maxSource {
		return textcut.CutBytes(s, maxSource), true, nil
	}
	return s, false, nil
}

func (m mcpBackend) Retrieve(ctx context.Context, statement string, k, n int) (mcpserver.RetrieveOutput, error) {
	e := m.w.b.eng
	prem, err := e.Retrieve(ctx, statement, nil, k)
	if err != nil {
		return mcpserver.RetrieveOutput{}, err
	}
	names := make([]string, len(prem))
	for i, p := range prem {
		names[i] = p.Decl.Name
	}
	ill, err := e.Illustrate(ctx, statement, names, n)
	if err != nil {
		return mcpserver.RetrieveOutput{}, err
	}
	lib := e.Library()
	out := mcpserver.RetrieveOutput{Premises: make([]mcpserver.Decl, len(prem)), Illustrative: make([]mcpserver.Illustrative, len(ill.Theorems)), Coverage: ill.Coverage}
	for i, p := range prem {
		out.Premises[i] = DeclOf(lib, p.Decl)
	}
	for i, d := range ill.Theorems {
		out.Illustrative[i] = mcpserver.Illustrative{Decl: DeclOf(lib, d), Covers: []string{}}
		if i < len(ill.Covers) && ill.Covers[i] != nil {
			out.Illustrative[i].Covers = ill.Covers[i]
		}
	}
	return out, nil
}

func (m mcpBackend) Check(ctx context.Context, header, stub string, report progress.Func) (*leanrepl.ReportJSON, error) {
	rep, err := m.w.Check(ctx, leanrepl.CheckRequest{Header: header, Stub: stub, Progress: report})
	if err != nil {
		return nil, err
	}
	rj := rep.JSON()
	return &rj, nil
}

func (m mcpBackend) Formalize(ctx context.Context, statement, name, header string, report progress.Func) (mcpserver.FormalizeOutput, error) {
	start := time.Now()
	res, err := m.w.Formalize(ctx, drift.Request{Statement: statement, Name: name, Header: header}, report)
	if err != nil {
		return mcpserver.FormalizeOutput{}, err
	}
	return FormalizedOf(m.w.b.eng.Library(), res, time.Since(start)), nil
}

// FormalizedOf converts a pipeline result, which took d, to the one JSON
// shape of a formalize result (the formalize tool's, formalize --json's),
// its declarations as DeclOf converts them; empty lists stay [].
func FormalizedOf(lib *library.Library, res *drift.Result, d time.Duration) mcpserver.FormalizeOutput {
	u := res.Usage
	out := mcpserver.FormalizeOutput{Statement: res.Statement, Name: res.Name, Stub: res.Stub, Passed: res.Report != nil && res.Report.Passed(),
		Opens: orEmpty(res.Opens), SubQueries: []mcpserver.SubQuery{}, Premises: []mcpserver.Premise{}, Proposed: []mcpserver.ProposedName{},
		HallucinationRate: res.HallucinationRate, Illustrative: []mcpserver.Illustrative{}, Coverage: res.Illustration.Coverage,
		Candidates: []mcpserver.Candidate{}, Warnings: orEmpty(res.Warnings), Calls: []mcpserver.Call{}, Seconds: d.Seconds(),
		Usage: mcpserver.Usage{Calls: u.Calls, CacheHits: u.CacheHits, Attempts: u.Attempts, Failures: u.Failures, PromptTokens: u.PromptTokens,
			CachedPromptTokens: u.CachedPromptTokens, CompletionTokens: u.CompletionTokens, DurationNS: int64(u.Duration), PerStage: u.PerStage}}
	if r := res.Report; r != nil {
		rj := r.JSON()
		out.Report, out.Refuted, out.Counterexample, out.Verdict = &rj, rj.Refuted, rj.Counterexample, rj.Verdict
	}
	for _, q := range res.SubQueries {
		out.SubQueries = append(out.SubQueries, mcpserver.SubQuery{Informal: q.Informal, Formal: q.Formal})
	}
	for _, p := range res.Premises {
		out.Premises = append(out.Premises, mcpserver.Premise{Decl: DeclOf(lib, p.Decl), Source: p.Source, SubQuery: p.SubQuery})
	}
	for _, p := range res.Proposed {
		out.Proposed = append(out.Proposed, mcpserver.ProposedName{Name: p.Name, Check: p.Check, Resolved: orEmpty(p.Resolved)})
	}
	for i, t := range res.Illustration.Theorems {
		ill := mcpserver.Illustrative{Decl: DeclOf(lib, t), Covers: []string{}}
		if i < len(res.Illustration.Covers) && res.Illustration.Covers[i] != nil {
			ill.Covers = res.Illustration.Covers[i]
		}
		out.Illustrative = append(out.Illustrative, ill)
	}
	for _, c := range res.Candidates {
		mc := mcpserver.Candidate{Stub: c.Stub, Notes: orEmpty(c.Notes), WithContext: c.WithContext, Seeds: orEmpty(c.Seeds), Agreement: c.Agreement, Error: c.Error}
		if c.Check != nil {
			rj := c.Check.JSON()
			mc.Check = &rj
		}
		out.Candidates = append(out.Candidates, mc)
	}
	if r := res.Repair; r != nil {
		out.Repair = &mcpserver.RepairInfo{Attempts: r.Attempts, Fixed: r.Fixed, Stop: r.Stop}
	}
	if g := res.Grammar; g != nil {
		gr := mcpserver.GrammarReport(*g)
		out.Grammar = &gr
	}
	if len(u.Stages) > 0 {
		out.Usage.Stages = make(map[string]mcpserver.StageUsage, len(u.Stages))
		for k, v := range u.Stages {
			out.Usage.Stages[k] = mcpserver.StageUsage(v)
		}
	}
	for _, c := range u.Log {
		out.Calls = append(out.Calls, mcpserver.Call(c))
	}
	return out
}

// orEmpty returns s, or an empty list for nil, so that JSON shows [].
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (m mcpBackend) LintDocs(ctx context.Context, path string, max int) (mcpserver.LintDocsOutput, error) {
	files, err := lintFiles(m.w.b.eng.Library(), path)
	if err != nil {
		return mcpserver.LintDocsOutput{}, err
	}
	reports, err := m.w.LintDocs(ctx, files)
	if err != nil {
		return mcpserver.LintDocsOutput{}, err
	}
	out := mcpserver.LintDocsOutput{Findings: []mcpserver.LintFinding{}, Files: len(files)}
	for _, r := range reports {
		for _, x := range r.Findings {
			out.Total++
			if len(out.Findings) < max {
				out.Findings = append(out.Findings, mcpserver.LintFinding{File: r.Path, Line: x.Range.Start.Line + 1, Col: x.Range.Start.Character + 1,
					Name: x.Name, Status: x.Status.String(), Suggestions: append([]string{}, x.Suggestions...), Sure: x.Sure})
			}
		}
	}
	return out, nil
}

// lintFiles returns the indexed files under path (a file or a directory,
// relative to the workspace or absolute), or the user's own files when path
// is empty.
func lintFiles(lib *library.Library, path string) ([]string, error) {
	if lib == nil {
		return nil, mcpserver.ErrNotReady
	}
	ws := lib.Workspace()
	if path == "" {
		var out []string
		for _, f := range lib.Files() {
			// The file's root is the innermost one holding it: the
			// workspace's root holds .lake/packages too.
			own, depth := false, -1
			for _, r := range ws.Roots {
				if within(f, r.Dir) && len(r.Dir) > depth {
					own, depth = r.User, len(r.Dir)
				}
			}
			if own {
				out = append(out, f)
			}
		}
		return out, nil
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(ws.Dir, path)
	}
	path = filepath.Clean(path)
	var out []string
	for _, f := range lib.Files() {
		if f == path || within(f, path) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no indexed Lean file at or under %s", path)
	}
	return out, nil
}

// within reports whether path lies under directory dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && !strings.HasPrefix(rel, "..")
}
