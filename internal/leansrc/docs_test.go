package leansrc

import (
	"reflect"
	"testing"
)

func TestMainEntries(t *testing.T) {
	doc := `# Inner product spaces

Some text with ` + "`not_main`" + `.

## Main results

- ` + "`inner_mul_inner_self_le`" + `: the Cauchy-Schwartz inequality (one of many variants).
- ` + "`norm_inner_eq_norm_iff`" + `: the equality criterion in the
  Cauchy-Schwartz inequality.
* ` + "`Nat.gcd`, `Nat.lcm`" + ` : gcd and lcm
* ` + "`x ∣ y`" + `: an expression, not a name
* ` + "`Foo.bar`" + `

## Main definitions

* ` + "`Module.rank`" + ` - the rank of a module

## Tags

* ` + "`tagged`" + `: not a main declaration
`
	got := MainEntries([]string{doc})
	want := []MainEntry{
		{Section: "main results", Names: []string{"inner_mul_inner_self_le"}, Text: "the Cauchy-Schwartz inequality (one of many variants)."},
		{Section: "main results", Names: []string{"norm_inner_eq_norm_iff"}, Text: "the equality criterion in the Cauchy-Schwartz inequality."},
		{Section: "main results", Names: []string{"Nat.gcd", "Nat.lcm"}, Text: "gcd and lcm"},
		{Section: "main results", Names: []string{"Foo.bar"}},
		{Section: "main definitions", Names: []string{"Module.rank"}, Text: "the rank of a module"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MainEntries:\n got %#v\nwant %#v", got, want)
	}
}

func TestDocstringSignals(t *testing.T) {
	for _, tc := range []struct {
		doc   string
		bold  []string
		first string
		aka   []string
	}{
		{"**Cauchy-Schwarz inequality**: the square of a sum is at most the product.", []string{"Cauchy-Schwarz inequality"},
			"**Cauchy-Schwarz inequality**: the square of a sum is at most the product.", nil},
		{"The greatest common divisor, e.g. of `a.b`. Second sentence.", nil, "The greatest common divisor, e.g. of `a.b`.", nil},
		{"Doob's maximal inequality (also known as Doob's inequality) states that", nil,
			"Doob's maximal inequality (also known as Doob's inequality) states that", []string{"Doob's inequality"}},
		{"The Frobenius number, also known as the **Chicken McNugget Theorem**. x", []string{"Chicken McNugget Theorem"},
			"The Frobenius number, also known as the **Chicken McNugget Theorem**.", []string{"Chicken McNugget Theorem"}},
		{"A map $f.g$ is nice.\n\nMore.", nil, "A map $f.g$ is nice.", nil},
		{"first line\n\nsecond paragraph", nil, "first line", nil},
		{"the `**` operator and **unclosed", nil, "the `**` operator and **unclosed", nil},
	} {
		if got := BoldTerms(tc.doc); !reflect.DeepEqual(got, tc.bold) {
			t.Errorf("BoldTerms(%q) = %q, want %q", tc.doc, got, tc.bold)
		}
		if got := FirstSentence(tc.doc); got != tc.first {
			t.Errorf("FirstSentence(%q) = %q, want %q", tc.doc, got, tc.first)
		}
		if got := AlsoKnownAs(tc.doc); !reflect.DeepEqual(got, tc.aka) {
			t.Errorf("AlsoKnownAs(%q) = %q, want %q", tc.doc, got, tc.aka)
		}
	}
}
