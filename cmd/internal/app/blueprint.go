package app

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/drift-lsp/drift-lsp/drift"
	"github.com/drift-lsp/drift-lsp/internal/blueprint"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/lsp"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// BlueprintResolver is the in_lean rule of a blueprint node's \lean names:
// each resolves in eng's library by the name check's rules
// (leanrepl.Resolve, no header).
func BlueprintResolver(eng *retrieval.Engine) func(string) bool {
	names, kinds := drift.LiveNames(eng), leanrepl.LibraryKinds(eng.Lookup, eng.ExportAlias)
	return func(name string) bool {
		ok, _ := leanrepl.Resolve(name, "", names, kinds)
		return ok
	}
}

// BlueprintFormalizer formalizes blueprint nodes with pipeline pl, checker
// chk and engine eng under the file header header: the node's statement
// with its \lean name; its formalized dependencies lead the premises
// (drift.Request.Context) and, when they are stubs of this run or of the
// output file, are declared after the header for the checks. A definition
// node becomes `def NAME BINDERS : Prop := sorry` (the binders of the
// chosen stub; its conclusion, the model's reading, goes in a comment),
// checked again with leanrepl.GateDef. report, when set, hears the
// pipeline's progress, per node.
func BlueprintFormalizer(pl *drift.Pipeline, chk *leanrepl.Checker, eng *retrieval.Engine, header string, report func(label string, e progress.Event)) blueprint.Formalizer {
	return func(ctx context.Context, job blueprint.Job) (blueprint.Outcome, error) {
		hdr := strings.TrimSpace(header)
		var context []*library.Decl
		for _, d := range job.Deps {
			if d.Stub != "" {
				hdr += "\n\n" + strings.TrimSpace(d.Stub)
				if st, err := leanrepl.GateDef(d.Stub); err == nil {
					context = append(context, &library.Decl{Name: st.Name, Kind: library.Kind(st.Keyword), Signature: strings.TrimSpace(st.Text[:st.ProofStart])})
				}
				continue
			}
			for _, n := range d.Names {
				if decl, ok := eng.Lookup(n); ok {
					context = append(context, decl)
				}
			}
		}
		var rep progress.Func
		if report != nil {
			label := job.Node.Label
			rep = func(e progress.Event) { report(label, e) }
		}
		res, err := pl.Formalize(ctx, drift.Request{Statement: job.Node.Statement, Name: job.Name, Header: strings.TrimSpace(hdr), Context: context}, rep)
		if err != nil {
			return blueprint.Outcome{}, err
		}
		out := blueprint.Outcome{Stub: res.Stub, Opens: res.Opens, Calls: res.Usage.Calls - res.Usage.CacheHits}
		r := res.Report
		if r != nil {
			out.Passed, out.Verdict = r.Passed(), r.Verdict()
		}
		if job.Def && r != nil && r.Parsed != nil {
			st := r.Parsed
			binders := ""
			if len(st.Binders) > 0 {
				binders = " " + st.Text[st.Binders[0].Start:st.Binders[len(st.Binders)-1].End]
			}
			out.Stub = fmt.Sprintf("def %s%s : Prop := sorry", job.Name, binders)
			out.Note = "drift's reading of the definition as a statement: " + strings.Join(strings.Fields(st.Type), " ")
			def, err := chk.Check(ctx, leanrepl.CheckRequest{Header: strings.TrimSpace(hdr), Stub: out.Stub, Definition: true})
			if err != nil {
				return blueprint.Outcome{}, err
			}
			out.Passed, out.Verdict = def.Passed(), def.Verdict()
		}
		out.Imports = stubImports(eng, out.Stub)
		return out, nil
	}
}

// stubImports are the imports of the modules that declare the library
// names stub uses (Init's excepted: every file has them).
func stubImports(eng *retrieval.Engine, stub string) []string {
	toks, _ := leansrc.Lex(stub)
	seen := map[string]bool{}
	var out []string
	for _, t := range toks {
		if t.Kind != leansrc.LexIdent {
			continue
		}
		d, ok := eng.Lookup(t.Text)
		if !ok || d.Module == "" || d.Module == "Init" || strings.HasPrefix(d.Module, "Init.") || seen[d.Module] {
			continue
		}
		seen[d.Module] = true
		out = append(out, "import "+d.Module)
	}
	return out
}

// BlueprintJob is one run of a blueprint (the command's flags, the
// editor's command).
type BlueprintJob struct {
	// Roots are the workspace roots (the first is the workspace); Tex the
	// blueprint's source directory ("" finds blueprint/src under a root).
	Roots []string
	Tex   string
	// Out is the Lean file stubs are appended to ("" writes nothing);
	// Header the header stubs are checked under and a new Out starts
	// with ("": Out's own header).
	Out, Header string
	Only        []string
	Limit       int
	Concurrency int
	// Loaded hears the blueprint once read; Started, Progress and
	// NodeProgress are blueprint.Options' and the pipeline's progress.
	Loaded       func(dir string, bp *blueprint.Blueprint)
	Started      func(n *blueprint.Node)
	Progress     func(r blueprint.NodeResult, done, total int)
	NodeProgress func(label string, e progress.Event)
}

// RunBlueprint reads the blueprint of job and runs it over engine eng:
// statuses by the name check (BlueprintResolver) and the declarations of
// job.Out, formalization with pl and chk (nil pl: statuses only). The
// error is ctx's when interrupted (the report then holds what finished),
// else why the blueprint or Out could not be read.
func RunBlueprint(ctx context.Context, eng *retrieval.Engine, pl *drift.Pipeline, chk *leanrepl.Checker, job BlueprintJob) (*blueprint.Report, error) {
	dir, err := blueprint.Find(job.Roots, job.Tex)
	if err != nil {
		return nil, err
	}
	bp, err := blueprint.Load(dir)
	if err != nil {
		return nil, err
	}
	if job.Loaded != nil {
		job.Loaded(dir, bp)
	}
	existing, err := blueprint.ReadExisting(job.Out)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", job.Out, err)
	}
	hdr := job.Header
	if hdr == "" {
		hdr = existing.Header
	}
	opts := blueprint.Options{Resolves: BlueprintResolver(eng), Concurrency: job.Concurrency, Existing: existing, Only: job.Only, Limit: job.Limit,
		Started: job.Started, Progress: job.Progress}
	if job.Out != "" {
		opts.Out = &blueprint.Out{Path: job.Out, Header: hdr}
	}
	if pl != nil {
		opts.Formalize = BlueprintFormalizer(pl, chk, eng, hdr, job.NodeProgress)
	}
	return blueprint.Run(ctx, bp, opts)
}

// BlueprintOut is the file the editor's "Formalize the blueprint" appends
// stubs to, in the workspace root.
const BlueprintOut = "DriftBlueprint.lean"

// Blueprint implements lsp.Backend: RunBlueprint over the workspace with
// the backend's pipeline and checker, into BlueprintOut.
func (b *driftBackend) Blueprint(ctx context.Context, req lsp.BlueprintRequest, report progress.Func) (*lsp.BlueprintResult, error) {
	pl, s, noModel := b.current()
	if noModel != nil {
		return nil, noModel
	}
	b.mu.Lock()
	chk := b.checker
	b.mu.Unlock()
	out := filepath.Join(b.root, BlueprintOut)
	job := BlueprintJob{Roots: []string{b.root}, Out: out, Only: req.Only, Concurrency: s.Pipeline.Concurrency,
		Progress: func(r blueprint.NodeResult, done, total int) {
			report.Report(progress.Event{Stage: "blueprint", Message: fmt.Sprintf("%s: %s", r.Label, r.Status), Done: done, Total: total})
		},
		NodeProgress: func(label string, e progress.Event) {
			report.Report(progress.Event{Stage: e.Stage, Message: label + ": " + e.Message})
		}}
	rep, err := RunBlueprint(ctx, b.eng, pl, chk, job)
	if err != nil {
		return nil, err
	}
	sm := rep.Summary
	return &lsp.BlueprintResult{Out: out, Failed: sm.Failed,
		Summary: fmt.Sprintf("%d nodes: %d in Lean, %d stubbed, %d failed, %d without a statement, %d skipped", sm.Nodes, sm.InLean, sm.Stubbed, sm.Failed, sm.NoStatement, sm.Skipped)}, nil
}
