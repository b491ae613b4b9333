package drift

import (
	"context"
	"errors"
	"fmt"
	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/internal/falsify"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/elab"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
	"github.com/drift-lsp/drift-lsp/retrieval"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// testDecls mirrors declarations of testdata/workspace (Minimath and
// DriftExample) with their real names, signatures, docstrings and statement
// dependencies.
var testDecls = []*library.Decl{
	{Name: "Mm.Prime", Kind: library.KindDef, Signature: "def Mm.Prime (p : Nat) : Prop", Doc: "A natural number `p` is prime if it is at least `2` and its only divisors are `1` and `p`.", StatementDeps: []string{"Minimath.Divides"}},
	{Name: "Mm.Odd", Kind: library.KindDef, Signature: "def Mm.Odd (n : Nat) : Prop", Doc: "A natural number is odd if it has the form `2 * k + 1`."},
	{Name: "Mm.Even", Kind: library.KindDef, Signature: "def Mm.Even (n : Nat) : Prop", Doc: "A natural number is even if it is the sum of a number with itself."},
	{Name: "Minimath.Divides", Kind: library.KindDef, Signature: "def Minimath.Divides (a b : Nat) : Prop", Doc: "`Divides a b` means that `a` divides `b`: there is some `c` with `b = a * c`."},
	{Name: "Mm.Coprime", Kind: library.KindDef, Signature: "def Mm.Coprime (a b : Nat) : Prop", Doc: "Two natural numbers are coprime if their greatest common divisor is `1`.", StatementDeps: []string{"Mm.gcd"}},
	{Name: "Mm.gcd", Kind: library.KindDef, Signature: "def Mm.gcd : Nat → Nat → Nat", Doc: "The greatest common divisor of two natural numbers, by Euclid's algorithm."},
	{Name: "Mm.Prime.two_le", Kind: library.KindTheorem, Signature: "theorem Mm.Prime.two_le {p : Nat} (hp : Prime p) : 2 ≤ p", Doc: "Every prime is at least two.", StatementDeps: []string{"Mm.Prime"}},
	{Name: "DriftExample.Primes.Prime.odd_of_ne_two", Kind: library.KindTheorem, Signature: "theorem DriftExample.Primes.Prime.odd_of_ne_two {p : Nat} (hp : Prime p) (h2 : p ≠ 2) : Odd p", Doc: "Every prime number other than `2` is odd.", StatementDeps: []string{"Mm.Prime", "Mm.Odd"}},
	{Name: "DriftExample.Primes.coprime_of_prime_ne", Kind: library.KindTheorem, Signature: "theorem DriftExample.Primes.coprime_of_prime_ne {p q : Nat} (hp : Prime p) (hq : Prime q) (hne : p ≠ q) : Coprime p q", Doc: "Two distinct primes are coprime.", StatementDeps: []string{"Mm.Prime", "Mm.Coprime"}},
	{Name: "DriftExample.Primes.odd_mul_self", Kind: library.KindTheorem, Signature: "theorem DriftExample.Primes.odd_mul_self {n : Nat} (h : Odd n) : Odd (n * n)", Doc: "The square of an odd number is odd.", StatementDeps: []string{"Mm.Odd"}},
}

// wordRetriever is a small word-overlap retriever over testDecls standing in
// for retrieval.Engine in this package's unit tests.
type wordRetriever struct {
	decls []*library.Decl
	mu    sync.Mutex
	calls []string
}

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		out[strings.TrimSuffix(w, "s")] = true
	}
	return out
}

func (w *wordRetriever) rank(q string, kinds func(*library.Decl) bool) []*library.Decl {
	qw := words(q)
	type sc struct {
		d *library.Decl
		s int
	}
	var all []sc
	for _, d := range w.decls {
		if !kinds(d) {
			continue
		}
		s := 0
		for x := range words(d.Doc) {
			if qw[x] {
				s++
			}
		}
		for x := range words(d.Name) {
			if qw[x] {
				s += 3
			}
		}
		if s > 0 {
			all = append(all, sc{d, s})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].s > all[j].s })
	out := make([]*library.Decl, len(all))
	for i, a := range all {
		out[i] = a.d
	}
	return out
}

func isDef(d *library.Decl) bool { return d.Kind != library.KindTheorem }

func (w *wordRetriever) Retrieve(ctx context.Context, statement string, subs []retrieval.SubQuery, k int) ([]retrieval.Premise, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w.mu.Lock()
	w.calls = append(w.calls, fmt.Sprintf("retrieve %d", len(subs)))
	w.mu.Unlock()
	var out []retrieval.Premise
	seen := map[string]bool{}
	if len(subs) == 0 {
		for _, d := range w.rank(statement, isDef) {
			if len(out) < k {
				out = append(out, retrieval.Premise{Hit: retrieval.Hit{Decl: d}, SubQuery: -1, Source: "retrieve"})
			}
		}
		return out, nil
	}
	for i, s := range subs {
		r := w.rank(s.Informal+" "+s.Formal, isDef)
		if len(r) > 0 && !seen[r[0].Name] {
			seen[r[0].Name] = true
			out = append(out, retrieval.Premise{Hit: retrieval.Hit{Decl: r[0]}, SubQuery: i, Source: "retrieve"})
		}
	}
	return out, nil
}

func (w *wordRetriever) Illustrate(ctx context.Context, statement string, premises []string, m int) (retrieval.Illustration, error) {
	if err := ctx.Err(); err != nil {
		return retrieval.Illustration{}, err
	}
	covered := map[string]bool{}
	in := map[string]bool{}
	for _, p := range premises {
		in[p] = true
	}
	var ill retrieval.Illustration
	for len(ill.Theorems) < m {
		var best *library.Decl
		var bestNew []string
		for _, d := range w.rank(statement, func(d *library.Decl) bool { return d.Kind == library.KindTheorem }) {
			var nw []string
			for _, dep := range d.StatementDeps {
				if in[dep] && !covered[dep] {
					nw = append(nw, dep)
				}
			}
			if len(nw) > len(bestNew) {
				best, bestNew = d, nw
			}
		}
		if best == nil {
			break
		}
		for _, n := range bestNew {
			covered[n] = true
		}
		ill.Theorems = append(ill.Theorems, best)
		ill.Covers = append(ill.Covers, bestNew)
	}
	if len(premises) > 0 {
		ill.Coverage = float64(len(covered)) / float64(len(premises))
	}
	return ill, nil
}

func (w *wordRetriever) Lookup(name string) (*library.Decl, bool) {
	for _, d := range w.decls {
		if d.Name == name {
			return d, true
		}
	}
	return nil, false
}

// stageOf recognises which stage's prompt a request carries.
func stageOf(req llmtest.Request) string {
	if st := llmtest.StageOf(req); st != "" {
		return st
	}
	return "?"
}

const statement = "Every prime number other than 2 is odd."

const goodDecompose = "Sure.\n\\boxed{A natural number p is prime. Lean: `Mm.Prime p`}\n\\boxed{A natural number is odd. Lean: `Mm.Odd p`}"

const goodStub = "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by sorry\n```"

// script answers per stage; formalize answers are taken in turn.
type script struct {
	decompose, propose llmtest.Reply
	proposeFirst       *llmtest.Reply
	formalize          []llmtest.Reply
	repair             llmtest.Reply
	backTranslate      llmtest.Reply
	mu                 sync.Mutex
	n                  int
}

func (s *script) respond(_ int, req llmtest.Request) llmtest.Reply {
	switch stageOf(req) {
	case llm.StageDecompose:
		return s.decompose
	case llm.StagePropose:
		s.mu.Lock()
		defer s.mu.Unlock()
		if r := s.proposeFirst; r != nil {
			s.proposeFirst = nil
			return *r
		}
		return s.propose
	case llm.StageRepair:
		return s.repair
	case llm.StageBackTranslate:
		return s.backTranslate
	case llm.StageFormalize:
		// A request for n answers takes the next n in turn.
		s.mu.Lock()
		defer s.mu.Unlock()
		r := s.formalize[s.n%len(s.formalize)]
		for range max(req.N, 1) {
			r.Choices = append(r.Choices, s.formalize[s.n%len(s.formalize)].Text)
			s.n++
		}
		return r
	}
	return llmtest.Reply{Status: 400, Text: "unrecognised prompt"}
}

func goodScript() *script {
	return &script{
		decompose: llmtest.Reply{Text: goodDecompose},
		propose:   llmtest.Reply{Text: "```json\n{\"dependency\": [\"Mm.Prime\", \"Coprime\", \"Nat.IsOddNumber\"]}\n```"},
		formalize: []llmtest.Reply{{Text: goodStub}},
		// The statement restated exactly: agreement 1.
		backTranslate: llmtest.Reply{Text: statement},
	}
}

func newPipeline(t *testing.T, srv *llmtest.Server, checker Checker, p Params, mod func(*llm.Config)) (*Pipeline, *wordRetriever) {
	t.Helper()
	cfg := llm.Config{BaseURL: srv.URL, Model: "fake", APIKeyEnv: "DRIFT_TEST_NO_KEY", Timeout: 5 * time.Second, MaxRetries: 1, MaxRetryWait: 20 * time.Millisecond, CacheDir: t.TempDir()}
	if mod != nil {
		mod(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &wordRetriever{decls: testDecls}
	return NewWith(r, names.New(testDecls), c, checker, p), r
}

// answers counts the answers of an action's calls (cache hits included).
func answers(u llm.Usage) int {
	n := 0
	for _, c := range u.Log {
		n += c.Answers
	}
	return n
}

func TestFormalizeHappyPath(t *testing.T) {
	for _, ignoreN := range []bool{false, true} {
		t.Run(fmt.Sprintf("IgnoreN=%v", ignoreN), func(t *testing.T) { testFormalizeHappyPath(t, ignoreN) })
	}
}

// testFormalizeHappyPath runs the default pipeline; a server that ignores
// n (ignoreN) gets one request per candidate.
func testFormalizeHappyPath(t *testing.T, ignoreN bool) {
	s := goodScript()
	srv := llmtest.New(t, s.respond)
	defer srv.Close()
	srv.IgnoreN = ignoreN
	pl, _ := newPipeline(t, srv, nil, Params{}, nil)
	var events []progress.Event
	res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, func(e progress.Event) { events = append(events, e) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Stub != "theorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by sorry" {
		t.Fatalf("stub %q", res.Stub)
	}
	if len(res.SubQueries) != 2 || res.SubQueries[0].Formal != "Mm.Prime p" {
		t.Fatalf("sub-queries %+v", res.SubQueries)
	}
	var got []string
	for _, p := range res.Premises {
		got = append(got, fmt.Sprintf("%s/%d/%s", p.Decl.Name, p.SubQuery, p.Source))
	}
	if strings.Join(got, " ") != "Mm.Prime/0/retrieve Mm.Odd/1/retrieve Mm.Coprime/-1/propose" {
		t.Fatalf("premises %v", got)
	}
	if res.HallucinationRate != 1.0/3 || res.Proposed[2].Check != NameMissing || res.Proposed[1].Check != NameSuffix {
		t.Fatalf("proposed %+v rate %v", res.Proposed, res.HallucinationRate)
	}
	// The formalize prompt carries every premise and illustrative theorem, in
	// DRIFT's order.
	var fprompt string
	nForm := 0
	for _, r := range srv.Requests() {
		if stageOf(r) == llm.StageFormalize {
			nForm++
			if strings.Contains(r.Prompt(), "## Premises") {
				fprompt = r.Prompt()
			}
			if r.Temperature != 0.7 || r.Seed == nil {
				t.Errorf("formalize request without temperature 0.7 and seed: %+v", r)
			}
		}
	}
	if len(res.Illustration.Theorems) == 0 {
		t.Fatal("no illustrative theorems")
	}
	order := []string{"Rules:", "## Premises", "Mm.Prime", "Mm.Odd", "Mm.Coprime", "## Illustrative theorems"}
	for _, th := range res.Illustration.Theorems {
		order = append(order, th.Signature)
	}
	order = append(order, "## Theorem name", "odd_of_prime", "## Informal statement", statement)
	pos := 0
	for _, want := range order {
		i := strings.Index(fprompt[pos:], want)
		if i < 0 {
			t.Fatalf("formalize prompt lacks %q after position %d:\n%s", want, pos, fprompt)
		}
		pos += i
	}
	// Budget: 1 decompose + 1 propose + 4 samples + 1 without context + a
	// back-translation for each of the 5 possible candidates; the 4 samples
	// are one request for 4 answers, drawn beside the one without context,
	// unless the server ignores n; the 5 samples agree, so one candidate is
	// restated.
	wantForm := 2
	if ignoreN {
		wantForm = 5
	}
	if nForm != wantForm || res.Usage.Calls != 3+wantForm || answers(res.Usage) != 8 || res.Usage.PerStage[llm.StageBackTranslate] != 1 || pl.Params().MaxCalls() != 12 {
		t.Fatalf("formalize calls %d, usage %+v, max %d", nForm, res.Usage, pl.Params().MaxCalls())
	}
	if bt := res.Report.BackTranslation; bt == nil || bt.Score != 1 || bt.Text != statement {
		t.Fatalf("back-translation %+v", bt)
	}
	if len(res.Candidates) != 1 || res.Candidates[0].Agreement != 5 {
		t.Fatalf("candidates %+v", res.Candidates)
	}
	stages := map[string]bool{}
	for _, e := range events {
		stages[e.Stage] = true
	}
	for _, s := range []string{StageDecompose, StageRetrieve, StagePropose, StageIllustrate, StageFormalize, StageChoose} {
		if !stages[s] {
			t.Errorf("no %s event in %+v", s, events)
		}
	}

	// The repeat is free: every answer comes from the cache.
	before := len(srv.Requests())
	res2, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
	if err != nil || res2.Stub != res.Stub {
		t.Fatal(err)
	}
	if len(srv.Requests()) != before || res2.Usage.Calls != 0 || res2.Usage.CacheHits != res.Usage.Calls || answers(res2.Usage) != 8 {
		t.Fatalf("repeat made %d requests, usage %+v", len(srv.Requests())-before, res2.Usage)
	}
}

// TestFormalizeStream runs the happy path over a streaming endpoint.
func TestFormalizeStream(t *testing.T) {
	srv := llmtest.New(t, goodScript().respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, func(c *llm.Config) { c.Stream = true })
	res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
	if err != nil || !strings.HasPrefix(res.Stub, "theorem odd_of_prime") || res.Usage.Calls != 4 {
		t.Fatalf("%v %+v", err, res)
	}
}

func TestFormalizeDegraded(t *testing.T) {
	tests := []struct {
		name     string
		mod      func(*script)
		warning  string
		premises string
	}{
		{"no boxed", func(s *script) { s.decompose = llmtest.Reply{Text: "The statement is about primes and odd numbers."} }, `no complete \boxed`, "Mm.Prime Mm.Odd Mm.Even Mm.Coprime Minimath.Divides"},
		{"unbalanced braces", func(s *script) {
			s.decompose = llmtest.Reply{Text: "\\boxed{A natural number p is prime. Lean: `Mm.Prime p`}\n\\boxed{odd {"}
		}, `dropped 1 unbalanced`, "Mm.Prime Mm.Coprime"},
		{"empty list", func(s *script) { s.decompose = llmtest.Reply{Text: `\boxed{}`} }, `no complete \boxed`, "Mm.Prime Mm.Odd Mm.Even Mm.Coprime Minimath.Divides"},
		{"decompose 500", func(s *script) { s.decompose = llmtest.Reply{Status: 500, Text: "overloaded"} }, "decompose failed", "Mm.Prime Mm.Odd Mm.Even Mm.Coprime Minimath.Divides"},
		{"propose prose", func(s *script) { s.propose = llmtest.Reply{Text: "You will need primality and parity."} }, "propose: the answer is neither", "Mm.Prime Mm.Odd"},
		{"propose invented names only", func(s *script) { s.propose = llmtest.Reply{Text: `{"dependency": ["Nat.IsOddPrime", "Foo.bar"]}`} }, "", "Mm.Prime Mm.Odd"},
		{"propose 429 then ok", func(s *script) {
			s.proposeFirst = &llmtest.Reply{Status: 429, Text: "rate limited", Header: map[string]string{"Retry-After": "0"}}
		}, "", "Mm.Prime Mm.Odd Mm.Coprime"},
		{"one candidate rejected by the gate", func(s *script) {
			s.formalize = []llmtest.Reply{{Text: "```lean\ntheorem odd_of_prime (x : Nat) : (do pure x : Id Nat) = x := by sorry\n```"}, {Text: goodStub}}
		}, "", "Mm.Prime Mm.Odd Mm.Coprime"},
		{"one candidate smuggles #eval", func(s *script) {
			s.formalize = []llmtest.Reply{{Text: "```lean\n#eval 1\ntheorem odd_of_prime : True := by sorry\n```"}, {Text: goodStub}}
		}, "", "Mm.Prime Mm.Odd Mm.Coprime"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := goodScript()
			tc.mod(s)
			srv := llmtest.New(t, s.respond)
			defer srv.Close()
			pl, _ := newPipeline(t, srv, nil, Params{}, nil)
			res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(res.Stub, "theorem odd_of_prime {p : Nat}") {
				t.Fatalf("stub %q", res.Stub)
			}
			if tc.name == "one candidate rejected by the gate" {
				last := res.Candidates[len(res.Candidates)-1]
				if !strings.Contains(last.Error, "safety gate") || last.Check == nil || last.Check.GatePassed {
					t.Fatalf("gate-rejected candidate %+v", last)
				}
			}
			if tc.warning != "" && !strings.Contains(strings.Join(res.Warnings, "\n"), tc.warning) {
				t.Fatalf("warnings %q lack %q", res.Warnings, tc.warning)
			}
			var got []string
			for _, p := range res.Premises {
				got = append(got, p.Decl.Name)
			}
			if strings.Join(got, " ") != tc.premises {
				t.Fatalf("premises %v, want %s", got, tc.premises)
			}
		})
	}
}

func TestFormalizeNoUsableCandidate(t *testing.T) {
	bad := map[string]string{
		"no code block":  "I am not sure how to state this in Lean.",
		"two theorems":   "```lean\ntheorem a : True := by sorry\ntheorem b : True := by sorry\n```",
		"run_cmd":        "```lean\nrun_cmd pure ()\ntheorem odd_of_prime : True := by sorry\n```",
		"truncated":      "",
		"huge (2 MB)":    strings.Repeat("theorem ", 1<<18),
		"server failure": "",
	}
	for name, text := range bad {
		t.Run(name, func(t *testing.T) {
			s := goodScript()
			r := llmtest.Reply{Text: text}
			switch name {
			case "truncated":
				r = llmtest.Reply{Text: "```lean\ntheorem odd_of_prime {p : Nat} (hp :", FinishReason: "length"}
			case "server failure":
				r = llmtest.Reply{Status: 503, Text: "unavailable"}
			}
			s.formalize = []llmtest.Reply{r}
			srv := llmtest.New(t, s.respond)
			defer srv.Close()
			pl, _ := newPipeline(t, srv, nil, Params{Samples: 2}, nil)
			res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
			if !errors.Is(err, ErrNoCandidate) || res != nil {
				t.Fatalf("want ErrNoCandidate and no result, got %v %+v", err, res)
			}
		})
	}
}

func TestFormalizeStreamCutMidway(t *testing.T) {
	s := goodScript()
	s.formalize = []llmtest.Reply{{Text: strings.Repeat("x", 200) + goodStub, CutStream: true}}
	srv := llmtest.New(t, s.respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, func(c *llm.Config) { c.Stream = true; c.MaxRetries = 0 })
	_, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
	if !errors.Is(err, ErrNoCandidate) || !strings.Contains(err.Error(), "incomplete") {
		t.Fatalf("want ErrNoCandidate (incomplete), got %v", err)
	}
}

func TestFormalizeTimeout(t *testing.T) {
	s := goodScript()
	s.formalize = []llmtest.Reply{{Text: goodStub, Delay: time.Minute}}
	srv := llmtest.New(t, s.respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, func(c *llm.Config) { c.Timeout = 200 * time.Millisecond; c.MaxRetries = 0 })
	_, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
	if !errors.Is(err, ErrNoCandidate) || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("want a timeout, got %v", err)
	}
}

// TestFormalizeCancel cancels while each model stage is in flight: the
// result is nil and the error is context.Canceled.
func TestFormalizeCancel(t *testing.T) {
	for _, stage := range []string{llm.StageDecompose, llm.StagePropose, llm.StageFormalize} {
		t.Run(stage, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			s := goodScript()
			srv := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply {
				if stageOf(req) == stage {
					cancel()
					return llmtest.Reply{Text: goodStub, Delay: time.Minute}
				}
				return s.respond(n, req)
			})
			defer srv.Close()
			pl, _ := newPipeline(t, srv, nil, Params{}, nil)
			res, err := pl.Formalize(ctx, Request{Statement: statement, Name: "odd_of_prime"}, nil)
			if !errors.Is(err, context.Canceled) || res != nil {
				t.Fatalf("want context.Canceled and no result, got %v %+v", err, res)
			}
		})
	}
}

// rankChecker is a checker test double that plays Lean's verdicts by
// statement content.
type rankChecker struct{}

func (rankChecker) Check(_ context.Context, req leanrepl.CheckRequest) (*leanrepl.Report, error) {
	stub := req.Stub
	switch {
	case strings.Contains(stub, "Mm.Odd p"):
		return &leanrepl.Report{Stub: stub, GatePassed: true, LeanRan: true, LeanOK: true}, nil
	case strings.Contains(stub, "Odd p"):
		at := strings.Index(stub, "Odd p")
		return &leanrepl.Report{Stub: stub, GatePassed: true, LeanRan: true, LeanOK: false,
			Messages: []leanrepl.LeanMessage{{Message: leanrepl.Message{Severity: "error", Data: "unknown identifier 'Odd'"}, Start: at, End: at + 3}},
			Unknown:  []leanrepl.UnknownName{{Name: "Odd", Start: at, End: at + 3}}}, nil
	}
	return &leanrepl.Report{Stub: stub, GatePassed: false, GateReason: "not a theorem"}, nil
}

func TestChooseRanksByLeanThenUnknownThenAgreement(t *testing.T) {
	s := goodScript()
	wrong := "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Odd p := by sorry\n```"
	// Three samples agree on the wrong statement; Lean's verdict still wins.
	s.formalize = []llmtest.Reply{{Text: wrong}, {Text: wrong}, {Text: goodStub}, {Text: wrong}}
	srv := llmtest.New(t, s.respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, rankChecker{}, Params{NoContextSamples: -1}, nil)
	res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Stub, "Mm.Odd p") || len(res.Candidates) != 2 || res.Candidates[1].Agreement != 3 {
		t.Fatalf("chose %q from %+v", res.Stub, res.Candidates)
	}
	// Without Lean's verdict, agreement decides.
	a := &Candidate{Agreement: 1, WithContext: true}
	b := &Candidate{Agreement: 3}
	c := &Candidate{Agreement: 5, Check: &leanrepl.Report{GatePassed: true, Unknown: []leanrepl.UnknownName{{Name: "X"}}}}
	d := &Candidate{Agreement: 9, Error: "bad"}
	cs := []*Candidate{d, a, c, b}
	sort.SliceStable(cs, func(i, j int) bool { return better(cs[i], cs[j], true) })
	if cs[0] != b || cs[1] != a || cs[2] != c || cs[3] != d {
		t.Fatalf("order %+v", cs)
	}
}

// TestChooseRanksByMeaning: after Lean's verdict, a refuted candidate
// comes last, then one omitting a condition, then back-translation
// agreement decides before sample agreement; ranking by form alone (the
// benchmark's "before") ignores all three.
func TestChooseRanksByMeaning(t *testing.T) {
	rep := func(refuted bool, omits bool, back float64) *leanrepl.Report {
		r := &leanrepl.Report{GatePassed: true, Falsifier: &falsify.Result{Verdict: falsify.NotRefuted, Assignments: 10}}
		if refuted {
			r.Falsifier = &falsify.Result{Verdict: falsify.Refuted, Counterexample: "n = 2"}
		}
		r.Coverage = &coverage.Result{Conditions: []coverage.Condition{{Phrase: "greater than 2", Kind: coverage.KindComparison, Covered: !omits}}}
		if back > 0 {
			r.BackTranslation = &leanrepl.BackTranslation{Score: back}
		}
		return r
	}
	refuted := &Candidate{Agreement: 9, Check: rep(true, false, 0.9)}
	omits := &Candidate{Agreement: 8, Check: rep(false, true, 0.9)}
	close := &Candidate{Agreement: 1, Check: rep(false, false, 0.8)}
	far := &Candidate{Agreement: 7, Check: rep(false, false, 0.3)}
	tie := &Candidate{Agreement: 6, Check: rep(false, false, 0.77)}
	tests := []struct {
		meaning bool
		want    []*Candidate
	}{
		{true, []*Candidate{tie, close, far, omits, refuted}}, // 0.8 and 0.77 are within the noise: agreement decides
		{false, []*Candidate{refuted, omits, far, tie, close}},
	}
	for _, tc := range tests {
		cs := []*Candidate{far, close, refuted, tie, omits}
		sort.SliceStable(cs, func(i, j int) bool { return better(cs[i], cs[j], tc.meaning) })
		for i := range cs {
			if cs[i] != tc.want[i] {
				t.Errorf("meaning %v: position %d has agreement %d, want %d", tc.meaning, i, cs[i].Agreement, tc.want[i].Agreement)
			}
		}
	}
}

func TestFormalizeWithoutModel(t *testing.T) {
	pl := NewWith(&wordRetriever{decls: testDecls}, names.New(testDecls), nil, nil, Params{})
	if _, err := pl.Formalize(context.Background(), Request{Statement: statement}, nil); !errors.Is(err, llm.ErrNotConfigured) {
		t.Fatalf("want ErrNotConfigured, got %v", err)
	}
	prem, ill, err := pl.FindPremises(context.Background(), statement, 3, 2)
	if err != nil || len(prem) == 0 || len(ill.Theorems) == 0 {
		t.Fatalf("%v %v %v", prem, ill, err)
	}
}

func TestModelChoosesName(t *testing.T) {
	srv := llmtest.New(t, goodScript().respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, nil)
	res, err := pl.Formalize(context.Background(), Request{Statement: statement}, nil)
	if err != nil || res.Name != "odd_of_prime" {
		t.Fatalf("%v %+v", err, res)
	}
	if !strings.Contains(srv.Requests()[2].Prompt(), "choose a short descriptive snake_case name") {
		t.Fatal("prompt does not ask for a name")
	}
}

func TestInformalize(t *testing.T) {
	user := []*library.Decl{
		{Name: "My.square_odd", Kind: library.KindTheorem, User: true, Signature: "theorem My.square_odd (n : Nat) (h : My.IsOdd n) : My.IsOdd (n * n)", StatementDeps: []string{"My.IsOdd"}},
		{Name: "My.IsOdd", Kind: library.KindDef, User: true, Signature: "def My.IsOdd (n : Nat) : Prop := n % 2 = 1", StatementDeps: []string{"Mm.Odd"}},
		{Name: "My.documented", Kind: library.KindDef, User: true, Doc: "has a docstring", Signature: "def My.documented : Nat"},
		{Name: "Mathlib.thing", Kind: library.KindDef, Signature: "def Mathlib.thing : Nat"},
	}
	targets := InformalizeTargets(user)
	if len(targets) != 2 {
		t.Fatalf("targets %v", targets)
	}
	srv := llmtest.New(t, func(n int, req llmtest.Request) llmtest.Reply {
		if strings.Contains(req.Prompt(), "def My.IsOdd") {
			return llmtest.Reply{Text: "A natural number n is odd when it leaves remainder one on division by two."}
		}
		return llmtest.Reply{Text: "The square of an odd natural number is odd."}
	})
	defer srv.Close()
	pl, r := newPipeline(t, srv, nil, Params{}, nil)
	got, usage, err := pl.Informalize(context.Background(), targets, r.Lookup, 0, nil)
	if err != nil || len(got) != 2 || usage.Calls != 2 {
		t.Fatalf("%v %v %+v", err, got, usage)
	}
	reqs := srv.Requests()
	// Dependency order: IsOdd first (with Mm.Odd's docstring), then the
	// theorem, whose prompt carries IsOdd's new description.
	if !strings.Contains(reqs[0].Prompt(), "def My.IsOdd") || !strings.Contains(reqs[0].Prompt(), "has the form `2 * k + 1`") {
		t.Fatalf("first prompt %q", reqs[0].Prompt())
	}
	if !strings.Contains(reqs[1].Prompt(), "My.IsOdd: A natural number n is odd") {
		t.Fatalf("second prompt %q", reqs[1].Prompt())
	}
	// Unchanged declarations cost nothing the second time.
	_, usage, err = pl.Informalize(context.Background(), targets, r.Lookup, 0, nil)
	if err != nil || usage.Calls != 0 || usage.CacheHits != 2 {
		t.Fatalf("repeat usage %+v %v", usage, err)
	}
}

// TestWorkspaceModel runs the pipeline's real prompts against the rule-based
// model of llmtest (the one fakellm serves), which must recognise each stage.
func TestWorkspaceModel(t *testing.T) {
	srv := llmtest.New(t, llmtest.Workspace())
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{}, nil)
	res, err := pl.Formalize(context.Background(), Request{Statement: "Every prime number greater than 2 is odd.", Name: "odd_of_two_lt"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stub != "theorem odd_of_two_lt {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.Odd p := by sorry" || len(res.Warnings) != 0 {
		t.Fatalf("stub %q warnings %q", res.Stub, res.Warnings)
	}
	if len(res.SubQueries) != 2 || len(res.Proposed) != 2 || res.HallucinationRate != 0 {
		t.Fatalf("%+v", res)
	}
	for _, r := range srv.Requests() {
		if llmtest.StageOf(r) == "" {
			t.Fatalf("unrecognised prompt %q", r.Prompt())
		}
	}
}

func TestBudgetCapsSamples(t *testing.T) {
	srv := llmtest.New(t, goodScript().respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 10}, func(c *llm.Config) { c.CallBudget = 5 })
	res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Decompose, Propose and one request for the 3 samples the budget allows.
	if len(srv.Requests()) != 3 || res.Usage.Calls != 3 || answers(res.Usage) != 5 || !strings.Contains(strings.Join(res.Warnings, " "), "call budget allows 3 of 10 samples") {
		t.Fatalf("%d requests, usage %+v, warnings %q", len(srv.Requests()), res.Usage, res.Warnings)
	}
}

// blockingChecker cancels the action while checking.
type blockingChecker struct{ cancel context.CancelFunc }

func (b blockingChecker) Check(ctx context.Context, _ leanrepl.CheckRequest) (*leanrepl.Report, error) {
	b.cancel()
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestFormalizeCancelWhileChecking(t *testing.T) {
	srv := llmtest.New(t, goodScript().respond)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pl, _ := newPipeline(t, srv, blockingChecker{cancel}, Params{}, nil)
	res, err := pl.Formalize(ctx, Request{Statement: statement, Name: "odd_of_prime"}, nil)
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("want context.Canceled and no result, got %v %+v", err, res)
	}
}

func TestFormalizeBadStatements(t *testing.T) {
	srv := llmtest.New(t, goodScript().respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{}, nil)
	for _, s := range []string{"", "  \n ", strings.Repeat("a prime ", 10000)} {
		if res, err := pl.Formalize(context.Background(), Request{Statement: s}, nil); err == nil || res != nil {
			t.Errorf("statement of %d bytes: want an error, got %v", len(s), res)
		}
	}
	if len(srv.Requests()) != 0 {
		t.Fatal("a bad statement reached the model")
	}
	// Non-UTF-8 text is sent (as replacement characters) without a crash.
	if _, err := pl.Formalize(context.Background(), Request{Statement: "Every prime \xff other than 2 is odd.", Name: "odd_of_prime"}, nil); err != nil {
		t.Fatal(err)
	}
}

// TestDefaultCheckerRanksUnknownNames: without Lean, the default checker's
// unknown-name check outranks agreement, and reports suggestions; by
// default the name missing its namespace is then given the library's name
// (no model).
func TestDefaultCheckerRanksUnknownNames(t *testing.T) {
	for _, noRepair := range []bool{true, false} {
		t.Run(fmt.Sprintf("NoNameRepair=%v", noRepair), func(t *testing.T) {
			s := goodScript()
			invented := "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Odd p := by sorry\n```"
			s.formalize = []llmtest.Reply{{Text: invented}, {Text: invented}, {Text: goodStub}, {Text: invented}}
			srv := llmtest.New(t, s.respond)
			defer srv.Close()
			pl, _ := newPipeline(t, srv, nil, Params{NoContextSamples: -1, NoNameRepair: noRepair}, nil)
			res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(res.Stub, ": Mm.Odd p") || len(res.Candidates) != 2 || !res.Report.Passed() {
				t.Fatalf("chose %q from %+v", res.Stub, res.Candidates)
			}
			var inv *Candidate
			for _, c := range res.Candidates {
				if c.Agreement == 3 {
					inv = c
				}
			}
			if noRepair {
				bad := inv.Check
				if bad == nil || len(bad.Unknown) != 1 || bad.Unknown[0].Name != "Odd" || bad.LeanRan || bad.LeanSkipped == "" || inv != res.Candidates[1] || inv.Repaired || res.NameRepairs != 0 {
					t.Fatalf("check of the invented-name candidate: %+v", inv)
				}
				return
			}
			// Repaired: Odd became Mm.Odd, the candidate passes and, agreeing
			// three times, is chosen.
			if !inv.Repaired || len(inv.Check.Unknown) != 0 || inv != res.Candidates[0] || res.NameRepairs != 1 ||
				!strings.Contains(strings.Join(inv.Notes, ";"), "replaced the unknown name Odd by Mm.Odd") {
				t.Fatalf("repaired candidate %+v, name repairs %d", inv, res.NameRepairs)
			}
		})
	}
}

// TestRepairLoop: the chosen candidate names an invented constant; the
// repair stage fixes it.
func TestRepairLoop(t *testing.T) {
	s := goodScript()
	s.formalize = []llmtest.Reply{{Text: "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.IsOdd p := by sorry\n```"}}
	s.repair = llmtest.Reply{Text: goodStub}
	srv := llmtest.New(t, s.respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 2, NoContextSamples: -1, RepairBudget: 2, NoNameRepair: true}, nil)
	var events []string
	res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, func(e progress.Event) { events = append(events, e.Message) })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(res.Stub, ": Mm.Odd p := by sorry") || res.Repair == nil || !res.Repair.Fixed || res.Repair.Attempts != 1 {
		t.Fatalf("stub %q repair %+v", res.Stub, res.Repair)
	}
	// The sampled candidate names an unknown constant: it is not restated.
	if res.Usage.Calls != 4 || answers(res.Usage) != 5 || res.Usage.PerStage[llm.StageRepair] != 1 || pl.Params().MaxCalls() != 8 {
		t.Fatalf("usage %+v, max %d", res.Usage, pl.Params().MaxCalls())
	}
	var prompt string
	for _, r := range srv.Requests() {
		if stageOf(r) == llm.StageRepair {
			prompt = r.Prompt()
		}
	}
	for _, want := range []string{"Mm.IsOdd", "unknown-name", "did you mean Mm.Odd", "## Library declarations that may help", statement} {
		if !strings.Contains(prompt, want) {
			t.Errorf("repair prompt lacks %q:\n%s", want, prompt)
		}
	}
	if !strings.Contains(strings.Join(events, "\n"), "Checking repair 1/2") {
		t.Errorf("events %q", events)
	}
}

// TestCheckedBetter: Lean's verdict first (an ill-typed stub or one naming
// a constant the library lacks is one Lean rejects), then refutation,
// unknown names, omissions.
func TestCheckedBetter(t *testing.T) {
	refuted := &leanrepl.Report{Falsifier: &falsify.Result{Verdict: falsify.Refuted}}
	unknown := &leanrepl.Report{Unknown: []leanrepl.UnknownName{{Name: "sqrt"}}}
	illTyped := &leanrepl.Report{Types: []elab.Finding{{Message: "function expected"}}}
	plain := &leanrepl.Report{}
	for _, c := range []struct {
		name    string
		a, b    *leanrepl.Report
		less    bool
		decided bool
	}{
		{"refuted over unknown name", refuted, unknown, true, true},
		{"unknown name under refuted", unknown, refuted, false, true},
		{"plain over ill-typed", plain, illTyped, true, true},
		{"plain over refuted", plain, refuted, true, true},
		{"both rejected: fewer unknown names first", illTyped, unknown, true, true},
		{"plain and plain level", plain, plain, false, false},
	} {
		less, decided := checkedBetter(&Candidate{Check: c.a}, &Candidate{Check: c.b}, true)
		if less != c.less || decided != c.decided {
			t.Errorf("%s: less %v decided %v, want %v %v", c.name, less, decided, c.less, c.decided)
		}
	}
}
