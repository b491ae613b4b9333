package main

import (
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestWalkTopics reads both shapes of topic list: nested "topic: Name"
// mappings and title records with decl / decls / statement.
func TestWalkTopics(t *testing.T) {
	src := `
Linear algebra:
  Fundamentals:
    vector space: 'Module'
    orthogonality: 'https://en.wikipedia.org/wiki/Dual_space'
  Matrices:
    determinant: 'Matrix.det'
1:
  title  : Fundamental Theorem of Algebra
  decl   : Complex.exists_root
  authors: someone
2:
  title: Quadratic Reciprocity
  decls:
    - legendreSym.quadratic_reciprocity
    - jacobiSym.quadratic_reciprocity
3:
  title: Fermat's Last Theorem
  statement: FermatLastTheorem
4:
  title: Not formalized
`
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	walkTopics(&doc, func(topic string, names []string) {
		got = append(got, topic+" → "+strings.Join(names, ","))
	})
	want := []string{
		"vector space → Module",
		"orthogonality → https://en.wikipedia.org/wiki/Dual_space",
		"determinant → Matrix.det",
		"Fundamental Theorem of Algebra → Complex.exists_root",
		"Quadratic Reciprocity → legendreSym.quadratic_reciprocity,jacobiSym.quadratic_reciprocity",
		"Fermat's Last Theorem → FermatLastTheorem",
		"Not formalized → ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("walkTopics:\n got %q\nwant %q", got, want)
	}
}
