package coverage

import "slices"

// Notation is a relation a statement names in words that Lean writes with
// a symbol of its core notation.
type Notation struct {
	Word string // the statement's word, in lower case ("divides")
	Lean string // how Lean writes it ("a ∣ b")
}

// wordNotations are the symbols of Lean's core notation that state a
// relation a statement says in words, with those words (singular, lower
// case): a ∣ b says that a divides b, that b is divisible by a or a
// multiple of a, and that a is a divisor or a factor of b. A stub that
// writes the symbol covers a concept named by one of the words, and the
// Formalize prompt tells the model the symbol for them (Notations).
var wordNotations = []struct {
	symbol, lean string
	words        []string
}{
	{"∣", "a ∣ b (the symbol ∣, not |)", []string{"divide", "divisible", "divisor", "multiple", "factor"}},
}

// Notations returns the relations statement names in words that Lean
// writes with a symbol, each symbol once, in the order the statement
// first names them.
func Notations(statement string) []Notation {
	var out []Notation
	done := map[string]bool{}
	for _, w := range proseWords(statement) {
		for _, n := range wordNotations {
			if !done[n.symbol] && slices.Contains(n.words, singular(w.text)) {
				done[n.symbol] = true
				out = append(out, Notation{Word: w.text, Lean: n.lean})
			}
		}
	}
	return out
}
