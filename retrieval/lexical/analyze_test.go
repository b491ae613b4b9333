package lexical

import (
	"reflect"
	"slices"
	"testing"
)

func TestSplitIdent(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Nat.Prime", []string{"nat", "prime"}},
		{"ZMod", []string{"z", "mod"}},
		{"IsPrimitiveRoot", []string{"is", "primitive", "root"}},
		{"exists_prime_and_dvd", []string{"exists", "prime", "and", "dvd"}},
		{"Real.sqrt_two", []string{"real", "sqrt", "two"}},
		{"L2Space", []string{"l", "2", "space"}},
		{"ℝ", []string{"real"}},
		{"", nil},
	} {
		if got := SplitIdent(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitIdent(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestTerms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"Let $p$ be a prime.", []string{"prime"}},
		{`$\sum_{i} a_i \mid n$ in $\mathbb{R}$`, []string{"sum", "dvd", "real"}},
		{"∀ x : ℝ, x ∣ n", []string{"real", "dvd"}},
		{"Nat.Prime p → Finset.sum s f", []string{"nat", "prime", "finset", "sum"}},
		{"continuous functions", []string{"continu", "function"}},
		{"matrices and their suprema", []string{"matrix", "supremum"}},
		{"Matrix.iSup", []string{"matrix", "sup"}},
		{"bases of vector spaces", []string{"basi", "vector", "space"}},
		{"radii", []string{"radius"}},
		{"uniformly convergent", []string{"uniform", "converg"}},
		{"", nil},
		{"∀∃→", nil},
		{"\xff\xfeprime", []string{"prime"}},
	} {
		if got := Terms(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Terms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestAmerican(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"normalise", "normalize"}, {"factorisation", "factorization"}, {"characterisations", "characterizations"},
		{"minimiser", "minimizer"}, {"stabiliser", "stabilizer"}, {"centraliser", "centralizer"}, {"symmetrised", "symmetrized"},
		{"recognise", "recognize"}, {"parametrising", "parametrizing"}, {"neighbourhood", "neighborhood"},
		{"colourings", "colorings"}, {"centre", "center"}, {"fibre", "fiber"}, {"labelled", "labeled"},
		{"otherwise", "otherwise"}, {"precise", "precise"}, {"exercise", "exercise"}, {"premise", "premise"},
		{"pairwise", "pairwise"}, {"arise", "arise"}, {"noise", "noise"}, {"promise", "promise"},
		{"four", "four"}, {"hour", "hour"}, {"course", "course"}, {"basis", "basis"}, {"isomorphism", "isomorphism"},
	} {
		if got := American(tc.in); got != tc.want {
			t.Errorf("American(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestStripAccents(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Bézout", "Bezout"}, {"Hölder", "Holder"}, {"Erdős", "Erdos"}, {"Poincaré", "Poincare"}, {"Cesàro", "Cesaro"},
		{"plain", "plain"}, {"α₀", "α₀"}, {"ℝ", "ℝ"},
	} {
		if got := StripAccents(tc.in); got != tc.want {
			t.Errorf("StripAccents(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got, want := Terms("Bézout's lemma"), Terms("Bezout lemma"); !reflect.DeepEqual(got, want) {
		t.Errorf("Terms with accents = %q, without = %q", got, want)
	}
}

func TestWordRuns(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want [][]string
	}{
		{"compact spaces", [][]string{{"compact", "spaces"}}},
		{"ideal of a commutative ring", [][]string{{"ideal"}, {"commutative", "ring"}}},
		{"Euler's totient function", [][]string{{"euler", "totient", "function"}}},
		{"path-connected spaces, and groups", [][]string{{"path", "connected", "spaces"}, {"groups"}}},
		{"$p$-adic number", [][]string{{"adic", "number"}}},
		{"isomorphism with $K^n$", [][]string{{"isomorphism"}}},
		{"Hölder's inequality", [][]string{{"holder", "inequality"}}},
		{"", nil},
	} {
		if got := WordRuns(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("WordRuns(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSingularForm(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"spaces", "space"}, {"groups", "group"}, {"boundaries", "boundary"}, {"matrices", "matrix"},
		{"series", "series"}, {"class", "class"}, {"torus", "torus"}, {"basis", "basis"}, {"bases", "basis"},
		{"group", "group"}, {"sets", "set"},
	} {
		if got := SingularForm(tc.in); got != tc.want {
			t.Errorf("SingularForm(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTermsFastPaths checks the analyzer's shortcuts (lower-case ASCII words
// past SplitIdent, ASCII runes past the symbol table, the cached chain per
// word) against the chain spelled out: SplitIdent, lower case, stop words
// and one-letter words dropped, accents, American spelling, singular, stem.
// Each word is analyzed twice, so the second answer comes from the cache.
func TestTermsFastPaths(t *testing.T) {
	for _, w := range []string{
		"group", "groups", "Groups", "IsPrimitiveRoot", "ZMod", "exists_prime_and_dvd", "L2Space",
		"x", "2", "the", "Bézout", "normalisation", "matrices", "uniformly", "a1", "Nat.succ",
		"neighbourhoods", "it's", "p'", "ℝ", "x≤y", "αβ", "Cauchy–Schwarz", "ùnïcödé",
	} {
		var want []string
		for _, p := range SplitIdent(w) {
			if p == "" || stopWords[p] || len([]rune(p)) == 1 && (p[0] < '0' || p[0] > '9') {
				continue
			}
			want = append(want, Stem(Singular(American(StripAccents(p)))))
		}
		for range 2 {
			if got := Terms(w); !reflect.DeepEqual(got, want) {
				t.Errorf("Terms(%q) = %q, want %q", w, got, want)
			}
		}
	}
}

// TestAnalyzerIsTerms checks that an Analyzer's cached reading equals
// Terms, the first time and from its cache, and that what a caller does to
// the returned slice does not reach the cache.
func TestAnalyzerIsTerms(t *testing.T) {
	a := NewAnalyzer()
	for _, text := range []string{
		"theorem Nat.Prime.two_le {p : ℕ} (hp : p.Prime) : 2 ≤ p",
		"∑ i ∈ Finset.range n, f i = n * (n + 1) / 2",
		"$\\sum_{i=1}^n i$ and \\mathbb{R} and \\sqcup",
		"IsPrimitiveRoot ZMod exists_prime_and_dvd L2Space Bézout normalisation matrices",
		"",
		"x y z",
		"the of and",
		"Cauchy–Schwarz ‖x‖ ⁻¹ ⊔ ∣",
		"\xff\xfe broken UTF-8 Nat.succ",
		"two_le Prime le two Nat.Prime.two_le L2 L2Space Space HasFDerivAt FDeriv fderiv_add IsOpen.inter",
		"Prime.two_le prime_two", "exists_prime_and_dvd' h₁ x₀ hx' CauSeq.IsComplete α_1",
	} {
		want := Terms(text)
		for round := range 3 {
			got := a.Terms(text)
			if len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
				t.Errorf("round %d: Analyzer.Terms(%q) = %q, want %q", round, text, got, want)
			}
			for i := range got {
				got[i] = "clobbered"
			}
		}
		if got := a.AppendTerms([]string{"pre"}, text); !reflect.DeepEqual(got, append([]string{"pre"}, want...)) {
			t.Errorf("AppendTerms(%q) = %q", text, got)
		}
		if got := NewAnalyzer().AppendName(nil, text); !slices.Equal(got, want) {
			t.Errorf("fresh AppendName(%q) = %q, want %q", text, got, want)
		}
		if got := a.AppendName(nil, text); !slices.Equal(got, want) {
			t.Errorf("AppendName(%q) = %q, want %q", text, got, want)
		}
	}
}
