package falsify

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// opensLibrary resolves a name as written or under one of the opened
// namespaces, keeping the full names the falsifier knows (all of which
// Mathlib declares): a stand-in for the name check's resolver.
type opensLibrary struct{ opens []string }

func (o opensLibrary) Resolve(name string) []string {
	for _, full := range append([]string{name}, prefixed(o.opens, name)...) {
		if builtinNum[full] != nil || builtinProp[full] != nil || setNames[full] {
			return []string{full}
		}
	}
	return nil
}

func prefixed(opens []string, name string) []string {
	out := make([]string, len(opens))
	for i, o := range opens {
		out[i] = o + "." + name
	}
	return out
}

func (opensLibrary) Definition(string) (Definition, bool) { return Definition{}, false }
func (opensLibrary) Notation(string) (Notation, bool)     { return Notation{}, false }

// theoremHeader extracts the header of the first theorem of a Lean file:
// the text after its name, up to the `:=` of its proof.
func theoremHeader(src string) (name, header string, ok bool) {
	i := strings.Index(src, "theorem ")
	if i < 0 {
		return "", "", false
	}
	rest := src[i+len("theorem "):]
	end := strings.LastIndex(rest, ":=")
	if end < 0 {
		return "", "", false
	}
	rest = rest[:end]
	sp := strings.IndexAny(rest, " \n")
	if sp < 0 {
		return "", "", false
	}
	return rest[:sp], strings.TrimSpace(rest[sp:]), true
}

// miniF2FValid reads the valid split of a miniF2F-lean4 checkout named by
// DRIFT_MINIF2F (skipping the test when it is unset).
func miniF2FValid(t *testing.T) map[string]string { return miniF2FSplit(t, "Valid") }

// miniF2FSplit reads one split ("Valid", "Test") of the checkout named by
// DRIFT_MINIF2F.
func miniF2FSplit(t *testing.T, split string) map[string]string {
	dir := os.Getenv("DRIFT_MINIF2F")
	if dir == "" {
		t.Skip("DRIFT_MINIF2F is not set (a miniF2F-lean4 checkout)")
	}
	files, err := filepath.Glob(filepath.Join(dir, "MiniF2F", split, "*.lean"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no MiniF2F/%s/*.lean under %s: %v", split, dir, err)
	}
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if name, h, ok := theoremHeader(string(b)); ok {
			out[name] = h
		}
	}
	return out
}

// knownFalse are the miniF2F-lean4 valid statements that are false in
// Lean: two lost something in the port from Lean 3, one relies on
// logarithms of 0 and 1 that Mathlib defines as 0, one takes ℕ division in
// its exponents. The falsifier must refute them, and nothing else.
var knownFalse = map[string]string{
	"mathd_algebra_433": "f 8 = 19, where the Lean 3 original and the informal statement say f 8 = 1",
	"imo_1967_p3":       "the product lost its parentheses: ∏ i ∈ s, c (m + i) - c k is (∏ i ∈ s, c (m + i)) - c k, the body being term:67",
	"aime_1988_p3":      "x = 1: Real.log 1 = 0 and Real.log 0 = 0 make h₁ read 0 = 0 (in Lean 3 too); the informal problem assumes the logarithms defined",
	// refuted since NNReal joined the fragment
	"amc12a_2020_p13": "the exponents 1 / c, 1 / b, 1 / a and 1 / 36 are ℕ divisions (0 for a, b, c > 1): h₂ reads 1 = 1, so b = 2 meets every hypothesis",
}

// TestMiniF2FValidNotRefuted checks that no miniF2F valid statement (true
// theorems, but for knownFalse) is refuted.
func TestMiniF2FValidNotRefuted(t *testing.T) {
	stmts := miniF2FValid(t)
	lib := opensLibrary{opens: []string{"BigOperators", "Real", "Nat", "Topology", "Rat"}}
	names := make([]string, 0, len(stmts))
	for n := range stmts {
		names = append(names, n)
	}
	sort.Strings(names)
	parsed, decided, unknown, refutedFalse := 0, 0, 0, 0
	reasons := map[string]int{}
	for _, n := range names {
		st, ok := splitHeader(stmts[n], lib)
		if !ok {
			unknown++
			reasons["header not parsed"]++
			continue
		}
		parsed++
		r := Falsify(context.Background(), st, lib, Options{})
		switch {
		case r.Verdict == Refuted && knownFalse[n] != "":
			refutedFalse++
		case r.Verdict == Refuted:
			t.Errorf("%s refuted with %s: %s", n, r.Counterexample, stmts[n])
		case knownFalse[n] != "":
			t.Errorf("%s is false (%s) but %v: %s", n, knownFalse[n], r.Verdict, r.Reason)
		case r.Verdict == NotRefuted:
			decided++
		default:
			unknown++
			reasons[firstWords(r.Reason)]++
		}
	}
	t.Logf("miniF2F valid: %d statements, %d parsed, %d not refuted after ≥1 defined assignment, %d unknown, %d known-false refuted",
		len(stmts), parsed, decided, unknown, refutedFalse)
	if testing.Verbose() {
		for r, k := range reasons {
			t.Logf("%4d %s", k, r)
		}
	}
}

// TestMiniF2FNoContradiction checks that the falsifier proves no miniF2F
// statement's hypotheses contradictory (valid and test splits): a reference
// that states nothing would be news.
func TestMiniF2FNoContradiction(t *testing.T) {
	lib := opensLibrary{opens: []string{"BigOperators", "Real", "Nat", "Topology", "Rat"}}
	for _, split := range []string{"Valid", "Test"} {
		stmts := miniF2FSplit(t, split)
		noneMet := 0
		for n, h := range stmts {
			st, ok := splitHeader(h, lib)
			if !ok {
				continue
			}
			r := Falsify(context.Background(), st, lib, Options{})
			if r.Contradiction != "" {
				t.Errorf("%s %s: hypotheses said to contradict (%s): %s", split, n, r.Contradiction, h)
			}
			if r.Verdict == Unknown && r.Assignments == 0 && strings.HasPrefix(r.Reason, "no assignment") {
				noneMet++
			}
		}
		t.Logf("miniF2F %s: %d statements, none contradictory; %d where no assignment met the hypotheses", split, len(stmts), noneMet)
	}
}

func firstWords(s string) string {
	if len(s) > 50 {
		return s[:50]
	}
	return s
}

// TestMiniF2FMutants measures how many false variants of the valid
// statements (mutants: a hypothesis dropped, a relation flipped, a numeral
// shifted) are refuted; no miniF2F text is stored.
func TestMiniF2FMutants(t *testing.T) {
	stmts := miniF2FValid(t)
	lib := opensLibrary{opens: []string{"BigOperators", "Real", "Nat", "Topology", "Rat"}}
	total, refuted, totalDecided, refutedDecided, vacuous := 0, 0, 0, 0, 0
	byKind := map[string][2]int{}
	for _, h := range stmts {
		st, ok := splitHeader(h, lib)
		if !ok {
			continue
		}
		orig := Falsify(context.Background(), st, lib, Options{})
		for _, m := range mutants(st) {
			r := Falsify(context.Background(), m.st, lib, Options{})
			total++
			kind := strings.Fields(m.desc)[0]
			if strings.Contains(m.desc, "→") {
				kind = "flip/shift"
				if _, err := strconv.Atoi(strings.Fields(m.desc)[0]); err == nil {
					kind = "shift"
				} else {
					kind = "flip"
				}
			}
			if r.Contradiction != "" {
				vacuous++
			}
			c := byKind[kind]
			c[0]++
			if r.Verdict == Refuted {
				refuted++
				c[1]++
			}
			byKind[kind] = c
			if orig.Verdict == NotRefuted {
				totalDecided++
				if r.Verdict == Refuted {
					refutedDecided++
				}
			}
		}
	}
	t.Logf("mutants: %d, refuted %d (%.0f%%), hypotheses proven contradictory %d; of decided originals: %d, refuted %d (%.0f%%)", total, refuted, 100*float64(refuted)/float64(total), vacuous, totalDecided, refutedDecided, 100*float64(refutedDecided)/float64(totalDecided))
	for k, c := range byKind {
		t.Logf("%s: %d/%d", k, c[1], c[0])
	}
	// not every mutant is false, but most of those of decided statements are
	if refutedDecided*10 < totalDecided*7 {
		t.Errorf("only %d of %d mutants of decided statements refuted", refutedDecided, totalDecided)
	}
}
