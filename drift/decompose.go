package drift

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// decomposeSystem is the Decompose instruction (DRIFT §3.1): an expert persona,
// the goal of formalizing rather than proving, declarative sentences about
// definitions, structures and type signatures, each in \boxed{…} with a guessed
// Lean form.
const decomposeSystem = `You are an expert in Lean 4 and its mathematical library (Mathlib or the user's own library). Your job is to prepare the FORMALIZATION of a mathematical statement: writing it as a Lean 4 theorem statement. You are not asked to prove it.

Break the statement into the separate mathematical concepts a formal statement needs: the definitions, structures, classes, operations and type signatures involved. For each concept write one query:
- a single declarative sentence (never a question) describing the concept precisely, in words, as a library docstring would;
- followed by "Lean:" and your best guess of its Lean 4 form in backticks.
Wrap every query in \boxed{...}. Write as many queries as there are distinct concepts, usually 2 to 4, at most 4. Do not describe proof steps, and do not restate the whole theorem as one query.`

// decomposeSystemJSON is decomposeSystem for structured output: the same
// queries as JSON objects instead of \boxed{…}.
var decomposeSystemJSON = strings.NewReplacer(
	"- followed by \"Lean:\" and your best guess of its Lean 4 form in backticks.\nWrap every query in \\boxed{...}.",
	"- with your best guess of its Lean 4 form.\nAnswer with JSON: {\"queries\": [{\"sentence\": \"...\", \"lean\": \"...\"}]}.",
).Replace(decomposeSystem)

// decomposeExamples are few-shot worked examples across number theory,
// algebra, analysis, topology and combinatorics. Each Lean form names a real
// Mathlib declaration or notation. The prompt uses the first
// decomposeShots of them, so that it fits a 4k-token context.
var decomposeExamples = []struct{ statement, answer string }{
	{
		statement: `Let $p$ be a prime number with $p \equiv 3 \pmod 4$. Then $p$ is not the sum of two squares of natural numbers.`,
		answer: `\boxed{A natural number p is a prime number. Lean: ` + "`Nat.Prime p`" + `}
\boxed{The remainder of the natural number p on division by 4 is 3. Lean: ` + "`p % 4 = 3`" + `}
\boxed{The sum of the squares of two natural numbers a and b equals p. Lean: ` + "`a ^ 2 + b ^ 2 = p`" + `}`,
	},
	{
		statement: `If $G$ is a finite group and $H$ is a subgroup of $G$, then the order of $H$ divides the order of $G$.`,
		answer: `\boxed{G is a group: a type with an associative multiplication, an identity and inverses. Lean: ` + "`[Group G]`" + `}
\boxed{H is a subgroup of the group G. Lean: ` + "`H : Subgroup G`" + `}
\boxed{The order of a group is the cardinality of its underlying type, a natural number. Lean: ` + "`Nat.card G`" + `}
\boxed{A natural number divides another natural number. Lean: ` + "`Nat.card H ∣ Nat.card G`" + `}`,
	},
	{
		statement: `A continuous function $f : [a, b] \to \mathbb{R}$ on a closed interval attains its maximum.`,
		answer: `\boxed{The closed interval of real numbers between a and b, endpoints included. Lean: ` + "`Set.Icc a b`" + `}
\boxed{A real function f is continuous on a subset of the real numbers. Lean: ` + "`ContinuousOn f (Set.Icc a b)`" + `}
\boxed{A point x of a set s is a maximum of the function f on s. Lean: ` + "`IsMaxOn f (Set.Icc a b) x`" + `}`,
	},
	{
		statement: `The image of a compact set under a continuous map between topological spaces is compact.`,
		answer: `\boxed{X and Y are topological spaces. Lean: ` + "`[TopologicalSpace X] [TopologicalSpace Y]`" + `}
\boxed{A map f from X to Y is continuous. Lean: ` + "`Continuous f`" + `}
\boxed{A subset K of a topological space is compact. Lean: ` + "`IsCompact K`" + `}
\boxed{The image of a set K under a map f. Lean: ` + "`f '' K`" + `}`,
	},
	{
		statement: `For every natural number $n$, the sum of the first $n$ odd numbers is $n^2$.`,
		answer: `\boxed{The finite set of natural numbers less than n. Lean: ` + "`Finset.range n`" + `}
\boxed{The sum of a function over a finite set. Lean: ` + "`∑ i ∈ Finset.range n, (2 * i + 1)`" + `}
\boxed{The square of a natural number n. Lean: ` + "`n ^ 2`" + `}`,
	},
}

// decomposeShots is the number of worked examples in the prompt (about 250
// tokens each).
const decomposeShots = 3

// decomposeMessages builds the Decompose prompt for statement, asking for
// JSON when structured is set and for \boxed{…} queries otherwise.
func decomposeMessages(statement string, structured bool) []llm.Message {
	sys := decomposeSystem
	if structured {
		sys = decomposeSystemJSON
	}
	msgs := []llm.Message{{Role: "system", Content: sys}}
	for _, ex := range decomposeExamples[:decomposeShots] {
		answer := ex.answer
		if structured {
			answer = boxedAsJSON(ex.answer)
		}
		msgs = append(msgs,
			llm.Message{Role: "user", Content: decomposeUser(ex.statement, structured)},
			llm.Message{Role: "assistant", Content: answer})
	}
	return append(msgs, llm.Message{Role: "user", Content: decomposeUser(statement, structured)})
}

func decomposeUser(statement string, structured bool) string {
	if structured {
		return "Decompose this statement into queries for formalization.\n\nStatement: " + strings.TrimSpace(statement)
	}
	return "Decompose this statement into \\boxed{} queries for formalization.\n\nStatement: " + strings.TrimSpace(statement)
}

// boxedAsJSON renders a \boxed{} worked example as the structured answer.
func boxedAsJSON(answer string) string {
	type query struct {
		Sentence string `json:"sentence"`
		Lean     string `json:"lean"`
	}
	var v struct {
		Queries []query `json:"queries"`
	}
	boxes, _ := ParseBoxed(answer)
	for _, b := range boxes {
		sq := ParseSubQuery(b)
		v.Queries = append(v.Queries, query{sq.Informal, sq.Formal})
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// ErrNoBoxed means an answer contained no sub-query: no complete \boxed{…}
// and no structured queries.
var ErrNoBoxed = errors.New(`no sub-queries in the answer (no complete \boxed{…}, no JSON queries)`)

// maxBoxes bounds the boxes ParseBoxed looks at, which also bounds its work
// on hostile input.
const maxBoxes = 64

// ParseBoxed returns the contents of every complete \boxed{…} in text, with
// nested braces balanced and prose around them ignored; empty boxes are
// skipped. An unclosed box is dropped and counted in dropped. At most 64
// boxes are read.
func ParseBoxed(text string) (boxes []string, dropped int) {
	const open = `\boxed{`
	for len(boxes)+dropped < maxBoxes {
		i := strings.Index(text, open)
		if i < 0 {
			return boxes, dropped
		}
		text = text[i+len(open):]
		depth, end := 1, -1
		for j := 0; j < len(text) && end < 0; j++ {
			switch text[j] {
			case '\\':
				// \{ and \} are escaped braces, not structure.
				if j+1 < len(text) && (text[j+1] == '{' || text[j+1] == '}') {
					j++
				}
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					end = j
				}
			}
		}
		if end < 0 {
			// Unbalanced: keep looking for later boxes inside the rest.
			if k := strings.Index(text, open); k >= 0 {
				dropped++
				continue
			}
			return boxes, dropped + 1
		}
		if b := strings.TrimSpace(text[:end]); b != "" {
			boxes = append(boxes, b)
		}
		text = text[end+1:]
	}
	return boxes, dropped
}

// ParseSubQuery splits one box into its sentence and its guessed Lean form
// ("… Lean: `form`"). A box without "Lean:" is all sentence.
func ParseSubQuery(box string) retrieval.SubQuery {
	i := strings.LastIndex(box, "Lean:")
	if i < 0 {
		return retrieval.SubQuery{Informal: strings.TrimSpace(box)}
	}
	formal := strings.TrimSpace(box[i+len("Lean:"):])
	formal = strings.TrimSpace(strings.Trim(formal, "`$"))
	return retrieval.SubQuery{Informal: strings.TrimSpace(box[:i]), Formal: formal}
}

// ParseDecomposition turns a Decompose answer — structured JSON
// {"queries": [{"sentence", "lean"}]} or \boxed{…} text — into sub-queries; it
// returns ErrNoBoxed when there are none, so that the caller can fall back to
// retrieving with the whole statement. Duplicates are removed.
func ParseDecomposition(text string) ([]retrieval.SubQuery, int, error) {
	all, fromJSON := subQueriesFromJSON(text)
	dropped := 0
	if !fromJSON {
		var boxes []string
		boxes, dropped = ParseBoxed(text)
		for _, b := range boxes {
			all = append(all, ParseSubQuery(b))
		}
	}
	seen := map[retrieval.SubQuery]bool{}
	var subs []retrieval.SubQuery
	for _, sq := range all {
		if sq.Informal == "" && sq.Formal == "" || seen[sq] {
			continue
		}
		seen[sq] = true
		subs = append(subs, sq)
	}
	if len(subs) == 0 {
		return nil, dropped, ErrNoBoxed
	}
	return subs, dropped, nil
}
