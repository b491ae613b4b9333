package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// Decl is one library declaration in JSON: the one shape of a declaration,
// in the tools' outputs and in the commands' --json (search, retrieve).
type Decl struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Module string `json:"module"`
	// File is the absolute path of the declaring file when it is on disk,
	// else its path in its package; Line is 1-based.
	File      string `json:"file"`
	Line      int    `json:"line"`
	Signature string `json:"signature"`
	Doc       string `json:"doc,omitempty"`
}

// DeclOf converts d, its file resolved by lib (library.DeclPath, the one
// resolver; its path in its package when no indexed file declares it).
func DeclOf(lib *library.Library, d *library.Decl) Decl {
	file, ok := lib.DeclPath(d)
	if !ok {
		file = d.File
	}
	return Decl{Name: d.Name, Kind: string(d.Kind), Module: d.Module, File: file, Line: d.Range.Start.Line + 1, Signature: d.Signature, Doc: d.Doc}
}

// where renders a declaration's place and signature on two lines.
func (d Decl) where() string {
	return fmt.Sprintf("%s  [%s]  %s:%d\n    %s", d.Name, d.Kind, d.File, d.Line, strings.Join(strings.Fields(d.Signature), " "))
}

// SearchInput is the search tool's arguments.
type SearchInput struct {
	Query string `json:"query" jsonschema:"what to look for: natural language, a Lean name or a formula"`
	K     int    `json:"k,omitempty" jsonschema:"number of hits, 1 to 100 (default 10)"`
	Kind  string `json:"kind,omitempty" jsonschema:"keep only these declaration kinds, comma separated (def, theorem, abbrev, instance, structure, class, inductive, …)"`
}

// Hit is one search hit (the search tool leaves out the docstring, whose
// first sentence is Summary).
type Hit struct {
	Decl
	Score float64 `json:"score"`
	// Channels are the ranks at which the retrieval channels found it.
	Channels map[string]int `json:"channels"`
	// Summary is the docstring's first sentence; Why says what matched.
	Summary string `json:"summary,omitempty"`
	Why     string `json:"why,omitempty"`
}

// HitOf converts a search hit, as DeclOf does its declaration.
func HitOf(lib *library.Library, h retrieval.Hit) Hit {
	ch := h.Channels
	if ch == nil {
		ch = map[string]int{}
	}
	return Hit{Decl: DeclOf(lib, h.Decl), Score: h.Score, Channels: ch, Summary: h.Summary, Why: h.Why}
}

// SearchOutput is the search tool's result: hits, best first.
type SearchOutput struct {
	Hits []Hit `json:"hits"`
}

func (o SearchOutput) text() string {
	if len(o.Hits) == 0 {
		return "no matches"
	}
	var b strings.Builder
	for i, h := range o.Hits {
		fmt.Fprintf(&b, "%2d. %s\n", i+1, h.where())
		if h.Summary != "" {
			fmt.Fprintf(&b, "    %s\n", h.Summary)
		}
	}
	return b.String()
}

func (t *tools) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (SearchOutput, error) {
	if err := text("query", in.Query, true); err != nil {
		return SearchOutput{}, err
	}
	k, err := count("k", in.K, 10, maxK)
	if err != nil {
		return SearchOutput{}, err
	}
	q := retrieval.Query{Text: in.Query, K: k}
	if q.Kinds, err = kinds(in.Kind); err != nil {
		return SearchOutput{}, err
	}
	e, err := t.engine(ctx)
	if err != nil {
		return SearchOutput{}, err
	}
	hits, err := e.Search(ctx, q)
	if err != nil {
		return SearchOutput{}, err
	}
	lib := e.Library()
	out := SearchOutput{Hits: make([]Hit, 0, len(hits))}
	for _, h := range hits {
		// The summary stands for the docstring, which declaration gives
		// whole: a hit list stays small.
		hit := HitOf(lib, h)
		hit.Doc = ""
		out.Hits = append(out.Hits, hit)
	}
	return out, nil
}

// kinds parses a comma-separated list of declaration kinds.
func kinds(list string) ([]library.Kind, error) {
	if err := text("kind", list, false); err != nil {
		return nil, err
	}
	var out []library.Kind
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		if !slices.Contains(library.Kinds, library.Kind(k)) {
			names := make([]string, len(library.Kinds))
			for i, k := range library.Kinds {
				names[i] = string(k)
			}
			return nil, fmt.Errorf("unknown kind %q; the kinds are %s", textcut.Cut(k, 40), strings.Join(names, ", "))
		}
		out = append(out, library.Kind(k))
	}
	return out, nil
}

// CheckNamesInput is the check_names tool's arguments.
type CheckNamesInput struct {
	Names []string `json:"names" jsonschema:"Lean names as you would write them in a statement, e.g. Nat.Prime or Finset.sum_comm"`
}

// NameCheck is what the library makes of one name.
type NameCheck struct {
	Name string `json:"name"`
	// Known: the name, written with no open namespaces, refers to something
	// (a declaration, a core constant, a namespace, an exported field).
	Known bool `json:"known"`
	// Kind is the declaration's kind when the library declares the name.
	Kind string `json:"kind,omitempty"`
	// Match is the name channel's verdict: exact, suffix (the name is the
	// end of full names, e.g. under a namespace to open), partial or
	// missing; Resolved are those full names.
	Match    string   `json:"match"`
	Resolved []string `json:"resolved"`
	// Suggestions are the names probably meant, for an unknown name.
	Suggestions []string `json:"suggestions"`
}

// CheckNamesOutput is the check_names tool's result, one entry per name.
type CheckNamesOutput struct {
	Names   []NameCheck `json:"names"`
	Unknown int         `json:"unknown"`
}

func (o CheckNamesOutput) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d names unknown\n", o.Unknown, len(o.Names))
	for _, n := range o.Names {
		switch {
		case n.Known && n.Kind != "":
			fmt.Fprintf(&b, "%s: known (%s)\n", n.Name, n.Kind)
		case n.Known:
			fmt.Fprintf(&b, "%s: known\n", n.Name)
		case len(n.Suggestions) > 0:
			fmt.Fprintf(&b, "%s: UNKNOWN; did you mean %s?\n", n.Name, strings.Join(n.Suggestions, ", "))
		default:
			fmt.Fprintf(&b, "%s: UNKNOWN\n", n.Name)
		}
	}
	return b.String()
}

func (t *tools) checkNames(ctx context.Context, _ *mcp.CallToolRequest, in CheckNamesInput) (CheckNamesOutput, error) {
	switch {
	case len(in.Names) == 0:
		return CheckNamesOutput{}, errors.New("names is empty")
	case len(in.Names) > maxNames:
		return CheckNamesOutput{}, fmt.Errorf("names has %d entries, more than the limit of %d", len(in.Names), maxNames)
	}
	full := make([]string, len(in.Names))
	total := 0
	for i, n := range in.Names {
		var err error
		if full[i], err = leanName(fmt.Sprintf("names[%d]", i), n); err != nil {
			return CheckNamesOutput{}, err
		}
		if total += len(n); total > maxText {
			return CheckNamesOutput{}, fmt.Errorf("names hold more than %d bytes in all", maxText)
		}
	}
	e, err := t.engine(ctx)
	if err != nil {
		return CheckNamesOutput{}, err
	}
	ix := e.Names()
	if ix == nil {
		return CheckNamesOutput{}, errNotReady
	}
	kindOf := leanrepl.LibraryKinds(e.Lookup)
	matches, _ := drift.CheckNames(ix, full)
	out := CheckNamesOutput{Names: make([]NameCheck, len(in.Names))}
	for i, name := range full {
		if err := ctx.Err(); err != nil {
			return CheckNamesOutput{}, err
		}
		ok, sugg := leanrepl.Resolve(name, "", ix, kindOf)
		c := NameCheck{Name: in.Names[i], Known: ok, Match: matches[i].Check, Resolved: matches[i].Resolved, Suggestions: sugg}
		if kind, _, found := kindOf(name); found {
			c.Kind = kind
		}
		if c.Suggestions == nil {
			c.Suggestions = []string{}
		}
		if !ok {
			out.Unknown++
		}
		out.Names[i] = c
	}
	return out, nil
}

// DeclarationInput is the declaration tool's arguments.
type DeclarationInput struct {
	Name string `json:"name" jsonschema:"the declaration's full name, e.g. Nat.Prime.two_le (a unique suffix is accepted)"`
}

// DeclarationOutput is one declaration with its source text.
type DeclarationOutput struct {
	Decl
	// Source is the declaration's text in its file (cut at 64 KiB).
	Source    string `json:"source"`
	Truncated bool   `json:"truncated,omitempty"`
	// ResolvedFrom is the name asked for when it was a suffix.
	ResolvedFrom string `json:"resolved_from,omitempty"`
}

func (o DeclarationOutput) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  [%s]  %s:%d\n", o.Name, o.Kind, o.File, o.Line)
	if o.Doc != "" {
		fmt.Fprintf(&b, "/-- %s -/\n", strings.TrimSpace(o.Doc))
	}
	if o.Source != "" {
		b.WriteString(o.Source)
	} else {
		b.WriteString(o.Signature)
	}
	return b.String()
}

func (t *tools) declaration(ctx context.Context, _ *mcp.CallToolRequest, in DeclarationInput) (DeclarationOutput, error) {
	name, err := leanName("name", in.Name)
	if err != nil {
		return DeclarationOutput{}, err
	}
	e, err := t.engine(ctx)
	if err != nil {
		return DeclarationOutput{}, err
	}
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
				return DeclarationOutput{}, fmt.Errorf("no declaration named %s", name)
			}
			return DeclarationOutput{}, fmt.Errorf("no declaration named %s; did you mean %s?", name, strings.Join(sugg, ", "))
		}
		from = name
		if d, ok = e.Lookup(cands[0]); !ok {
			return DeclarationOutput{}, fmt.Errorf("no declaration named %s", name)
		}
	}
	lib := e.Library()
	out := DeclarationOutput{Decl: DeclOf(lib, d), ResolvedFrom: from}
	if p, ok := lib.DeclPath(d); ok {
		out.Source, out.Truncated, err = source(p, d.Range)
		if err != nil {
			return DeclarationOutput{}, err
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

// RetrieveInput is the retrieve tool's arguments.
type RetrieveInput struct {
	Statement string `json:"statement" jsonschema:"the informal (or semi-formal) statement to formalize"`
	K         int    `json:"k,omitempty" jsonschema:"number of premises, 1 to 100 (default: the pipeline.k setting, 5)"`
	M         int    `json:"m,omitempty" jsonschema:"number of illustrative theorems, 1 to 20 (default: the pipeline.m setting, 3)"`
}

// Illustrative is a library theorem that shows premises in use.
type Illustrative struct {
	Decl
	// Covers are the premises it uses that no earlier theorem did.
	Covers []string `json:"covers"`
}

// RetrieveOutput is the retrieve tool's result.
type RetrieveOutput struct {
	Premises     []Decl         `json:"premises"`
	Illustrative []Illustrative `json:"illustrative"`
	// Coverage is the share of premises some illustrative theorem uses.
	Coverage float64 `json:"coverage"`
}

func (o RetrieveOutput) text() string {
	var b strings.Builder
	b.WriteString("Premises:\n")
	for i, p := range o.Premises {
		fmt.Fprintf(&b, "%2d. %s\n", i+1, p.where())
	}
	fmt.Fprintf(&b, "Illustrative theorems (coverage %.0f%%):\n", 100*o.Coverage)
	for i, d := range o.Illustrative {
		fmt.Fprintf(&b, "%2d. %s\n    covers %s\n", i+1, d.where(), strings.Join(d.Covers, ", "))
	}
	return b.String()
}

func (t *tools) retrieve(ctx context.Context, _ *mcp.CallToolRequest, in RetrieveInput) (RetrieveOutput, error) {
	if err := text("statement", in.Statement, true); err != nil {
		return RetrieveOutput{}, err
	}
	defK, defM := t.b.Params()
	k, err := count("k", in.K, defK, maxK)
	if err != nil {
		return RetrieveOutput{}, err
	}
	m, err := count("m", in.M, defM, maxM)
	if err != nil {
		return RetrieveOutput{}, err
	}
	e, err := t.engine(ctx)
	if err != nil {
		return RetrieveOutput{}, err
	}
	prem, err := e.Retrieve(ctx, in.Statement, nil, k)
	if err != nil {
		return RetrieveOutput{}, err
	}
	names := make([]string, len(prem))
	for i, p := range prem {
		names[i] = p.Decl.Name
	}
	ill, err := e.Illustrate(ctx, in.Statement, names, m)
	if err != nil {
		return RetrieveOutput{}, err
	}
	lib := e.Library()
	out := RetrieveOutput{Premises: make([]Decl, len(prem)), Illustrative: make([]Illustrative, len(ill.Theorems)), Coverage: ill.Coverage}
	for i, p := range prem {
		out.Premises[i] = DeclOf(lib, p.Decl)
	}
	for i, d := range ill.Theorems {
		out.Illustrative[i] = Illustrative{Decl: DeclOf(lib, d), Covers: []string{}}
		if i < len(ill.Covers) && ill.Covers[i] != nil {
			out.Illustrative[i].Covers = ill.Covers[i]
		}
	}
	return out, nil
}

// CheckInput is the check tool's arguments.
type CheckInput struct {
	Stub   string `json:"stub" jsonschema:"one theorem, lemma or example whose proof is sorry, e.g. theorem foo (n : Nat) : n + 0 = n := by sorry"`
	Header string `json:"header,omitempty" jsonschema:"the file header (imports and opens) to check it under (default: import Mathlib when the workspace uses Mathlib)"`
}

// CheckOutput is the checker's report, as drift-lsp check --json prints it.
type CheckOutput struct {
	leanrepl.ReportJSON
	Header string `json:"header"`
}

// refused reports a stub the safety gate refused: nothing was checked.
func (o CheckOutput) refused() bool { return !o.GatePassed }

func (o CheckOutput) text() string {
	var b strings.Builder
	switch {
	case !o.GatePassed:
		fmt.Fprintf(&b, "REJECTED by the safety gate (Lean not run): %s\n", o.GateReason)
	case o.Passed && o.LeanRan:
		b.WriteString("PASSED every check, Lean included\n")
	case o.Passed:
		fmt.Fprintf(&b, "PASSED the checks that ran; Lean not run: %s\n", o.LeanSkipped)
	default:
		b.WriteString("FAILED\n")
	}
	for _, f := range o.Findings {
		fmt.Fprintf(&b, "%d:%d [%s] %s\n", f.Line, max(f.Column, 0), f.Code, f.Message)
	}
	return b.String()
}

func (t *tools) check(ctx context.Context, req *mcp.CallToolRequest, in CheckInput) (CheckOutput, error) {
	if err := text("stub", in.Stub, true); err != nil {
		return CheckOutput{}, err
	}
	if err := text("header", in.Header, false); err != nil {
		return CheckOutput{}, err
	}
	header := in.Header
	if strings.TrimSpace(header) == "" {
		header = t.b.Header()
	}
	// The gate needs no index: a hostile stub is refused at once.
	if _, err := leanrepl.Gate(in.Stub); err == nil {
		if _, err := t.engine(ctx); err != nil {
			return CheckOutput{}, err
		}
	}
	rep, err := t.b.Check(ctx, leanrepl.CheckRequest{Header: header, Stub: in.Stub, Progress: notifier(ctx, req)})
	if err != nil {
		return CheckOutput{}, err
	}
	return CheckOutput{ReportJSON: rep.JSON(), Header: header}, nil
}

// FormalizeInput is the formalize tool's arguments.
type FormalizeInput struct {
	Statement string `json:"statement" jsonschema:"the informal mathematical statement"`
	Name      string `json:"name,omitempty" jsonschema:"the theorem's name (default: chosen from the statement)"`
}

// FormalizeOutput is the pipeline's result.
type FormalizeOutput struct {
	Name string `json:"name"`
	// Stub is the chosen theorem stub; Passed whether it passed every
	// check that ran, which Report details.
	Stub   string               `json:"stub"`
	Passed bool                 `json:"passed"`
	Report *leanrepl.ReportJSON `json:"report"`
	// Opens are lines the stub needs in the file header.
	Opens    []string `json:"opens"`
	Premises []Decl   `json:"premises"`
	// Candidates counts the formalizations sampled; ModelCalls the model
	// calls made.
	Candidates int      `json:"candidates"`
	ModelCalls int      `json:"model_calls"`
	Warnings   []string `json:"warnings"`
}

func (o FormalizeOutput) text() string {
	var b strings.Builder
	verdict := "PASSED the checks that ran"
	if !o.Passed {
		verdict = "FAILED a check"
	}
	fmt.Fprintf(&b, "%s (%d candidates, %d model calls)\n", verdict, o.Candidates, o.ModelCalls)
	if len(o.Opens) > 0 {
		fmt.Fprintf(&b, "needs in the header: %s\n", strings.Join(o.Opens, "; "))
	}
	b.WriteString(o.Stub)
	b.WriteString("\n")
	if o.Report != nil {
		for _, f := range o.Report.Findings {
			fmt.Fprintf(&b, "%d:%d [%s] %s\n", f.Line, max(f.Column, 0), f.Code, f.Message)
		}
	}
	for _, w := range o.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}

func (t *tools) formalize(ctx context.Context, req *mcp.CallToolRequest, in FormalizeInput) (FormalizeOutput, error) {
	if err := text("statement", in.Statement, true); err != nil {
		return FormalizeOutput{}, err
	}
	if err := text("name", in.Name, false); err != nil {
		return FormalizeOutput{}, err
	}
	name := strings.TrimSpace(in.Name)
	if name != "" && drift.SanitizeName(name) != name {
		return FormalizeOutput{}, fmt.Errorf("name %q is not a Lean identifier (try %q)", textcut.Cut(name, 100), drift.SanitizeName(name))
	}
	if _, err := t.engine(ctx); err != nil {
		return FormalizeOutput{}, err
	}
	res, err := t.b.Formalize(ctx, drift.Request{Statement: in.Statement, Name: name, Header: t.b.Header()}, notifier(ctx, req))
	if err != nil {
		return FormalizeOutput{}, err
	}
	lib := t.b.Engine().Library()
	out := FormalizeOutput{Name: res.Name, Stub: res.Stub, Passed: res.Report != nil && res.Report.Passed(), Opens: append([]string{}, res.Opens...),
		Premises: make([]Decl, 0, len(res.Premises)), Candidates: len(res.Candidates), ModelCalls: res.Usage.Calls, Warnings: append([]string{}, res.Warnings...)}
	if res.Report != nil {
		rj := res.Report.JSON()
		out.Report = &rj
	}
	for _, p := range res.Premises {
		out.Premises = append(out.Premises, DeclOf(lib, p.Decl))
	}
	return out, nil
}

// notifier sends the pipeline's or the checker's progress events as MCP
// progress notifications when the call asked for them (a progress token).
func notifier(ctx context.Context, req *mcp.CallToolRequest) progress.Func {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return nil
	}
	n := 0
	return func(ev progress.Event) {
		n++
		_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(n), Message: "[" + ev.Stage + "] " + ev.Message})
	}
}

// LintDocsInput is the lint_docs tool's arguments.
type LintDocsInput struct {
	Path string `json:"path,omitempty" jsonschema:"a .lean file or a directory of the workspace (default: the workspace's own files, not its packages)"`
}

// LintFinding is one name in a comment that does not resolve.
type LintFinding struct {
	File string `json:"file"`
	// Line and Col are 1-based.
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Name   string `json:"name"`
	Status string `json:"status"`
	// Suggestions are what it should probably be; Sure when the first is
	// unambiguous.
	Suggestions []string `json:"suggestions"`
	Sure        bool     `json:"sure"`
}

// LintDocsOutput is the lint_docs tool's result.
type LintDocsOutput struct {
	Findings []LintFinding `json:"findings"`
	// Files counts the files linted; Total the findings, of which at most
	// 500 are listed.
	Files int `json:"files"`
	Total int `json:"total"`
}

func (o LintDocsOutput) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d findings in %d files\n", o.Total, o.Files)
	for _, f := range o.Findings {
		s := "?"
		if len(f.Suggestions) > 0 {
			s = strings.Join(f.Suggestions, " | ")
		}
		fmt.Fprintf(&b, "%s:%d:%d %s (%s) → %s\n", f.File, f.Line, f.Col, f.Name, f.Status, s)
	}
	if o.Total > len(o.Findings) {
		fmt.Fprintf(&b, "… %d more\n", o.Total-len(o.Findings))
	}
	return b.String()
}

func (t *tools) lintDocs(ctx context.Context, _ *mcp.CallToolRequest, in LintDocsInput) (LintDocsOutput, error) {
	if err := text("path", in.Path, false); err != nil {
		return LintDocsOutput{}, err
	}
	e, err := t.engine(ctx)
	if err != nil {
		return LintDocsOutput{}, err
	}
	files, err := lintFiles(e.Library(), in.Path)
	if err != nil {
		return LintDocsOutput{}, err
	}
	reports, err := t.b.LintDocs(ctx, files)
	if err != nil {
		return LintDocsOutput{}, err
	}
	out := LintDocsOutput{Findings: []LintFinding{}, Files: len(files)}
	for _, r := range reports {
		for _, x := range r.Findings {
			out.Total++
			if len(out.Findings) < maxLintOut {
				out.Findings = append(out.Findings, LintFinding{File: r.Path, Line: x.Range.Start.Line + 1, Col: x.Range.Start.Character + 1,
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
