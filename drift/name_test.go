package drift

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/llm/llmtest"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

func TestNames(t *testing.T) {
	for in, want := range map[string]string{
		"Every prime p of the form 4t+3 is odd": "prime_4t_odd",
		"∀ x ∈ ℝ, x² ≥ 0":                       "drift_statement",
		"2 plus 2 equals four":                  "plus_equals_four",
	} {
		if got := nameFromStatement(in); got != want {
			t.Errorf("nameFromStatement(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"(name: my_thm) blah": "my_thm", "blah\nname: Foo.bar_baz": "Foo.bar_baz", "no hint here": "", "the name: x is": "",
	} {
		if got := ExplicitName(in); got != want {
			t.Errorf("ExplicitName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"foo bar": "foo_bar", "1st": "thm_1st", "theorem": "theorem'", "a.b-c": "a.b_c", "x₁": "x₁", "!!": "",
		"«my thm»": "«my thm»", "xᵢ_le": "xᵢ_le", "ℕ_pos": "ℕ_pos",
	} {
		if got := SanitizeName(in); got != want {
			t.Errorf("SanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
	taken := map[string]bool{}
	for _, n := range DeclaredNames("namespace Ns\ntheorem foo : True := trivial\nlemma foo_2 : True := trivial\nend Ns\ndef bar := 1\nexample : True := trivial\n") {
		taken[n] = true
	}
	if want := map[string]bool{"Ns.foo": true, "foo": true, "Ns.foo_2": true, "foo_2": true, "bar": true}; !reflect.DeepEqual(taken, want) {
		t.Errorf("DeclaredNames = %v, want %v", taken, want)
	}
	if got := uniqueName("foo", func(s string) bool { return taken[s] }); got != "foo_3" {
		t.Errorf("uniqueName = %q", got)
	}
}

// TestNameDecidedOnce: the pipeline returns a stub whose name is final —
// the caller's as given, else the statement's hint or the model's, unique
// among Request.Taken — and its report is about that very stub.
func TestNameDecidedOnce(t *testing.T) {
	cases := []struct {
		name, statement, given string
		taken                  []string
		want                   string
	}{
		{"model's name", statement, "", nil, "odd_of_prime"},
		{"model's name taken", statement, "", []string{"odd_of_prime"}, "odd_of_prime_2"},
		{"caller's name as given", statement, "odd_of_prime", []string{"odd_of_prime"}, "odd_of_prime"},
		{"hint, made unique", statement + "\nname: odd_p", "", []string{"odd_p"}, "odd_p_2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.New(t, goodScript().respond)
			defer srv.Close()
			pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, nil)
			res, err := pl.Formalize(context.Background(), Request{Statement: c.statement, Name: c.given, Taken: c.taken}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Name != c.want || !strings.HasPrefix(res.Stub, "theorem "+c.want+" ") {
				t.Fatalf("name %q stub %q, want %q", res.Name, res.Stub, c.want)
			}
			if res.Report == nil || res.Report.Stub != res.Stub || res.Report.Parsed.Name != c.want {
				t.Fatalf("report %+v is not about the stub %q", res.Report, res.Stub)
			}
		})
	}
}

// TestRepairStage: the stage's stopping rules and what the model is told.
func TestRepairStage(t *testing.T) {
	invented := llmtest.Reply{Text: "```lean\ntheorem odd_of_prime {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.IsOdd p := by sorry\n```"}
	cases := []struct {
		name    string
		repair  llmtest.Reply
		budget  int
		fixed   bool
		stop    string
		repairs int
	}{
		{"fixed", llmtest.Reply{Text: goodStub}, 3, true, "passed", 1},
		{"never fixed: budget", invented, 3, false, "budget", 3},
		{"gate-rejected answers are retried", llmtest.Reply{Text: "```lean\n#eval 1\n```"}, 2, false, "budget", 2},
		{"model error", llmtest.Reply{Status: 400, Text: "bad request"}, 3, false, "model error", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := goodScript()
			s.formalize = []llmtest.Reply{invented}
			s.repair = c.repair
			srv := llmtest.New(t, s.respond)
			defer srv.Close()
			pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1, RepairBudget: c.budget}, func(cfg *llm.Config) { cfg.MaxRetries = 0 })
			res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: "odd_of_prime"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Repair == nil || res.Repair.Fixed != c.fixed || !strings.HasPrefix(res.Repair.Stop, c.stop) {
				t.Fatalf("repair %+v", res.Repair)
			}
			var prompts []string
			for _, r := range srv.Requests() {
				if stageOf(r) == llm.StageRepair {
					prompts = append(prompts, r.Prompt())
				}
			}
			if len(prompts) != c.repairs {
				t.Fatalf("%d repair calls, want %d", len(prompts), c.repairs)
			}
			if c.fixed != res.Report.Passed() || res.Report.Stub != res.Stub {
				t.Fatalf("report %+v for stub %q", res.Report, res.Stub)
			}
			first := prompts[0]
			if !strings.Contains(first, "line 1, column ") || !strings.Contains(first, "(unknown-name): unknown name `Mm.IsOdd`") {
				t.Errorf("first repair prompt lacks the located problem:\n%s", first)
			}
			if len(prompts) > 1 && !strings.Contains(prompts[1], "## Earlier attempts that also failed") {
				t.Errorf("second repair prompt lacks the earlier attempt:\n%s", prompts[1])
			}
			if c.name == "gate-rejected answers are retried" && !strings.Contains(prompts[1], "(gate): rejected by the safety gate") {
				t.Errorf("the gate's reason did not reach the model:\n%s", prompts[1])
			}
		})
	}
}

func TestConceptOf(t *testing.T) {
	for in, want := range map[string]string{"Nat.isPrimeFactor": "Nat is Prime Factor", "exists_prime_and_dvd": "exists prime and dvd", "ZMod": "ZMod"} {
		if got := conceptOf(in); got != want {
			t.Errorf("conceptOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNameNotInLibrary: a model's name that the library already declares
// (small models name a statement after the library's lemma) is made unique,
// since Lean rejects a second declaration of it in a file that imports the
// library; the caller's name stays as given.
func TestNameNotInLibrary(t *testing.T) {
	decls := append([]*library.Decl{{Name: "odd_of_prime", Kind: library.KindTheorem, Signature: "theorem odd_of_prime (n : Nat) : True"}}, testDecls...)
	for _, c := range []struct{ given, want string }{{"", "odd_of_prime_2"}, {"odd_of_prime", "odd_of_prime"}} {
		srv := llmtest.New(t, goodScript().respond)
		pl, _ := newPipeline(t, srv, nil, Params{Samples: 1, NoContextSamples: -1}, nil)
		pl = NewWith(&wordRetriever{decls: decls}, names.New(decls), pl.client, nil, pl.p)
		res, err := pl.Formalize(context.Background(), Request{Statement: statement, Name: c.given}, nil)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.Name != c.want || !strings.HasPrefix(res.Stub, "theorem "+c.want+" ") {
			t.Errorf("given %q: name %q stub %q, want %q", c.given, res.Name, res.Stub, c.want)
		}
	}
}
