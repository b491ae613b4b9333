package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"github.com/drift-lsp/drift-lsp/leanrepl"
)

// Decl is one library declaration in JSON: the one shape of a declaration,
// in the tools' outputs and in the commands' --json (search, retrieve);
// app.DeclOf makes one.
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
	kinds, err := t.kinds(in.Kind)
	if err != nil {
		return SearchOutput{}, err
	}
	if err := t.ready(ctx); err != nil {
		return SearchOutput{}, err
	}
	hits, err := t.b.Search(ctx, in.Query, k, kinds)
	if err != nil {
		return SearchOutput{}, err
	}
	for i := range hits {
		// The summary stands for the docstring, which declaration gives
		// whole: a hit list stays small.
		hits[i].Doc = ""
	}
	return SearchOutput{Hits: hits}, nil
}

// kinds parses a comma-separated list of declaration kinds.
func (t *tools) kinds(list string) ([]string, error) {
	if err := text("kind", list, false); err != nil {
		return nil, err
	}
	var out []string
	for _, k := range strings.Split(list, ",") {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		if names := t.b.Kinds(); !slices.Contains(names, k) {
			return nil, fmt.Errorf("unknown kind %q; the kinds are %s", textcut.Cut(k, 40), strings.Join(names, ", "))
		}
		out = append(out, k)
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
	if err := t.ready(ctx); err != nil {
		return CheckNamesOutput{}, err
	}
	checks, err := t.b.CheckNames(ctx, full)
	if err != nil {
		return CheckNamesOutput{}, err
	}
	out := CheckNamesOutput{Names: checks}
	for i := range checks {
		checks[i].Name = in.Names[i] // as written
		if !checks[i].Known {
			out.Unknown++
		}
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
	// Source is the declaration's text in its file (cut at 64 KiB,
	// maxSource).
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
	if err := t.ready(ctx); err != nil {
		return DeclarationOutput{}, err
	}
	return t.b.Declaration(ctx, name)
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
	if err := t.ready(ctx); err != nil {
		return RetrieveOutput{}, err
	}
	return t.b.Retrieve(ctx, in.Statement, k, m)
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
	if err := t.b.Gate(in.Stub); err == nil {
		if err := t.ready(ctx); err != nil {
			return CheckOutput{}, err
		}
	}
	rep, err := t.b.Check(ctx, header, in.Stub, notifier(ctx, req))
	if err != nil {
		return CheckOutput{}, err
	}
	return CheckOutput{ReportJSON: *rep, Header: header}, nil
}

// FormalizeInput is the formalize tool's arguments.
type FormalizeInput struct {
	Statement string `json:"statement" jsonschema:"the informal mathematical statement"`
	Name      string `json:"name,omitempty" jsonschema:"the theorem's name (default: chosen from the statement)"`
}

// FormalizeOutput is the one JSON shape of a formalize result: the
// formalize tool's output and what drift-lsp formalize --json prints;
// app.FormalizedOf makes one from the pipeline's result.
type FormalizeOutput struct {
	Statement string `json:"statement"`
	Name      string `json:"name"`
	// Stub is the chosen theorem stub; Passed whether it passed every
	// check that ran, which Report details (Refuted, Counterexample and
	// Verdict repeat its summary).
	Stub           string               `json:"stub"`
	Passed         bool                 `json:"passed"`
	Refuted        bool                 `json:"refuted"`
	Counterexample string               `json:"counterexample"`
	Verdict        string               `json:"verdict"`
	Report         *leanrepl.ReportJSON `json:"report"`
	// Opens are lines the stub needs in the file header.
	Opens      []string   `json:"opens"`
	SubQueries []SubQuery `json:"sub_queries"`
	Premises   []Premise  `json:"premises"`
	// Proposed are the names the model proposed, checked against the
	// library; HallucinationRate the share of them that name nothing.
	Proposed          []ProposedName `json:"proposed"`
	HallucinationRate float64        `json:"hallucination_rate"`
	// Illustrative are library theorems that use the premises (as the
	// retrieve tool gives them); Coverage the share of premises they use.
	Illustrative []Illustrative `json:"illustrative"`
	Coverage     float64        `json:"coverage"`
	// Candidates are the formalizations sampled, best first.
	Candidates []Candidate    `json:"candidates"`
	Repair     *RepairInfo    `json:"repair"`
	Grammar    *GrammarReport `json:"grammar"`
	Warnings   []string       `json:"warnings"`
	// Usage totals the model calls (Usage.Calls: answered calls, cache
	// hits not counted); Calls lists each, in the order they ended.
	Usage   Usage   `json:"usage"`
	Calls   []Call  `json:"calls"`
	Seconds float64 `json:"seconds"`
}

// SubQuery is one part of a decomposed statement, in words and in Lean.
type SubQuery struct {
	Informal string `json:"informal"`
	Formal   string `json:"formal"`
}

// Premise is a declaration retrieved for the statement: Source says how
// ("retrieve", "propose"), SubQuery for which part (-1: the whole).
type Premise struct {
	Decl
	Source   string `json:"source"`
	SubQuery int    `json:"sub_query"`
}

// ProposedName is a name the model proposed (drift.ProposedName): Check is
// exact, suffix, partial or missing; Resolved the full names it stands for.
type ProposedName struct {
	Name     string   `json:"name"`
	Check    string   `json:"check"`
	Resolved []string `json:"resolved"`
}

// Candidate is one sampled formalization and its check.
type Candidate struct {
	Stub        string               `json:"stub"`
	Notes       []string             `json:"notes"`
	WithContext bool                 `json:"with_context"`
	Seeds       []int                `json:"seeds"`
	Agreement   int                  `json:"agreement"`
	Check       *leanrepl.ReportJSON `json:"check"`
	Error       string               `json:"error"`
}

// RepairInfo is the repair stage's account (drift.RepairInfo): attempts
// checked, whether one passed, why it stopped.
type RepairInfo struct {
	Attempts int    `json:"attempts"`
	Fixed    bool   `json:"fixed"`
	Stop     string `json:"stop"`
}

// GrammarReport says how constrained decoding went (drift.GrammarReport).
type GrammarReport struct {
	Names      int    `json:"names"`
	Bytes      int    `json:"bytes"`
	Answers    int    `json:"answers"`
	Departed   int    `json:"departed"`
	NotApplied string `json:"not_applied,omitempty"`
}

// Usage totals an action's model calls (llm.Usage).
type Usage struct {
	Calls              int                   `json:"calls"`
	CacheHits          int                   `json:"cache_hits"`
	Attempts           int                   `json:"attempts"`
	Failures           int                   `json:"failures"`
	PromptTokens       int                   `json:"prompt_tokens"`
	CachedPromptTokens int                   `json:"cached_prompt_tokens"`
	CompletionTokens   int                   `json:"completion_tokens"`
	DurationNS         int64                 `json:"duration_ns"`
	PerStage           map[string]int        `json:"per_stage,omitempty"`
	Stages             map[string]StageUsage `json:"stages,omitempty"`
}

// StageUsage totals one stage's calls (llm.StageUsage).
type StageUsage struct {
	Calls              int     `json:"calls"`
	CacheHits          int     `json:"cache_hits"`
	Failures           int     `json:"failures"`
	PromptTokens       int     `json:"prompt_tokens"`
	CachedPromptTokens int     `json:"cached_prompt_tokens"`
	CompletionTokens   int     `json:"completion_tokens"`
	Seconds            float64 `json:"seconds"`
}

// Call is one model call (llm.Call).
type Call struct {
	Stage              string  `json:"stage"`
	Answers            int     `json:"answers"`
	PromptTokens       int     `json:"prompt_tokens"`
	CachedPromptTokens int     `json:"cached_prompt_tokens"`
	CompletionTokens   int     `json:"completion_tokens"`
	Seconds            float64 `json:"seconds"`
	CacheHit           bool    `json:"cache_hit"`
	Error              string  `json:"error,omitempty"`
}

func (o FormalizeOutput) text() string {
	var b strings.Builder
	verdict := "PASSED the checks that ran"
	if !o.Passed {
		verdict = "FAILED a check"
	}
	fmt.Fprintf(&b, "%s (%d candidates, %d model calls)\n", verdict, len(o.Candidates), o.Usage.Calls)
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
	if name != "" && t.b.SanitizeName(name) != name {
		return FormalizeOutput{}, fmt.Errorf("name %q is not a Lean identifier (try %q)", textcut.Cut(name, 100), t.b.SanitizeName(name))
	}
	if err := t.ready(ctx); err != nil {
		return FormalizeOutput{}, err
	}
	return t.b.Formalize(ctx, in.Statement, name, t.b.Header(), notifier(ctx, req))
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
	if err := t.ready(ctx); err != nil {
		return LintDocsOutput{}, err
	}
	return t.b.LintDocs(ctx, in.Path, maxLintOut)
}
