package coverage

// Notation is a relation a statement names in words that Lean writes with
// a symbol of its core notation.
type Notation struct {
	Word string // the statement's word, in lower case ("divides")
	Lean string // how Lean writes it ("a ∣ b")
}

// wordNotations are the symbols of Lean's core notation that state a
// relation a statement says in words, with those words (singular, lower
// case) and how each reads in Lean, its arguments in order: a ∣ b says
// that a divides b, that b is divisible by a or a multiple of a, and that
// a is a divisor or a factor of b. A stub that writes the symbol covers a
// concept named by one of the words, and the Formalize prompt tells the
// model the reading (Notations): the order of ∣'s arguments is the part a
// small model gets wrong ("n divisible by 6" as n ∣ 6).
var wordNotations = []struct {
	symbol string
	reads  map[string]string
}{
	{"∣", map[string]string{
		"divide":    "a divides b is a ∣ b",
		"divisible": "b is divisible by a is a ∣ b (the divisor first)",
		"multiple":  "b is a multiple of a is a ∣ b (the divisor first)",
		"divisor":   "a is a divisor of b is a ∣ b",
		"factor":    "a is a factor of b is a ∣ b",
	}},
}

// Notations returns the relations statement names in words that Lean
// writes with a symbol, each word once, in the order the statement first
// names them.
func Notations(statement string) []Notation {
	var out []Notation
	done := map[string]bool{}
	for _, w := range proseWords(statement) {
		word := singular(w.text)
		for _, n := range wordNotations {
			if r, ok := n.reads[word]; ok && !done[word] {
				done[word] = true
				out = append(out, Notation{Word: w.text, Lean: r + " (the symbol " + n.symbol + ")"})
			}
		}
	}
	return out
}
