package drift

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// TestStructuredStages: with a server that does structured output every
// stage asks for its schema and gets JSON; with one that refuses it the
// first request is sent again without, later ones are text from the start,
// and the result is the same.
func TestStructuredStages(t *testing.T) {
	for _, refuses := range []bool{false, true} {
		name := "server does structured output"
		if refuses {
			name = "server refuses response_format"
		}
		t.Run(name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Workspace())
			defer srv.Close()
			srv.NoStructured = refuses
			pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, nil)
			res, err := pl.Formalize(context.Background(), Request{Statement: "Every prime number greater than 2 is odd.", Name: "odd_of_two_lt"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if want := "theorem odd_of_two_lt {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.Odd p := by sorry"; res.Stub != want || !res.Report.Passed() {
				t.Fatalf("stub %q passed %v, want %q", res.Stub, res.Report.Passed(), want)
			}
			if len(res.SubQueries) == 0 || len(res.Warnings) != 0 {
				t.Fatalf("sub-queries %+v warnings %q", res.SubQueries, res.Warnings)
			}
			var got []string
			for _, r := range srv.Requests() {
				schema := "-"
				if rf := r.ResponseFormat; rf != nil {
					schema = rf.JSONSchema.Name
				}
				got = append(got, llmtest.StageOf(r)+":"+schema)
			}
			want := "decompose:decomposition propose:dependencies formalize:theorem_statement backtranslate:-"
			if refuses {
				want = "decompose:decomposition decompose:- propose:- formalize:- backtranslate:-"
			}
			if strings.Join(got, " ") != want {
				t.Fatalf("requests %q, want %q", got, want)
			}
			// After a refusal the prompts ask for the text formats.
			last := srv.Requests()[len(srv.Requests())-2].Prompt()
			if json := strings.Contains(last, `Answer with JSON`); json == refuses {
				t.Fatalf("formalize prompt asks for JSON = %v with a server refusing = %v", json, refuses)
			}
		})
	}
}

func TestParseFormalizeAnswer(t *testing.T) {
	tests := []struct {
		name, in, want, err string
	}{
		{"structured", `{"name": "x", "binders": ["(p : Nat)", "(hp : Mm.Prime p)"], "conclusion": "Mm.Odd p"}`,
			"theorem odd_of_prime (p : Nat) (hp : Mm.Prime p) : Mm.Odd p := by sorry", ""},
		{"structured, bare binder and a proof in the conclusion", `{"name": "x", "binders": ["n : ℕ"], "conclusion": "n = n := rfl"}`,
			"theorem odd_of_prime (n : ℕ) : n = n := by sorry", ""},
		{"unnamed hypotheses get names that are free", `{"name": "x", "binders": ["(x S : Set ℕ)", "(h1 : 0 ∈ S)", "(x ∈ S)", "(a ≠ (0 : ℕ))", "(x y)", "[Fintype S]"], "conclusion": "x = x"}`,
			"theorem odd_of_prime (x S : Set ℕ) (h1 : 0 ∈ S) (h2 : x ∈ S) (h3 : a ≠ (0 : ℕ)) (x y) [Fintype S] : x = x := by sorry", ""},
		{"structured in a fence with prose", "Here:\n```json\n{\"name\": \"x\", \"binders\": [], \"conclusion\": \"True\"}\n```",
			"theorem odd_of_prime : True := by sorry", ""},
		{"a whole theorem field", `{"theorem": "theorem y (n : Nat) : n = n := by sorry"}`,
			"theorem odd_of_prime (n : Nat) : n = n := by sorry", ""},
		{"structured but forbidden", `{"name": "x", "binders": [], "conclusion": "True := by #eval 1"}`, "", "forbidden"},
		{"structured with an empty conclusion falls back to text", `{"name": "x", "binders": [], "conclusion": ""}`, "", "no ```lean code block"},
		{"text", "```lean\ntheorem t (n : Nat) : n = n := by simp\n```", "theorem odd_of_prime (n : Nat) : n = n := by sorry", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := ParseFormalizeAnswer(tc.in, "odd_of_prime")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, %v; want error containing %q", st, err, tc.err)
				}
				return
			}
			if err != nil || st.Text != tc.want {
				t.Fatalf("got %v, %v; want %q", st, err, tc.want)
			}
		})
	}
}

func TestParseDecompositionJSON(t *testing.T) {
	subs, _, err := ParseDecomposition(`{"queries": [{"sentence": "p is prime.", "lean": "` + "`Mm.Prime p`" + `"}, {"sentence": "p is prime.", "lean": "Mm.Prime p"}, {"sentence": "", "lean": ""}]}`)
	if err != nil || len(subs) != 1 || subs[0].Formal != "Mm.Prime p" || subs[0].Informal != "p is prime." {
		t.Fatalf("%+v %v", subs, err)
	}
	if _, _, err := ParseDecomposition(`{"queries": []}`); err == nil {
		t.Fatal("an empty query list parsed")
	}
	// The worked examples, rendered as structured answers, parse back.
	for _, ex := range decomposeExamples {
		subs, _, err := ParseDecomposition(boxedAsJSON(ex.answer))
		boxed, _, _ := ParseDecomposition(ex.answer)
		if err != nil || len(subs) != len(boxed) {
			t.Fatalf("%s: %+v %v", ex.statement, subs, err)
		}
	}
}

func TestRepairNames(t *testing.T) {
	sugg := map[string][]string{"Even": {"Mm.Even"}, "Odd": {"Rel", "Mm.Odd"}, "Nope": nil, "Re": {"Rel", "Rep"},
		"log": {"CFC.log", "Nat.log", "Real.log"}, "nat": {"InverseSystem.PEquivOn.nat"},
		"constant": {"PLift.constant", "Fun.constant"}}
	theorems := map[string]bool{"PLift.constant": true}
	usable := func(name string) bool { return !theorems[name] }
	tests := []struct {
		in      string
		unknown []string
		want    string
		notes   int
	}{
		{"theorem t (n : Nat) (h : Even n) : Odd (n + 1) := by sorry", []string{"Even", "Odd"},
			"theorem t (n : Nat) (h : Mm.Even n) : Mm.Odd (n + 1) := by sorry", 2},
		// Whole identifiers only: EvenOdd, Nat.Even and h.Even stay.
		{"theorem t (EvenOdd : Nat) (h : Nat.Even EvenOdd) : Even EvenOdd := by sorry", []string{"Even"},
			"theorem t (EvenOdd : Nat) (h : Nat.Even EvenOdd) : Mm.Even EvenOdd := by sorry", 1},
		{"theorem t : Nope 1 := by sorry", []string{"Nope"}, "theorem t : Nope 1 := by sorry", 0},
		// Look-alikes are not namespaces: Re stays (an honest failure).
		{"theorem t (z : ℂ) : Re z = 0 := by sorry", []string{"Re"}, "theorem t (z : ℂ) : Re z = 0 := by sorry", 0},
		// A theorem is not what a statement names: the definition is used.
		{"theorem t (f : ℕ → ℕ) : constant f := by sorry", []string{"constant"}, "theorem t (f : ℕ → ℕ) : Fun.constant f := by sorry", 1},
		// Several namespaces, or a deep one: no choice is made.
		{"theorem t (x : ℝ) : log x = 0 := by sorry", []string{"log"}, "theorem t (x : ℝ) : log x = 0 := by sorry", 0},
		{"theorem t (n : nat) : n = n := by sorry", []string{"nat"}, "theorem t (n : nat) : n = n := by sorry", 0},
	}
	for _, tc := range tests {
		got, notes := RepairNames(tc.in, tc.unknown, sugg, usable)
		if got != tc.want || len(notes) != tc.notes {
			t.Errorf("RepairNames(%q) = %q, %q; want %q with %d notes", tc.in, got, notes, tc.want, tc.notes)
		}
	}
}

// A small model that copies the prompt's request for a name as the name
// gets the name made from the statement instead.
func TestCopiedNamePlaceholder(t *testing.T) {
	s := goodScript()
	s.formalize = []llmtest.Reply{{Text: `{"name": "choose_a_short_descriptive_snake_case_name", "binders": ["{p : Nat}", "(hp : Mm.Prime p)", "(h : p ≠ 2)"], "conclusion": "Mm.Odd p"}`}}
	srv := llmtest.New(t, s.respond)
	defer srv.Close()
	pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, nil)
	res, err := pl.Formalize(context.Background(), Request{Statement: statement}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := nameFromStatement(statement); res.Name != want || !strings.HasPrefix(res.Stub, "theorem "+want+" ") {
		t.Fatalf("name %q, stub %q; want %q", res.Name, res.Stub, want)
	}
}

// The schemas are JSON, and their patterns say what the stages may write:
// identifiers for names, bracketed binders, no LaTeX in Lean fields.
func TestSchemaPatterns(t *testing.T) {
	type field struct {
		schema *llm.Schema
		path   []string
	}
	pattern := func(f field) *regexp.Regexp {
		var v any
		if err := json.Unmarshal(f.schema.JSON, &v); err != nil {
			t.Fatalf("%s: %v", f.schema.Name, err)
		}
		for _, k := range f.path {
			v = v.(map[string]any)[k]
		}
		return regexp.MustCompile(v.(string))
	}
	tests := []struct {
		f      field
		ok, no []string
	}{
		{field{formalizeSchema, []string{"properties", "conclusion", "pattern"}},
			[]string{"x ∈ S", "∀ ε > 0, ∃ δ > 0, |f x| < ε", "Nat.Prime p → Odd p"},
			[]string{"", "The series $\\sum nz^n$ diverges", "\\frac{1}{2} = x"}},
		{field{formalizeSchema, []string{"properties", "binders", "items", "pattern"}},
			[]string{"(x : ℝ)", "[Group G]", "{n : ℕ}", "⦃x⦄", "(h : x ∈ S)"},
			[]string{"x : ℝ", "(x : $\\mathbb{R}$)", "(x"}},
		{field{formalizeSchema, []string{"properties", "name", "pattern"}},
			[]string{"odd_of_prime", "Nat.foo'"}, []string{"1abc", "a b"}},
	}
	for _, tc := range tests {
		re := pattern(tc.f)
		for _, s := range tc.ok {
			if !re.MatchString(s) {
				t.Errorf("%s %v rejects %q", tc.f.schema.Name, tc.f.path, s)
			}
		}
		for _, s := range tc.no {
			if re.MatchString(s) {
				t.Errorf("%s %v accepts %q", tc.f.schema.Name, tc.f.path, s)
			}
		}
	}
}
