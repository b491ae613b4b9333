package leansrc

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseTerm(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a + b * c", "(op + a (op * b c))"},
		{"a - b - c", "(op - (op - a b) c)"},
		{"a ^ b ^ c", "(op ^ a (op ^ b c))"},
		{"-x ^ 2", "(pre - (op ^ x 2))"},
		{"-2 * x", "(op * (pre - 2) x)"},
		{"p → q → r", "(op → p (op → q r))"},
		{"V →ₗ[ℝ] W → ℝ", "(op →ₗ V (op → W ℝ) ℝ)"},
		{"(M →ₗ[R] M) →L[R] R", "(op →L (op →ₗ M M R) R R)"},
		{"X →[M] Y", "(op →[] X Y M)"},
		{"p ∧ q ∨ r", "(op ∨ (op ∧ p q) r)"},
		{"¬ a = b ∧ c", "(op ∧ (pre ¬ (op = a b)) c)"},
		{"a ↔ b ∧ c", "(op ↔ a (op ∧ b c))"},
		{"a <= b -> c != d", "(op → (op ≤ a b) (op ≠ c d))"},
		{"f x y + 1", "(op + (app f x y) 1)"},
		{"Nat.gcd (n + 7) (2 * n + 1) ≤ 13", "(op ≤ (app Nat.gcd (op + n 7) (op + (op * 2 n) 1)) 13)"},
		{"n ! = 2", "(op = (post ! n) 2)"},
		{"(n)!", "(post ! n)"},
		{"20! % 7", "(op % (post ! 20) 7)"},
		{"Nat.gcd 20! 200000", "(app Nat.gcd (post ! 20) 200000)"},
		{"x = (2 + 3)⁻¹ * y", "(op = x (op * (post ⁻¹ (op + 2 3)) y))"},
		{"orderOf x⁻¹ = f (g y)⁻¹ z", "(op = (app orderOf (post ⁻¹ x)) (app f (post ⁻¹ (app g y)) z))"},
		{"↑x + 1", "(op + (pre ↑ x) 1)"},
		{"(n : ℤ) - 1", "(op - (as n ℤ) 1)"},
		{"|x - 1| < 2", "(op < (abs (op - x 1)) 2)"},
		{"⟨1, 2⟩", "(anon 1 2)"},
		{"fun x => x + 1", "(fun [x] (op + x 1))"},
		{"λ (x : ℕ) => x", "(fun [x : ℕ] x)"},
		// a trailing lambda is an application's last argument, to the end
		{"Finset.sum s fun i => i = 2", "(app Finset.sum s (fun [i] (op = i 2)))"},
		{"a + f fun x => x", "(op + a (app f (fun [x] x)))"},
		{"∀ x y : ℕ, x + y = y + x", "(∀ [x y : ℕ] (op = (op + x y) (op + y x)))"},
		{"∀ x ∈ s, p x", "(∀ [x ∈ s] (app p x))"},
		{"∀ m < n, m ≤ n", "(∀ [m < n] (op ≤ m n))"},
		{"∀ (a : ℕ) (b : ℤ), a = b", "(∀ [a : ℕ] [b : ℤ] (op = a b))"},
		{"∃ k, n = 2 * k + 1", "(∃ [k] (op = n (op + (op * 2 k) 1)))"},
		{"∃! x : ℕ, x = 0", "(∃! [x : ℕ] (op = x 0))"},
		{"∑ i ∈ Finset.range n, i ^ 2", "(big ∑ [i ∈ (app Finset.range n)] (op ^ i 2))"},
		// a series: ∑' glued, over the whole type
		{"∑' n : ℕ, a n", "(big ∑' [n : ℕ] (app a n))"},
		{"∑ i in Finset.range n, f i + 1", "(op + (big ∑ [i ∈ (app Finset.range n)] (app f i)) 1)"},
		{"∏ k ∈ Finset.Icc 1 n, k", "(big ∏ [k ∈ (app Finset.Icc 1 n)] k)"},
		{"∑ k ∈ Finset.range 50 with k % 2 = 0, k", "(big ∑ [k ∈ (app Finset.range 50)] k (op = (op % k 2) 0))"},
		{"if x < 0 then -x else x", "(if (op < x 0) (pre - x) x)"},
		{"if h : x = 0 then 1 else 2", "(if h (op = x 0) 1 2)"},
		{"a ≡ b [MOD n]", "(≡ MOD a b n)"},
		{"a ≡ b [ZMOD 4] ∧ c", "(op ∧ (≡ ZMOD a b 4) c)"},
		{"{x : ℕ | x < 3}", "(setOf [x : ℕ] (op < x 3))"},
		{"{x | 0 < x}", "(setOf [x] (op < 0 x))"},
		{"{1, 2, 3}", "(set 1 2 3)"},
		{"x.succ = h.1", "(op = x.succ (proj 1 h))"},
		{"(f x).succ", "(proj succ (app f x))"},
		{"2.5 * x = 1e3", "(op = (op * 2.5 x) 1e3)"},
		{"(· + 1) 2", "(app (fun [·a] (op + ·a 1)) 2)"},
		{"Finset.card (Finset.filter (fun x => x % 19 = 7) (Finset.Icc 100 999)) = 48",
			"(op = (app Finset.card (app Finset.filter (fun [x] (op = (op % x 19) 7)) (app Finset.Icc 100 999))) 48)"},
		{"a ∣ b ∧ c ∉ s", "(op ∧ (op ∣ a b) (op ∉ c s))"},
		{"2 * ∑ i ∈ s, i", "(op * 2 (big ∑ [i ∈ s] i))"},
		{"⌊x / 2⌋ + ⌈y⌉₊", "(op + (app Int.floor (op / x 2)) (app Nat.ceil y))"},
		{"√x * √(y + 1) = f √2", "(op = (op * (app Real.sqrt x) (app Real.sqrt (op + y 1))) (app f (app Real.sqrt 2)))"},
		{"∫ x, f x < 1", "?{∫ x, f x < 1}"},
		{"(∫ x, f x) < 1", "(op < ?{(∫ x, f x)} 1)"},
		// Mathlib's norm notation, and the postfix complement
		{"‖x - y‖₊ ≤ ‖x‖ * ‖y‖", "(op ≤ (app NNNorm.nnnorm (op - x y)) (op * (app Norm.norm x) (app Norm.norm y)))"},
		{"μ Aᶜ = 1", "(op = (app μ (post ᶜ A)) 1)"},
		{"a = b = c", "?{a = b = c}"},
		{"x +", "?{x +}"},
		{"", "?{}"},
		{"(", "?{(}"},
	}
	for _, tc := range tests {
		got := ParseTerm(tc.src, nil).String()
		if got != tc.want {
			t.Errorf("ParseTerm(%q)\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

func TestParseTermNotation(t *testing.T) {
	ops := func(s string) (Operator, bool) {
		switch s {
		case "∣ₘ":
			return Operator{Infix, 50}, true
		case "⊗ₘ":
			return Operator{Infixl, 70}, true
		case "ℝ≥0", "ℝ≥0∞", "ℕ+", "ℤ[i]", "⊤ₘ", "⊤", "π":
			return Operator{Fixity: Nullary}, true
		}
		return Operator{}, false
	}
	for _, tc := range []struct{ src, want string }{
		{"m ∣ₘ p → m = 1", "(op → (op ∣ₘ m p) (op = m 1))"},
		{"a ⊗ₘ b + c", "(op + (op ⊗ₘ a b) c)"},
		{"a ∣ b", "(op ∣ a b)"},
		// a notation that is one token: its pieces read as one identifier,
		// the longest first
		{"ℝ≥0", "ℝ≥0"},
		{"ℝ≥0∞", "ℝ≥0∞"},
		{"Set ℝ≥0∞", "(app Set ℝ≥0∞)"},
		{"(x : ℝ≥0) ≤ 1", "(op ≤ (as x ℝ≥0) 1)"},
		{"x ∈ (⊤ₘ)", "(op ∈ x ⊤ₘ)"},
		{"f ℕ+ ℤ[i]", "(app f ℕ+ ℤ[i])"},
		{"ℝ ≥ 0", "(op ≥ ℝ 0)"}, // not adjacent: not the token
		{"x≥0", "(op ≥ x 0)"},
		{"ℝ≥01", "(op ≥ ℝ 01)"}, // the scanner's 01 is not the token's 0
		// one symbol that is a notation alone is an atom; an identifier is
		// read as it is
		{"Ideal.span s = ⊤", "(op = (app Ideal.span s) ⊤)"},
		{"π x", "(app π x)"},
	} {
		if got := ParseTerm(tc.src, ops).String(); got != tc.want {
			t.Errorf("ParseTerm(%q)\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// TestParseTermPositions checks that every node's offsets delimit its text.
func TestParseTermPositions(t *testing.T) {
	src := "∀ n : ℕ, 0 < n → (n - 1 : ℤ) + ↑n ≥ |(2 : ℤ)| ∧ Nat.Prime (n !)"
	root := ParseTerm(src, nil)
	var walk func(x *Term)
	walk = func(x *Term) {
		if x == nil {
			return
		}
		if x.Start < 0 || x.End > len(src) || x.Start > x.End {
			t.Fatalf("node %s has range [%d,%d)", x, x.Start, x.End)
		}
		if (x.Kind == TermIdent || x.Kind == TermNum) && strings.Trim(src[x.Start:x.End], "()") != x.Text {
			t.Errorf("node %q spans %q", x.Text, src[x.Start:x.End])
		}
		for _, a := range x.Args {
			if a.Start < x.Start || a.End > x.End {
				t.Errorf("child %s [%d,%d) outside parent %s [%d,%d)", a, a.Start, a.End, x, x.Start, x.End)
			}
			walk(a)
		}
	}
	if root.Kind == TermUnsupported {
		t.Fatalf("unsupported: %s", root)
	}
	walk(root)
}

func FuzzParseTerm(f *testing.F) {
	for _, s := range []string{"a + b * c", "∀ x ∈ s, p x", "∑ i in range n, f i", "(· + 1)", "|x|", "a ≡ b [MOD n]",
		"{x : ℕ | x < 3}", "if h : c then a else b", "n ! = 2", "⟨a, b⟩.1", "↑↑x", "fun ⟨a, b⟩ => a", "(((", "∃! x, x = 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm := ParseTerm(s, nil)
		if tm == nil {
			t.Fatal("nil term")
		}
		_ = tm.String()
		if strings.Count(s, "(") > 10000 {
			t.Skip()
		}
	})
}

func TestParseHeader(t *testing.T) {
	src := "(n : ℕ) {m k : ℤ} [Fact (1 < n)] (h : n ∣ m) : n ≤ m"
	bs, typ, ok := ParseHeader(src, nil)
	if !ok {
		t.Fatal("not parsed")
	}
	var got []string
	for _, b := range bs {
		got = append(got, string(b.Bracket)+strings.Join(b.Names, ",")+":"+src[b.Type.Start:b.Type.End])
	}
	want := "(n:ℕ {m,k:ℤ [:Fact (1 < n) (h:n ∣ m"
	if strings.Join(got, " ") != want || typ.String() != "(op ≤ n m)" {
		t.Errorf("got %q, %s", strings.Join(got, " "), typ)
	}
	ops := func(s string) (Operator, bool) { return Operator{Fixity: Nullary}, s == "ℝ≥0" }
	if bs, typ, ok := ParseHeader("(a b : ℝ≥0) (h : 0 < a) : a ≤ b", ops); !ok || len(bs) != 2 || bs[0].Type.String() != "ℝ≥0" || typ.String() != "(op ≤ a b)" {
		t.Errorf("a notation token in a binder: %v %v %v", bs, typ, ok)
	}
	arrows := func(s string) (Operator, bool) {
		return Operator{Fixity: Infixr, Prec: 25}, s == "≃o" || s == "→+*"
	}
	for src, want := range map[string]string{"(f : ℝ ≃o ℝ) : f = f": "(op ≃o ℝ ℝ)", "(f : ℝ →+* ℂ) : f = f": "(op →+* ℝ ℂ)"} {
		if bs, _, ok := ParseHeader(src, arrows); !ok || len(bs) != 1 || bs[0].Type.String() != want {
			t.Errorf("an operator of symbol and identifier pieces: %s: %v %v", src, bs, ok)
		}
	}
	if bs, _, ok := ParseHeader("(f : ℝ ≃o ℝ) : f = f", nil); !ok || bs[0].Type.String() == "(op ≃o ℝ ℝ)" {
		t.Errorf("≃o without the workspace's operators: %v %v", bs, ok)
	}
	if bs, typ, ok := ParseHeader("(x : ∫ y, y) : ∫ x, f x < 1", nil); !ok || len(bs) != 1 || bs[0].Type.Kind != TermUnsupported || typ.Kind != TermUnsupported || typ.Text != "∫ x, f x < 1" {
		t.Errorf("unsupported parts: %v %v %v", bs, typ, ok)
	}
	for _, bad := range []string{"n : ℕ", "(n : ℕ", "(n : ℕ) x"} {
		if _, _, ok := ParseHeader(bad, nil); ok {
			t.Errorf("ParseHeader(%q) accepted", bad)
		}
	}
}

func TestGroupNames(t *testing.T) {
	src := " {G H : Type*} (x y : ℕ) [Monoid G] [inst : Mul H] ⦃α⦄ : True"
	bs, _, ok := ParseHeader(src, nil)
	if !ok {
		t.Fatal("not parsed")
	}
	var got []string
	for _, b := range bs {
		names, typ := GroupNames(b, src)
		got = append(got, fmt.Sprintf("%c%v:%s", b.Bracket, names, typ))
	}
	want := "{[G H]:Type* ([x y]:ℕ [[]:Monoid G [[inst]:Mul H ⦃[α]:"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
}
