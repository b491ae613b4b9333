package leansrc

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestScanTokens(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // token texts
	}{
		{"ident dotted", "Nat.Prime.two_le x", []string{"Nat.Prime.two_le", "x"}},
		{"guillemets", "Foo.«bar baz».qux", []string{"Foo.«bar baz».qux"}},
		{"subscripts and greek", "α₁ x₂' hε", []string{"α₁", "x₂'", "hε"}},
		{"lambda is not a letter", "λx", []string{"λ", "x"}},
		{"nested comment", "a /- x /- y -/ z -/ b", []string{"a", "b"}},
		{"line comment", "a -- b\nc", []string{"a", "c"}},
		{"string with markers", `a "/- -- \" x" b`, []string{"a", `"/- -- \" x"`, "b"}},
		{"char literals", `'"' '\'' 'a'`, []string{`'"'`, `'\''`, `'a'`}},
		{"image symbol", "f '' s", []string{"f", "''", "s"}},
		{"prime ident", "h' h''", []string{"h'", "h''"}},
		{"assign and arrows", "x := y => z", []string{"x", ":=", "y", "=>", "z"}},
		{"attribute open", "@[simp]", []string{"@[", "simp", "]"}},
		{"name literal", "`foo ``Bar.baz", []string{"`foo", "``Bar.baz"}},
		{"syntax quotation", "`(tactic| theorem x := y) z", []string{"`(tactic| theorem x := y)", "z"}},
		{"raw string", `r#"a "b" -/"# c`, []string{`r#"a "b" -/"#`, "c"}},
		{"interpolated", `s!"{x} -- y" z`, []string{`s!"{x} -- y"`, "z"}},
		{"doc comments kept", "/-- d -/ /-! m -/ /- c -/", []string{"/-- d -/", "/-! m -/"}},
		{"numbers", "0x1F 2.5 10", []string{"0x1F", "2.5", "10"}},
		{"field projection", "h.1", []string{"h", ".", "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, errs := Scan([]byte(tt.src))
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs)
			}
			var got []string
			for _, tk := range toks {
				got = append(got, tt.src[tk.Start:tk.End])
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestScanErrors(t *testing.T) {
	for _, src := range []string{"/- open", `"open`, "`(open", `r#"open`} {
		toks, errs := Scan([]byte(src))
		if len(errs) != 1 {
			t.Errorf("%q: errors %v, want one", src, errs)
		}
		_ = toks
	}
}

func TestScanPositions(t *testing.T) {
	src := "a\r\n  bc\n\tdef"
	toks, _ := Scan([]byte(src))
	want := [][2]int32{{0, 0}, {1, 2}, {2, 1}}
	for i, tk := range toks {
		if tk.Line != want[i][0] || tk.Col != want[i][1] {
			t.Errorf("token %d at %d:%d, want %v", i, tk.Line, tk.Col, want[i])
		}
		if !tk.BOL {
			t.Errorf("token %d not marked BOL", i)
		}
	}
}

func TestUTF16Ranges(t *testing.T) {
	// 𝔽 is outside the BMP (two UTF-16 units); ℕ is one unit, three bytes.
	f := Parse([]byte("def «𝔽ℕ» : Nat := 1"))
	if len(f.Decls) != 1 {
		t.Fatalf("decls: %+v", f.Decls)
	}
	if got := f.Decls[0].Range.End.Character; got != 20 {
		t.Errorf("end character %d, want 20", got)
	}
}

func TestIsIdentifier(t *testing.T) {
	for s, want := range map[string]bool{"Nat.Prime": true, "ℕ": true, "«a b»": true, "a b": false, "": false, "1x": false, "+": false} {
		if got := IsIdentifier(s); got != want {
			t.Errorf("IsIdentifier(%q) = %v", s, got)
		}
	}
}

// TestOddFiles checks the inputs the indexer must survive with a warning.
func TestOddFiles(t *testing.T) {
	const reps = 10 << 20 / 35
	big := bytes.Repeat([]byte("theorem t (n : Nat) : n = n := rfl\n"), reps)
	tests := []struct {
		name  string
		src   []byte
		decls int
		warn  string
	}{
		{"empty", nil, 0, "empty file"},
		{"bom", []byte("\xef\xbb\xbfdef a := 1"), 1, "byte order mark"},
		{"crlf", []byte("def a := 1\r\ndef b := 2\r\n"), 2, "CRLF"},
		{"invalid utf8", []byte("def a := 1\n-- \xff\xfe\ndef b := \"\xc3\"\n"), 2, "invalid UTF-8 (first at line 2)"},
		{"ten megabytes", big, reps, "large file"},
		{"nul bytes", []byte("def a\x00 := 1\x00\x00\ndef b := 2"), 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse(tt.src)
			if len(f.Decls) != tt.decls {
				t.Errorf("%d decls, want %d", len(f.Decls), tt.decls)
			}
			joined := strings.Join(f.Warnings, "; ")
			if tt.warn != "" && !strings.Contains(joined, tt.warn) {
				t.Errorf("warnings %q lack %q", joined, tt.warn)
			}
			for _, d := range f.Decls {
				if !utf8.ValidString(d.Name) || !utf8.ValidString(d.Signature) {
					t.Errorf("invalid UTF-8 in %q", d.Name)
				}
			}
		})
	}
	if f := Parse(make([]byte, MaxFileSize+1)); len(f.Decls) != 0 || !strings.Contains(strings.Join(f.Warnings, ";"), "too large") {
		t.Errorf("oversized file: %v", f.Warnings)
	}
}

func TestCRLFPositions(t *testing.T) {
	lf := Parse([]byte("def a := 1\n\ntheorem b : True := trivial\n"))
	crlf := Parse([]byte("def a := 1\r\n\r\ntheorem b : True := trivial\r\n"))
	crlf.Warnings = nil
	if render(lf) != render(crlf) {
		t.Errorf("CRLF changes the parse:\n%s\nvs\n%s", render(lf), render(crlf))
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{"def a := 1", "/- /- -/", "\"\\", "'", "`(", "«", "r##\"", "@[", "s!\"{"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		toks, _ := Scan(src)
		prev := int32(0)
		for _, tk := range toks {
			if tk.Start < prev || tk.End <= tk.Start || int(tk.End) > len(src) {
				t.Fatalf("bad token %+v (prev end %d, len %d)", tk, prev, len(src))
			}
			prev = tk.End
		}
	})
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"namespace A\ntheorem x : True := trivial\nend A",
		"structure S where\n  a : Nat\n  (b c : Nat)\nderiving Repr",
		"inductive T | a | b (x : T)",
		"@[to_additive foo \"doc\"] theorem mul_x : 1 * 1 = 1 := rfl",
		"open A in\nset_option x true in\ndef f : Nat → Nat\n  | 0 => 1\n  | n+1 => f n",
		"notation:50 a \" ∣ \" b => Dvd.dvd a b",
		"end A.B\nend\nmutual\ndef",
		"alias ⟨a, b⟩ := c\nexport X (y)\nattribute [simp] z",
		"def f := x where\n  g := 1",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		pf := Parse(src)
		for _, d := range pf.Decls {
			if d.Scope < 0 || d.Scope >= len(pf.Scopes) {
				t.Fatalf("decl %q has scope %d of %d", d.Name, d.Scope, len(pf.Scopes))
			}
			if d.Range.End.Line < d.Range.Start.Line {
				t.Fatalf("decl %q has inverted range %+v", d.Name, d.Range)
			}
		}
	})
}

// BenchmarkParse2000 parses a realistic 2,000-line file.
func BenchmarkParse2000(b *testing.B) {
	src := benchSource(2000)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Parse(src)
	}
}

// benchSource builds an n-line file of Mathlib-style declarations.
func benchSource(n int) []byte {
	block := `/-- The sum of the first ` + "`n`" + ` odd numbers. -/
@[simp, to_additive]
theorem Finset.prod_range_succ_comm {β : Type*} [CommMonoid β] (f : ℕ → β) (n : ℕ) :
    (∏ x ∈ Finset.range (n + 1), f x) = f n * ∏ x ∈ Finset.range n, f x := by
  rw [Finset.prod_range_succ, mul_comm]

`
	var b bytes.Buffer
	b.WriteString("import Mathlib.Algebra.BigOperators.Basic\n\nnamespace Bench\nvariable {α : Type*} [Monoid α]\n\n")
	lines := 5
	for lines < n-1 {
		b.WriteString(block)
		lines += strings.Count(block, "\n")
	}
	b.WriteString("end Bench\n")
	return b.Bytes()
}

func TestScanWithComments(t *testing.T) {
	src := "a -- line\nb /- x /- y -/ -/ c /-- d -/ \"-- s\""
	toks, errs := ScanWithComments([]byte(src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, tk := range toks {
		got = append(got, src[tk.Start:tk.End])
	}
	want := []string{"a", "-- line", "b", "/- x /- y -/ -/", "c", "/-- d -/", `"-- s"`}
	if strings.Join(got, "|") != strings.Join(want, "|") || toks[1].Kind != TokComment || toks[3].Kind != TokComment || toks[5].Kind != TokDoc {
		t.Fatalf("got %q", got)
	}
}
