package blueprint

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"unicode"
)

// Status is what became of a node.
type Status string

// The statuses of a node.
const (
	// InLean: every name of \lean{…} resolves in the workspace or is
	// declared in the output file.
	InLean Status = "in_lean"
	// Stubbed: formalized now, the stub passed its checks and is written.
	Stubbed Status = "stubbed"
	// Failed: formalized now, the stub failed a check (written, with the
	// verdict in a comment), or no stub could be made (Error says why).
	Failed Status = "failed"
	// NoStatement: the node has no text to formalize.
	NoStatement Status = "no_statement"
	// Skipped: left out by --only or --limit, or by the run's end
	// (cancelled before it ran).
	Skipped Status = "skipped"
)

// Dep is a dependency of a node handed to the formalizer: its names, and
// the stub made for it in this run or found in the output file ("" when
// its names are the workspace's).
type Dep struct {
	Label string
	Env   string
	Names []string
	Stub  string
}

// Job is one node to formalize.
type Job struct {
	Node *Node
	// Name is the declaration's name: the first of Node.Lean that does
	// not resolve, else one made from the label.
	Name string
	// Def is set for a definition node (the stub is `def … := sorry`).
	Def bool
	// Deps are the node's \uses that are formalized (in the workspace, the
	// output file or this run), in the order of \uses.
	Deps []Dep
}

// Outcome is what the formalizer made of a job.
type Outcome struct {
	// Stub is the declaration named Job.Name ("" when none was made).
	Stub string
	// Passed tells whether the stub passed every check that ran; Verdict
	// says which checks ran and what they found.
	Passed  bool
	Verdict string
	// Note is one more comment line for the output file.
	Note string
	// Imports and Opens are the header lines the stub needs.
	Imports, Opens []string
	// Calls is the number of model calls made (cache hits excluded).
	Calls int
}

// Formalizer formalizes one job; an error other than the context's is the
// node's failure.
type Formalizer func(ctx context.Context, job Job) (Outcome, error)

// Options configure Run.
type Options struct {
	// Resolves reports whether a Lean name resolves in the workspace (the
	// name check's rules).
	Resolves func(name string) bool
	// Formalize formalizes a node; nil makes Run only report the statuses
	// (nodes that would be formalized are Skipped, with Error saying so).
	Formalize Formalizer
	// Concurrency is the number of nodes formalized at once (≥ 1).
	Concurrency int
	// Only, when not empty, are the labels to formalize; Limit, when
	// positive, the number of nodes to formalize at most, in order.
	Only  []string
	Limit int
	// Out is the output file (nil: nothing is written); Existing its
	// declarations when the run starts.
	Out      *Out
	Existing *Existing
	// Progress hears each node's result as it is decided, with the count
	// of nodes decided and the total.
	Progress func(r NodeResult, done, total int)
	// Started hears each node as it starts.
	Started func(n *Node)
}

// NodeResult is one node's line of the report.
type NodeResult struct {
	Label   string   `json:"label"`
	Env     string   `json:"env"`
	Lean    []string `json:"lean"`
	Uses    []string `json:"uses"`
	Status  Status   `json:"status"`
	Stub    string   `json:"stub"`
	Verdict string   `json:"verdict"`
	// Error says why a node failed without a stub, or why it was skipped.
	Error string `json:"error,omitempty"`
	// File and Line locate the node.
	File string `json:"file"`
	Line int    `json:"line"`
}

// Summary counts the nodes by status.
type Summary struct {
	Nodes       int `json:"nodes"`
	InLean      int `json:"in_lean"`
	Stubbed     int `json:"stubbed"`
	Failed      int `json:"failed"`
	NoStatement int `json:"no_statement"`
	Skipped     int `json:"skipped"`
	// ModelCalls counts the model calls made (cache hits excluded).
	ModelCalls int `json:"model_calls"`
	// Cycles are the \uses cycles, each as its labels.
	Cycles [][]string `json:"cycles"`
	// Cancelled is set when the run was interrupted.
	Cancelled bool `json:"cancelled"`
}

// Report is a run's result: every node in \uses order, and a summary.
type Report struct {
	Nodes    []NodeResult `json:"nodes"`
	Summary  Summary      `json:"summary"`
	Warnings []string     `json:"warnings"`
}

// NameFromLabel makes a Lean name from a label: the part after the
// label's kind prefix (lem:, thm:, def:, …), with every character that
// cannot be in a name made `_`.
func NameFromLabel(label string) string {
	if i := strings.LastIndexByte(label, ':'); i >= 0 && i < len(label)-1 {
		label = label[i+1:]
	}
	var b strings.Builder
	for _, r := range label {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '\'':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := strings.Trim(b.String(), "._")
	if s == "" || unicode.IsDigit(rune(s[0])) || s[0] == '\'' {
		s = "node_" + s
	}
	return s
}

// Names are the declarations a node stands for: its \lean names, or the
// name made from its label.
func Names(n *Node) []string {
	if len(n.Lean) > 0 {
		return n.Lean
	}
	return []string{NameFromLabel(n.Label)}
}

// Run decides every node's status and formalizes the nodes that need it,
// after the nodes they use (up to o.Concurrency at once), appending each
// stub to o.Out as soon as it is made. When ctx ends, the nodes finished
// are kept and the rest reported as skipped; the error is then ctx's.
func Run(ctx context.Context, bp *Blueprint, o Options) (*Report, error) {
	order, cycles := Order(bp.Nodes)
	rep := &Report{Nodes: make([]NodeResult, len(order)), Warnings: append([]string{}, bp.Warnings...)}
	rep.Summary.Cycles = cycles
	if rep.Summary.Cycles == nil {
		rep.Summary.Cycles = [][]string{}
	}
	for _, c := range cycles {
		rep.Warnings = append(rep.Warnings, "\\uses cycle: "+strings.Join(append(c, c[0]), " → "))
	}
	if o.Existing == nil {
		o.Existing = &Existing{Decls: map[string]string{}}
	}
	if o.Concurrency < 1 {
		o.Concurrency = 1
	}
	only := map[string]bool{}
	for _, l := range o.Only {
		only[l] = true
	}
	resolves := func(name string) bool {
		if _, ok := o.Existing.Decls[name]; ok {
			return true
		}
		return o.Resolves != nil && o.Resolves(name)
	}
	pos := map[string]int{}
	var jobs []int
	for i, n := range order {
		pos[n.Label] = i
		r := NodeResult{Label: n.Label, Env: n.Env, Lean: orEmpty(n.Lean), Uses: orEmpty(n.AllUses()), File: n.File, Line: n.Line}
		missing := ""
		for _, name := range Names(n) {
			if !resolves(name) {
				missing = name
				break
			}
		}
		switch {
		case missing == "":
			r.Status = InLean
			if stub, ok := o.Existing.Decls[Names(n)[0]]; ok {
				r.Stub = stub
			}
		case strings.TrimSpace(n.Statement) == "":
			r.Status = NoStatement
		case len(only) > 0 && !only[n.Label]:
			r.Status, r.Error = Skipped, "not in --only"
		case o.Limit > 0 && len(jobs) >= o.Limit:
			r.Status, r.Error = Skipped, fmt.Sprintf("beyond --limit %d", o.Limit)
		case o.Formalize == nil:
			r.Status, r.Error = Skipped, "not formalized (no model)"
		default:
			jobs = append(jobs, i)
		}
		rep.Nodes[i] = r
	}
	var mu sync.Mutex
	done := 0
	total := len(order)
	stubs := map[string]string{} // label → stub made in this run
	finished := map[int]chan struct{}{}
	for _, i := range jobs {
		finished[i] = make(chan struct{})
	}
	report := func(i int) {
		done++
		if o.Progress != nil {
			o.Progress(rep.Nodes[i], done, total)
		}
	}
	mu.Lock()
	for i := range order {
		if _, isJob := finished[i]; !isJob {
			report(i)
		}
	}
	mu.Unlock()
	// Jobs take a slot in \uses order (so that one slot runs them in
	// that order), then wait for the jobs they use, which are earlier and
	// hold or held a slot themselves.
	sem := make(chan struct{}, o.Concurrency)
	var wg sync.WaitGroup
	for _, i := range jobs {
		held := false
		select {
		case sem <- struct{}{}:
			held = true
		case <-ctx.Done():
		}
		wg.Add(1)
		go func(i int, held bool) {
			defer wg.Done()
			defer close(finished[i])
			if held {
				defer func() { <-sem }()
			}
			n := order[i]
			if ctx.Err() == nil {
				for _, u := range n.AllUses() {
					if j, ok := pos[u]; ok && j < i {
						if ch, isJob := finished[j]; isJob {
							select {
							case <-ch:
							case <-ctx.Done():
							}
						}
					}
				}
			}
			if ctx.Err() != nil {
				mu.Lock()
				rep.Nodes[i].Status, rep.Nodes[i].Error = Skipped, "interrupted"
				report(i)
				mu.Unlock()
				return
			}
			mu.Lock()
			job := Job{Node: n, Def: n.Env == "definition"}
			for _, name := range Names(n) {
				if !resolves(name) {
					job.Name = name
					break
				}
			}
			for _, u := range n.AllUses() {
				j, ok := pos[u]
				if !ok {
					continue
				}
				d := order[j]
				dep := Dep{Label: d.Label, Env: d.Env, Names: Names(d), Stub: stubs[d.Label]}
				if dep.Stub == "" {
					dep.Stub = o.Existing.Decls[Names(d)[0]]
				}
				if rep.Nodes[j].Status == InLean || dep.Stub != "" {
					job.Deps = append(job.Deps, dep)
				}
			}
			mu.Unlock()
			if o.Started != nil {
				o.Started(n)
			}
			out, err := o.Formalize(ctx, job)
			mu.Lock()
			defer mu.Unlock()
			rep.Summary.ModelCalls += out.Calls
			r := &rep.Nodes[i]
			switch {
			case err != nil && ctx.Err() != nil:
				r.Status, r.Error = Skipped, "interrupted"
			case err != nil:
				// No stub: a placeholder under the node's name keeps the
				// blueprint's link resolving and the next run from asking
				// the model again; "Formalize with DRIFT" on its docstring
				// fills it in the editor.
				r.Status, r.Error = Failed, err.Error()
				r.Stub, r.Verdict = Placeholder(job.Name, job.Def), "no stub: "+firstLine(err.Error())
				if o.Out != nil {
					b := Block{Label: n.Label, Env: n.Env, Statement: n.Statement, Stub: r.Stub, Failed: true, Verdict: r.Verdict}
					if werr := o.Out.Append(b); werr != nil {
						r.Error += "; writing " + o.Out.Path + ": " + werr.Error()
					}
				}
			default:
				r.Stub, r.Verdict = out.Stub, out.Verdict
				r.Status = Stubbed
				if !out.Passed {
					r.Status = Failed
				}
				// The same statement under the node's other missing names.
				stubsText := []string{out.Stub}
				for _, name := range Names(n) {
					if name != job.Name && !resolves(name) {
						stubsText = append(stubsText, Rename(out.Stub, job.Name, name))
					}
				}
				stubs[n.Label] = out.Stub
				if o.Out != nil {
					for _, s := range stubsText {
						b := Block{Label: n.Label, Env: n.Env, Statement: n.Statement, Stub: s, Failed: !out.Passed, Verdict: out.Verdict,
							Note: out.Note, Imports: out.Imports, Opens: out.Opens}
						if werr := o.Out.Append(b); werr != nil {
							r.Status, r.Error = Failed, "writing "+o.Out.Path+": "+werr.Error()
							break
						}
					}
				}
			}
			report(i)
		}(i, held)
	}
	wg.Wait()
	for _, r := range rep.Nodes {
		rep.Summary.Nodes++
		switch r.Status {
		case InLean:
			rep.Summary.InLean++
		case Stubbed:
			rep.Summary.Stubbed++
		case Failed:
			rep.Summary.Failed++
		case NoStatement:
			rep.Summary.NoStatement++
		case Skipped:
			rep.Summary.Skipped++
		}
	}
	if err := ctx.Err(); err != nil {
		rep.Summary.Cancelled = true
		return rep, err
	}
	return rep, nil
}

// Placeholder is the declaration written for a node the pipeline made no
// stub for: `theorem NAME : sorry := by sorry` (a placeholder the editor's
// Formalize fills), `def NAME : Prop := sorry` for a definition.
func Placeholder(name string, def bool) string {
	if def {
		return "def " + name + " : Prop := sorry"
	}
	return "theorem " + name + " : sorry := by sorry"
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// Rename replaces the declared name of stub (the identifier after its
// keyword) from old to name.
func Rename(stub, old, name string) string {
	for _, kw := range []string{"theorem ", "lemma ", "def "} {
		if i := strings.Index(stub, kw+old); i >= 0 {
			return stub[:i+len(kw)] + name + stub[i+len(kw)+len(old):]
		}
	}
	return stub
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
