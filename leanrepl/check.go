package leanrepl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/internal/falsify"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
)

// CheckerConfig configures a Checker. Every part is optional: without Names
// the unknown-name check is skipped, without Pool Lean is not run, and the
// report says so.
type CheckerConfig struct {
	// Names resolves library names (normally retrieval's *names.Index).
	Names Names
	// Kinds, if set, gives declaration kinds (for unqualified class fields).
	Kinds KindFunc
	// Pool runs Lean in a REPL; it is preferred to Lean.
	Pool *Pool
	// Lean runs `lean --json` when Pool is nil; when both are nil Lean is
	// not run.
	Lean *LeanRunner
	// Kimina, when set, runs Lean on a Kimina Lean Server instead of Pool
	// and Lean.
	Kimina *Kimina
	// NoLean says why Pool and Lean are nil, for reports ("no Lean REPL
	// found: …").
	NoLean string
	// AutoImplicit keeps Lean's default autoImplicit option; by default a
	// stub is elaborated with `set_option autoImplicit false in`, as Mathlib
	// does, so that an invented lower-case name is an error rather than a
	// silently bound variable.
	AutoImplicit bool
	// Library, if set, returns the current library, whose definitions the
	// falsifier unfolds (without it only the built-in vocabulary is known).
	Library func() *library.Library
}

// Checker runs the gate, the checks that need no compiler and, when it has a
// Pool, Lean on theorem stubs.
type Checker struct {
	cfg CheckerConfig
}

// NewChecker returns a Checker.
func NewChecker(cfg CheckerConfig) *Checker {
	if cfg.Pool == nil && cfg.Lean == nil && cfg.Kimina == nil && cfg.NoLean == "" {
		cfg.NoLean = "no Lean REPL configured"
	}
	return &Checker{cfg: cfg}
}

// OpenChecker returns a Checker with cfg and the Pool it runs Lean in.
// Unless cfg.NoLean already says why Lean is not to run, it makes the Pool
// with NewPool(pool), which finds the REPL (FindREPL) when pool.Command is
// empty. When no REPL is configured or found, the Checker runs `lean
// --json` instead (a LeanRunner with pool's limits and the toolchain
// FindLean(pool.Root, pool.LeanCommand, pool.Env) finds) and the Pool is nil. When
// neither can be made, the Checker runs without Lean, its reports give the
// errors as the reason, and the error is returned too. The caller closes a
// non-nil Pool. With cfg.Kimina set, that server runs Lean and no Pool is
// made.
func OpenChecker(cfg CheckerConfig, pool Config) (*Checker, *Pool, error) {
	cfg.Pool, cfg.Lean = nil, nil
	if cfg.NoLean != "" || cfg.Kimina != nil {
		return NewChecker(cfg), nil, nil
	}
	p, err := NewPool(pool)
	if err != nil && len(pool.Command) == 0 {
		tc, lerr := FindLean(pool.Root, pool.LeanCommand, pool.Env)
		if lerr == nil {
			cfg.Lean = NewLeanRunner(tc, pool)
			return NewChecker(cfg), nil, nil
		}
		err = fmt.Errorf("%w; %v", err, lerr)
	}
	if err != nil {
		cfg.NoLean = err.Error()
		return NewChecker(cfg), nil, err
	}
	cfg.Pool = p
	return NewChecker(cfg), p, nil
}

// HasLean reports whether the checker runs Lean.
func (c *Checker) HasLean() bool {
	return c.cfg.Pool != nil || c.cfg.Lean != nil || c.cfg.Kimina != nil
}

// Backend names what runs Lean (BackendREPL or BackendLean) and its command
// line; both are "" when Lean is not run.
func (c *Checker) Backend() (name, command string) {
	switch {
	case c.cfg.Kimina != nil:
		return BackendKimina, c.cfg.Kimina.URL
	case c.cfg.Pool != nil:
		return BackendREPL, strings.Join(c.cfg.Pool.Command(), " ")
	case c.cfg.Lean != nil:
		return BackendLean, c.cfg.Lean.Toolchain().String()
	}
	return "", ""
}

// Names returns the name resolver (nil if none).
func (c *Checker) Names() Names { return c.cfg.Names }

// CheckRequest is one stub to check in the context of a file header (its
// import and open lines).
type CheckRequest struct {
	Header string
	Stub   string
	// Statement, if set, is the informal statement the stub formalizes:
	// the coverage check runs against it (else against the stub's
	// docstring, when it has one).
	Statement string
	// Concepts are the decomposition's sub-queries with the names of the
	// premises retrieved for them, which the coverage check looks for.
	Concepts []coverage.Concept
	// Definition lets the stub be a `def … := sorry` (GateDef) as well.
	Definition bool
	// Progress, if set, hears what the Lean part does while it runs
	// (importing the header, running lean), which can take minutes with
	// Mathlib; Stage is always StageLean.
	Progress progress.Func
}

// StageLean is the Stage of the checker's progress events.
const StageLean = "lean"

// LeanMessage is one message Lean printed about a stub, with its
// classification and its byte range in the stub (-1 when it lies outside).
type LeanMessage struct {
	Message
	Classification
	Start int `json:"start"`
	End   int `json:"end"`
	// Suggestions are library names an invented name (a hallucination
	// error) probably meant.
	Suggestions []string `json:"suggestions,omitempty"`
}

// Report is everything the checks found about one stub: THE check result,
// from the checker through the pipeline to the editor and the command line
// (JSON: ReportJSON).
type Report struct {
	// Stub is the checked text, trimmed.
	Stub string
	// GatePassed is false when the safety gate rejected the stub; GateReason
	// says why. No other check runs on a rejected stub.
	GatePassed bool
	GateReason string
	// Parsed is the gate's parse of the stub.
	Parsed *leansrc.Stub
	// Unknown are names that are neither bound nor in the library.
	Unknown []UnknownName
	Lints   []Lint
	// Types are the light elaborator's findings (internal/elab): applications
	// Lean certainly rejects; empty without a library, and when Lean
	// accepted the stub.
	Types []elab.Finding
	// TypesSkipped says why the light elaborator gave no answer ("" if it
	// did): an internal error on this stub, which leaves its findings
	// unknown rather than ending the caller.
	TypesSkipped string
	// NamesSkipped says why the unknown-name check did not run ("" if it
	// did).
	NamesSkipped string
	// LeanRan is true when Lean elaborated the stub; otherwise LeanSkipped
	// says why not (including a failed REPL: then LeanFailed is true).
	LeanRan     bool
	LeanSkipped string
	LeanFailed  bool
	// LeanBackend is what ran (or failed to run) Lean: BackendREPL or
	// BackendLean; "" when Lean was not tried. LeanCommand is its command
	// line and where it was found.
	LeanBackend string
	LeanCommand string
	// LeanOK is true when Lean reported no error.
	LeanOK bool
	// Messages are Lean's messages other than the expected "declaration
	// uses `sorry`" warning.
	Messages []LeanMessage
	// Falsifier is the counterexample search's result (nil when the gate
	// rejected the stub).
	Falsifier *falsify.Result
	// Coverage says which conditions of the informal statement the stub
	// accounts for (nil when no statement was given).
	Coverage *coverage.Result
	// BackTranslation is the model's restatement of the stub compared with
	// the statement (set by the pipeline; nil when it did not run).
	BackTranslation *BackTranslation
}

// ReportJSON is the JSON form of a Report: its verdicts and every finding.
type ReportJSON struct {
	Stub         string        `json:"stub"`
	Passed       bool          `json:"passed"`
	GatePassed   bool          `json:"gate_passed"`
	GateReason   string        `json:"gate_reason"`
	NamesSkipped string        `json:"names_skipped"`
	TypesSkipped string        `json:"types_skipped,omitempty"`
	Unknown      []UnknownName `json:"unknown"`
	Lints        []Lint        `json:"lints"`
	// TypeFindings are the light elaborator's findings (code "type").
	TypeFindings []Finding `json:"type_findings"`
	LeanRan      bool      `json:"lean_ran"`
	LeanOK       bool      `json:"lean_ok"`
	LeanFailed   bool      `json:"lean_failed"`
	LeanSkipped  string    `json:"lean_skipped"`
	LeanBackend  string    `json:"lean_backend"`
	LeanCommand  string    `json:"lean_command"`
	// Refuted and Counterexample are the falsifier's verdict; Falsifier
	// its whole result (null when it did not run).
	Refuted         bool             `json:"refuted"`
	Counterexample  string           `json:"counterexample"`
	Falsifier       *FalsifierJSON   `json:"falsifier"`
	Coverage        *coverage.Result `json:"coverage"`
	BackTranslation *BackTranslation `json:"back_translation"`
	// Verdict names every check that ran and its result.
	Verdict  string    `json:"verdict"`
	Findings []Finding `json:"findings"`
}

// JSON returns the report's JSON form, with [] for empty lists.
func (r *Report) JSON() ReportJSON {
	out := ReportJSON{Stub: r.Stub, Passed: r.Passed(), GatePassed: r.GatePassed, GateReason: r.GateReason, NamesSkipped: r.NamesSkipped, TypesSkipped: r.TypesSkipped,
		Unknown: r.Unknown, Lints: r.Lints, LeanRan: r.LeanRan, LeanOK: r.LeanOK, LeanFailed: r.LeanFailed, LeanSkipped: r.LeanSkipped,
		LeanBackend: r.LeanBackend, LeanCommand: r.LeanCommand, Refuted: r.Refuted(), Falsifier: falsifierJSON(r.Falsifier), Coverage: r.Coverage,
		BackTranslation: r.BackTranslation, Verdict: r.Verdict(), Findings: r.Findings()}
	if r.Refuted() {
		out.Counterexample = r.Falsifier.Counterexample
	}
	if out.Unknown == nil {
		out.Unknown = []UnknownName{}
	}
	out.TypeFindings = []Finding{}
	for _, f := range out.Findings {
		if f.Code == CodeType {
			out.TypeFindings = append(out.TypeFindings, f)
		}
	}
	out.Lints = make([]Lint, len(r.Lints))
	for i, l := range r.Lints {
		if l.Suggestions == nil {
			l.Suggestions = []string{}
		}
		out.Lints[i] = l
	}
	return out
}

// MarshalJSON writes the report as its ReportJSON, without HTML escapes
// (a stub's < and > stay readable).
func (r *Report) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r.JSON()); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Passed reports whether the stub passed every check that ran: never for a
// refuted stub, an ill-typed one (Types) or one that omits a condition of
// its statement. Lints are warnings and do not count.
func (r *Report) Passed() bool {
	return r.GatePassed && len(r.Unknown) == 0 && len(r.Types) == 0 && (!r.LeanRan || r.LeanOK) && !r.LeanFailed && !r.Refuted() && len(r.CoverageFindings()) == 0
}

// Hallucinations returns Lean's errors that are about invented names.
func (r *Report) Hallucinations() []LeanMessage {
	var out []LeanMessage
	for _, m := range r.Messages {
		if m.Severity == "error" && m.Class == Hallucination {
			out = append(out, m)
		}
	}
	return out
}

// Check runs the gate, the unknown-name check and the lints and, when a
// Pool is configured and the gate passed, Lean; Lean's acceptance overrides
// the unknown-name check, whose index may lack some names. The error is non-nil only when
// ctx ends; every other failure is described in the report.
func (c *Checker) Check(ctx context.Context, req CheckRequest) (*Report, error) {
	rep := &Report{Stub: strings.TrimSpace(req.Stub), Unknown: []UnknownName{}, Lints: []Lint{}, Messages: []LeanMessage{}}
	gateOf := Gate
	if req.Definition {
		gateOf = GateDef
	}
	s, err := gateOf(req.Stub)
	if err != nil {
		rep.GateReason = err.Error()
		var ge *GateError
		if errors.As(err, &ge) {
			rep.GateReason = ge.Reason
		}
		rep.LeanSkipped = "the stub was rejected by the safety gate"
		rep.NamesSkipped = rep.LeanSkipped
		return rep, nil
	}
	rep.GatePassed, rep.Parsed = true, s
	var a Analysis
	if c.cfg.Names == nil {
		rep.NamesSkipped = "no library index"
		a = Analyze(s, req.Header, nil)
	} else {
		a = AnalyzeWithKinds(s, req.Header, c.cfg.Names, c.cfg.Kinds)
	}
	if a.Unknown != nil {
		rep.Unknown = a.Unknown
	}
	if a.Lints != nil {
		rep.Lints = a.Lints
	}
	rep.Types, rep.TypesSkipped = c.typeCheck(s, req.Header)
	rep.Falsifier = c.falsifyStatement(ctx, s, req.Header)
	rep.Coverage = coverageOf(s, req, rep.Falsifier)
	if !c.HasLean() {
		rep.LeanSkipped = c.cfg.NoLean
		return rep, nil
	}
	if err := c.runLean(ctx, req.Header, rep, req.Progress); err != nil {
		return nil, err
	}
	if rep.LeanRan && rep.LeanOK && !c.cfg.AutoImplicit {
		// Lean resolved every name (autoImplicit is off), so names the
		// index lacks were not invented.
		rep.Unknown = []UnknownName{}
		// and the light elaborator, sound as it is meant to be, was wrong
		rep.Types = nil
	}
	return rep, nil
}

// autoImplicitOff is prepended to stubs; its line is subtracted from the
// positions Lean reports.
const autoImplicitOff = "set_option autoImplicit false in\n"

// runLean elaborates the stub and fills the Lean part of rep. It returns an
// error only when ctx ended.
func (c *Checker) runLean(ctx context.Context, header string, rep *Report, report progress.Func) error {
	// The gate saw to it that the proof is `sorry` or `by sorry`; Lean gets
	// term-mode `sorry`, which checks the same statement and needs no
	// tactic framework (the `sorry` tactic is declared in Init, which a
	// prelude-only workspace lacks). Positions up to the proof are kept.
	stub := rep.Stub[:rep.Parsed.ProofStart] + ":= sorry"
	cmd, shift := stub, 0
	if !c.cfg.AutoImplicit {
		cmd, shift = autoImplicitOff+stub, 1
	}
	var resp *Response
	var err error
	rep.LeanBackend, rep.LeanCommand = c.Backend()
	say := func(msg string) { report.Report(progress.Event{Stage: StageLean, Message: msg}) }
	start := time.Now()
	if c.cfg.Kimina != nil {
		resp, err = c.cfg.Kimina.run(ctx, header, cmd, say)
	} else if c.cfg.Pool != nil {
		err = c.cfg.Pool.session(ctx, header, say, func(s *Session) error {
			say("Checking with Lean (" + BackendREPL + ")…")
			r, err := s.Command(ctx, cmd)
			resp = r
			return err
		})
	} else {
		resp, err = c.cfg.Lean.run(ctx, header, cmd, say)
	}
	if ctx.Err() == nil {
		verdict := "finished"
		if err != nil {
			verdict = "failed"
		}
		say(fmt.Sprintf("Lean (%s) %s in %s", rep.LeanBackend, verdict, time.Since(start).Round(time.Millisecond)))
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		rep.LeanFailed = true
		rep.LeanSkipped = "Lean failed: " + err.Error()
		return nil
	}
	rep.LeanRan = true
	rep.LeanOK = true
	sorryWarned := false
	for _, m := range resp.Messages {
		if m.Severity == "warning" && strings.Contains(m.Data, "declaration uses `sorry`") || m.Data == "declaration uses 'sorry'" {
			sorryWarned = true
			continue
		}
		lm := LeanMessage{Message: shiftPos(m, shift), Start: -1, End: -1}
		if m.Severity == "error" {
			rep.LeanOK = false
			lm.Classification = Classify(m.Data)
			if lm.Class == Hallucination && lm.Name != "" && c.cfg.Names != nil {
				lm.Suggestions = c.cfg.Names.Similar(lm.Name, 5)
			}
		}
		lm.Start = OffsetOf(rep.Stub, lm.Pos)
		if lm.EndPos != nil {
			lm.End = OffsetOf(rep.Stub, *lm.EndPos)
		}
		if lm.Start >= 0 && lm.End < lm.Start {
			lm.End = lm.Start
		}
		rep.Messages = append(rep.Messages, lm)
	}
	if rep.LeanOK && !sorryWarned {
		// Lean warns about every declaration that elaborates with sorry:
		// silence means it did not elaborate the stub (a wrong command
		// that exits 0, for instance), which is no acceptance.
		rep.LeanRan, rep.LeanOK, rep.LeanFailed = false, false, true
		rep.LeanSkipped = "Lean failed: it reported neither an error nor \"declaration uses `sorry`\", so it did not check the stub"
	}
	return nil
}

func shiftPos(m Message, lines int) Message {
	m.Pos.Line -= lines
	if m.EndPos != nil {
		e := *m.EndPos
		e.Line -= lines
		m.EndPos = &e
	}
	return m
}

// OffsetOf converts a REPL position (1-based line, 0-based code-point
// column) in text to a byte offset, or -1 when it lies outside text.
func OffsetOf(text string, p Pos) int {
	if p.Line < 1 || p.Column < 0 {
		return -1
	}
	off := 0
	for line := 1; line < p.Line; line++ {
		nl := strings.IndexByte(text[off:], '\n')
		if nl < 0 {
			return -1
		}
		off += nl + 1
	}
	for col := 0; col < p.Column; col++ {
		if off >= len(text) || text[off] == '\n' {
			return -1
		}
		_, w := utf8.DecodeRuneInString(text[off:])
		off += w
	}
	return off
}

// Verdict names every check that ran and its result, on one line joined by
// " · ", the failed checks first: names, Lean, the falsifier, coverage and
// back-translation (a rejection by the safety gate alone, as no other
// check runs then). It never says the stub passed: Passed does. Why Lean
// was not run is LeanSkipped.
func (r *Report) Verdict() string {
	if !r.GatePassed {
		return "rejected by the safety gate: " + r.GateReason
	}
	var failed, rest []string
	add := func(text string, bad bool) {
		if bad {
			failed = append(failed, text)
		} else {
			rest = append(rest, text)
		}
	}
	switch {
	case len(r.Unknown) > 0:
		var ns []string
		seen := map[string]bool{}
		for _, u := range r.Unknown {
			if !seen[u.Name] {
				seen[u.Name] = true
				ns = append(ns, u.Name)
			}
		}
		add("unknown names: "+strings.Join(ns, ", "), true)
	case r.NamesSkipped != "":
		add("names not checked", false)
	default:
		add("names known", false)
	}
	if len(r.Types) > 0 {
		add("ill-typed: "+r.Types[0].Message, true)
	} else if r.TypesSkipped != "" {
		add("types not checked ("+r.TypesSkipped+")", false)
	}
	add(r.LeanVerdict(), r.LeanFailed || r.LeanRan && !r.LeanOK)
	for _, m := range r.meaningVerdicts() {
		add(m.text, m.failed)
	}
	return strings.Join(append(failed, rest...), " · ")
}

// LeanVerdict is the Lean part of Verdict: accepted, its errors, its
// failure, or "Lean not run".
func (r *Report) LeanVerdict() string {
	switch {
	case r.LeanFailed:
		return r.LeanSkipped
	case r.LeanRan && !r.LeanOK:
		n := 0
		for _, m := range r.Messages {
			if m.Severity == "error" {
				n++
			}
		}
		return fmt.Sprintf("Lean reported %d error(s): %s", n, firstLine(r.firstError()))
	case r.LeanRan:
		return "Lean accepted the stub"
	}
	return "Lean not run"
}

func (r *Report) firstError() string {
	for _, m := range r.Messages {
		if m.Severity == "error" {
			return m.Data
		}
	}
	return ""
}

// Severity ranks a finding; the values are LSP's DiagnosticSeverity
// numbers, so the edge converts them as they are.
type Severity int

// The severities of findings.
const (
	SeverityError   Severity = 1
	SeverityWarning Severity = 2
	SeverityInfo    Severity = 3
)

// String returns "error", "warning" or "info".
func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	}
	return "info"
}

// MarshalText writes the severity as its String, for JSON output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity MarshalText wrote, so that a report's
// JSON reads back.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = SeverityError
	case "warning":
		*s = SeverityWarning
	case "info":
		*s = SeverityInfo
	default:
		return fmt.Errorf("unknown severity %q", b)
	}
	return nil
}

// Finding codes other than the lint codes.
const (
	CodeGate        = "gate"         // the safety gate rejected the stub
	CodeUnknownName = "unknown-name" // a name neither bound nor in the library
	CodeLean        = "lean"         // a message of Lean
	CodeLeanFailed  = "lean-failed"  // the REPL failed (crash, timeout, …)
	CodeRefuted     = "refuted"      // the falsifier found a counterexample
	CodeCoverage    = "coverage"     // the stub omits a condition of its statement
	// CodeType (types.go) is the light elaborator's code.
)

// Finding is one located result of the checks on a stub: a gate
// rejection, an unknown name, a message of Lean, a REPL failure, a
// counterexample, an omitted condition or a lint.
// It is what the editor shows and what the repair stage tells the model.
type Finding struct {
	Severity Severity `json:"severity"`
	// Code is CodeGate, CodeUnknownName, CodeType, CodeLean, CodeLeanFailed,
	// CodeRefuted, CodeCoverage or a lint code; Category is Classify's category of a Lean error.
	Code     string `json:"code"`
	Category string `json:"category,omitempty"`
	// Message is the text shown to the user, suggestions included.
	Message string `json:"message"`
	// Name is the unknown or invented name, when there is one.
	Name string `json:"name,omitempty"`
	// Suggestions are library names the author probably meant.
	Suggestions []string `json:"suggestions"`
	// Start and End are byte offsets in Report.Stub, -1 when the finding is
	// about the whole stub; Line (1-based) and Column (0-based, code points)
	// locate Start as Lean does (0 and -1 when Start is -1).
	Start  int `json:"start"`
	End    int `json:"end"`
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Findings lists every problem of the report, located in r.Stub: the gate's
// rejection, unknown names, the light elaborator's type findings, Lean's messages, a REPL failure, a
// counterexample, omitted conditions, then lints.
func (r *Report) Findings() []Finding {
	out := []Finding{}
	at := func(f Finding) Finding {
		if f.Start < 0 || f.End < f.Start || f.End > len(r.Stub) {
			f.Start, f.End = -1, -1
		}
		f.Line, f.Column = lineColumn(r.Stub, f.Start)
		if f.Suggestions == nil {
			f.Suggestions = []string{}
		}
		return f
	}
	if !r.GatePassed {
		return append(out, at(Finding{Severity: SeverityError, Code: CodeGate, Message: "rejected by the safety gate: " + r.GateReason, Start: -1, End: -1}))
	}
	for _, u := range r.Unknown {
		out = append(out, at(Finding{Severity: SeverityError, Code: CodeUnknownName, Name: u.Name, Suggestions: u.Suggestions,
			Message: withSuggestions("unknown name `"+u.Name+"` (not in the library; likely invented)", u.Suggestions), Start: u.Start, End: u.End}))
	}
	for _, t := range r.Types {
		out = append(out, at(Finding{Severity: SeverityError, Code: CodeType, Name: t.Name, Message: t.Message, Start: t.Start, End: t.End}))
	}
	for _, m := range r.Messages {
		sev := SeverityInfo
		switch m.Severity {
		case "error":
			sev = SeverityError
		case "warning":
			sev = SeverityWarning
		}
		out = append(out, at(Finding{Severity: sev, Code: CodeLean, Category: m.Category, Name: m.Name, Suggestions: m.Suggestions,
			Message: withSuggestions(m.Data, m.Suggestions), Start: m.Start, End: m.End}))
	}
	if r.LeanFailed {
		out = append(out, at(Finding{Severity: SeverityError, Code: CodeLeanFailed, Message: r.LeanSkipped, Start: -1, End: -1}))
	}
	if r.Refuted() {
		out = append(out, at(Finding{Severity: SeverityError, Code: CodeRefuted, Start: r.Parsed.TypeStart, End: r.Parsed.TypeEnd,
			Message: refutedMessage(r.Falsifier.Counterexample, r.Falsifier.Explanation)}))
	}
	for _, f := range r.CoverageFindings() {
		out = append(out, at(Finding{Severity: SeverityWarning, Code: CodeCoverage, Message: f.Message, Start: -1, End: -1}))
	}
	for _, l := range r.Lints {
		out = append(out, at(Finding{Severity: SeverityWarning, Code: l.Code, Message: l.Message, Suggestions: l.Suggestions, Start: l.Start, End: l.End}))
	}
	return out
}

func withSuggestions(msg string, sugg []string) string {
	if len(sugg) == 0 {
		return msg
	}
	return msg + "; did you mean " + strings.Join(sugg, ", ") + "?"
}

// lineColumn converts a byte offset to a 1-based line and 0-based code-point
// column, as Lean reports positions; (0, -1) for an offset outside text.
func lineColumn(text string, off int) (int, int) {
	if off < 0 || off > len(text) {
		return 0, -1
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		if text[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, utf8.RuneCountInString(text[start:off])
}
