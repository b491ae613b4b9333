package retrieval

import (
	"strings"
	"unicode"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
)

// Intent is what a search query asks for, read from its wording; it shapes
// the ranking (a kind prior), it never filters.
type Intent int

// The intents.
const (
	// IntentAny is a query with no cue: a concept or topic.
	IntentAny Intent = iota
	// IntentTheorem asks for a result: a named theorem, an inequality, a
	// formula, a criterion, or a statement ("every prime is …").
	IntentTheorem
	// IntentDefinition asks for a concept: "the X of a Y", a structure noun.
	IntentDefinition
	// IntentName is a Lean identifier (dotted, snake case, camel case).
	IntentName
)

// String names the intent for explanations and tests.
func (i Intent) String() string {
	return [...]string{"any", "theorem", "definition", "name"}[i]
}

// theoremCues are words by which mathematicians name results.
var theoremCues = map[string]bool{
	"theorem": true, "theorems": true, "lemma": true, "lemmas": true, "inequality": true, "inequalities": true,
	"formula": true, "formulas": true, "formulae": true, "criterion": true, "criteria": true, "identity": true,
	"identities": true, "law": true, "laws": true, "conjecture": true, "principle": true, "rule": true,
	"corollary": true, "estimate": true, "bound": true, "test": true, "trick": true, "argument": true,
	"equality": true, "theorema": true, "proposition": true, "property": true, "characterization": true,
	"characterisation": true, "classification": true, "reciprocity": true, "decomposition": true,
}

// statementCues are words that make a query read as a statement.
var statementCues = map[string]bool{
	"is": true, "are": true, "iff": true, "implies": true, "every": true, "exists": true, "then": true,
	"has": true, "have": true, "equals": true, "converges": true, "divides": true, "commutes": true,
}

// structureNouns are nouns that name mathematical structures and
// constructions: a query ending in one asks for a definition.
var structureNouns = map[string]bool{
	"group": true, "groups": true, "ring": true, "rings": true, "field": true, "fields": true, "space": true,
	"spaces": true, "module": true, "modules": true, "algebra": true, "algebras": true, "category": true,
	"functor": true, "ideal": true, "ideals": true, "homomorphism": true, "homomorphisms": true, "morphism": true,
	"map": true, "function": true, "functions": true, "set": true, "sets": true, "sequence": true, "series": true,
	"measure": true, "integral": true, "derivative": true, "polynomial": true, "polynomials": true,
	"matrix": true, "matrices": true, "number": true, "numbers": true, "divisor": true, "multiple": true,
	"order": true, "degree": true, "rank": true, "dimension": true, "norm": true, "basis": true,
	"subgroup": true, "subring": true, "submodule": true, "subspace": true, "quotient": true, "product": true,
	"sum": true, "topology": true, "filter": true, "lattice": true, "monoid": true, "domain": true,
	"extension": true, "closure": true, "interior": true, "boundary": true, "limit": true, "graph": true,
	"manifold": true, "bundle": true, "sheaf": true, "scheme": true, "operator": true, "determinant": true,
	"trace": true, "kernel": true, "image": true, "equivalence": true, "isomorphism": true, "action": true,
	"representation": true, "character": true, "distance": true, "metric": true, "path": true, "loop": true,
	"cover": true, "ultrafilter": true, "valuation": true, "completion": true, "localization": true,
	"localisation": true, "spectrum": true, "eigenvalue": true, "eigenvector": true, "vector": true,
	"tensor": true, "complex": true, "simplex": true, "cone": true, "structure": true, "class": true,
	"type": true, "relation": true, "partition": true, "permutation": true, "cycle": true, "orbit": true,
	"stabilizer": true, "centralizer": true, "normalizer": true, "center": true, "centre": true,
	"coefficient": true, "root": true, "roots": true, "factorial": true, "exponential": true, "logarithm": true,
	"gcd": true, "lcm": true, "totient": true, "cardinality": true, "cardinal": true, "ordinal": true,
}

// DetectIntent reads the intent of a search query.
func DetectIntent(query string) Intent {
	q := strings.TrimSpace(query)
	if q == "" {
		return IntentAny
	}
	if !strings.ContainsAny(q, " \t\n") && looksLikeIdent(q) {
		return IntentName
	}
	if _, ok := statedClaim(q); ok {
		return IntentTheorem // "the fact that …", "a result saying …"
	}
	if _, ok := definedTerm(q); ok {
		return IntentDefinition // "A set is called \emph{small} if …"
	}
	words := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\''
	})
	if len(words) == 0 {
		return IntentAny
	}
	if definesSomething(words) {
		return IntentDefinition // "the entropy of X is defined as …", "we say that …"
	}
	for _, w := range words {
		if theoremCues[strings.TrimSuffix(w, "'s")] {
			return IntentTheorem
		}
	}
	for _, w := range words[1:] {
		if statementCues[w] {
			return IntentTheorem
		}
	}
	last := strings.TrimSuffix(words[len(words)-1], "'s")
	if words[0] == "the" || words[0] == "a" || words[0] == "an" || structureNouns[last] {
		return IntentDefinition
	}
	for _, w := range words[:len(words)-1] {
		if w == "of" && len(words) <= 8 {
			return IntentDefinition
		}
	}
	return IntentAny
}

// definitionCues are the pairs of words by which mathematical prose says
// that it defines something: "we define", "is defined", "is called", "we
// say", "we call".
var definitionCues = map[[2]string]bool{
	{"we", "define"}: true, {"is", "defined"}: true, {"are", "defined"}: true, {"is", "called"}: true,
	{"are", "called"}: true, {"we", "say"}: true, {"we", "call"}: true,
}

// definesSomething reports whether the lower-case words of a query say
// that it defines something (definitionCues).
func definesSomething(words []string) bool {
	for i := 0; i+1 < len(words); i++ {
		if definitionCues[[2]string{words[i], words[i+1]}] {
			return true
		}
	}
	return false
}

// emphasisCommands are LaTeX's commands that emphasize their argument,
// which mathematical writing uses for the term a sentence defines ("a
// set is called \emph{small} if …", "a \textbf{base permutation} is …").
var emphasisCommands = []string{`\emph{`, `\textbf{`, `\textit{`}

// definedTerm returns the term a LaTeX query defines: the words of its
// first emphasized argument (emphasisCommands; math inside it dropped:
// "\emph{\( \alpha \)-structural permutation}" → "structural
// permutation"), when they have terms.
func definedTerm(query string) (string, bool) {
	at, cmd := -1, ""
	for _, c := range emphasisCommands {
		if i := strings.Index(query, c); i >= 0 && (at < 0 || i < at) {
			at, cmd = i, c
		}
	}
	if at < 0 {
		return "", false
	}
	arg, _, ok := lexical.Braced(query[at+len(cmd)-1:])
	if !ok {
		return "", false
	}
	term := strings.Join(strings.Fields(lexical.Prose(arg)), " ")
	if len(lexical.Terms(term)) == 0 {
		return "", false
	}
	return term, true
}

// kindPrior is the factor by which a declaration's kind fits an intent.
func (w *searchWeights) kindPrior(in Intent, k library.Kind) float64 {
	theorem := k == library.KindTheorem
	def := premiseKind(k) == 1 || k == library.KindAbbrev
	switch {
	case k == library.KindInstance:
		return w.Instance
	case k == library.KindNotation:
		return w.Notation
	case k == library.KindField || k == library.KindConstructor:
		return w.FieldCtor
	}
	switch in {
	case IntentTheorem:
		if def {
			return w.DefInTheorem
		}
	case IntentDefinition:
		if theorem {
			return w.TheoremInDef
		}
	case IntentAny:
		if theorem {
			return w.TheoremInAny
		}
	}
	return 1
}

// claimNouns are the nouns by which a query announces the result it asks
// for ("a lemma stating that …", "the fact that …"). Not "proposition",
// "statement" or "assertion": "the proposition that …" is how docstrings
// describe a predicate, a definition (33 of Mathlib's 37 such docstrings).
var claimNouns = map[string]bool{
	"lemma": true, "theorem": true, "result": true, "fact": true, "corollary": true, "proof": true,
}

// claimVerbs are the verbs that introduce the claim after its noun ("a
// result saying …", "a lemma which shows …").
var claimVerbs = map[string]bool{
	"stating": true, "states": true, "saying": true, "says": true, "showing": true, "shows": true,
	"asserting": true, "asserts": true, "establishing": true, "establishes": true, "expressing": true,
	"expresses": true, "proving": true, "proves": true, "claiming": true, "claims": true,
}

// statedClaim returns the claim of a query that announces one — "a lemma
// stating that X", "the theorem that X", "a result saying X", "Lemma: X"
// → X, as written — and false for any other query (or a claim of fewer
// than two words). The announcement only says that a result is asked for
// (the intent reads that from the whole query); its words ("stating",
// "saying", "fact") are in no statement and would match docstrings and
// names that happen to use them.
func statedClaim(query string) (string, bool) {
	// The words of the query with where each ends.
	var words []string
	var ends []int
	for i := 0; i < len(query) && len(words) < 6; {
		for i < len(query) && asciiSpace(query[i]) {
			i++
		}
		j := i
		for j < len(query) && !asciiSpace(query[j]) {
			j++
		}
		if j > i {
			words = append(words, strings.ToLower(query[i:j]))
			ends = append(ends, j)
		}
		i = j
	}
	n := 0 // words of the announcement read so far
	if n < len(words) && (words[n] == "a" || words[n] == "an" || words[n] == "the") {
		n++
	}
	if n == len(words) {
		return "", false
	}
	noun, colon := strings.CutSuffix(words[n], ":")
	if !claimNouns[noun] {
		return "", false
	}
	n++
	if !colon {
		verb := false
		if n+1 < len(words) && (words[n] == "which" || words[n] == "that") && claimVerbs[words[n+1]] {
			n, verb = n+2, true // "a lemma which states …"
		} else if n < len(words) && claimVerbs[words[n]] {
			n, verb = n+1, true // "a lemma stating …"
		}
		switch {
		case n < len(words) && words[n] == "that":
			n++
		case !verb:
			return "", false // "the theorem of Pythagoras": a name, no claim
		}
	}
	claim := strings.TrimSpace(query[ends[n-1]:])
	if len(strings.Fields(claim)) < 2 {
		return "", false
	}
	return claim, true
}

// asciiSpace reports whether c is an ASCII space, tab or line break.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}
