package llmtest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/drift-lsp/drift-lsp/llm"
)

// StageOf recognises which drift stage (an llm.Stage constant) a request's prompt belongs to, from
// the wording of drift's prompts; "" when none.
func StageOf(req Request) string {
	p := req.Prompt()
	switch {
	case strings.Contains(p, "Decompose this statement"):
		return llm.StageDecompose
	case strings.Contains(p, `{"dependency"`):
		return llm.StagePropose
	case strings.Contains(p, "## Failing statement"):
		return llm.StageRepair
	case strings.Contains(p, "## Informal statement"):
		return llm.StageFormalize
	case strings.Contains(p, "Describe the given Lean declaration"):
		return llm.StageInformalize
	case strings.Contains(p, "Restate this Lean theorem statement"):
		return llm.StageBackTranslate
	}
	return ""
}

// concept is one notion of testdata/workspace that the rule-based model
// recognises in a statement.
type concept struct {
	keys     []string // lower-case phrases that signal it
	sentence string
	lean     string
	name     string
}

var concepts = []concept{
	{[]string{"prime"}, "A natural number p is prime: it is at least 2 and its only divisors are 1 and p.", "Mm.Prime p", "Mm.Prime"},
	{[]string{"odd"}, "A natural number n is odd: it has the form 2 * k + 1.", "Mm.Odd n", "Mm.Odd"},
	{[]string{"even"}, "A natural number n is even: it is the sum of a number with itself.", "Mm.Even n", "Mm.Even"},
	{[]string{"greatest common divisor", "gcd"}, "The greatest common divisor of two natural numbers a and b.", "Mm.gcd a b", "Mm.gcd"},
	{[]string{"least common multiple", "lcm"}, "The least common multiple of two natural numbers a and b.", "Mm.lcm a b", "Mm.lcm"},
	{[]string{"coprime", "relatively prime"}, "Two natural numbers a and b are coprime: their greatest common divisor is 1.", "Mm.Coprime a b", "Mm.Coprime"},
	{[]string{"divides", "divisor", "divisible", "factor"}, "A natural number a divides a natural number b: b = a * c for some c.", "a ∣ₘ b", "Minimath.Divides"},
	{[]string{"congruent", "modulo", " mod "}, "Two natural numbers a and b are congruent modulo n: they leave the same remainder.", "Mm.ModEq n a b", "Mm.ModEq"},
	{[]string{"totient"}, "Euler's totient of n: how many k < n are coprime to n.", "Mm.φ n", "Mm.φ"},
	{[]string{"monoid"}, "M is a monoid: a type with an associative multiplication and an identity.", "[Mm.Monoid M]", "Mm.Monoid"},
	{[]string{"group"}, "G is a group: a monoid in which every element has an inverse.", "[Mm.Group G]", "Mm.Group"},
	{[]string{"product of", "products"}, "The product of a list of elements of a monoid.", "Mm.prod l", "Mm.prod"},
	{[]string{"lattice", "supremum", "infimum"}, "α is a lattice: a partial order with binary suprema and infima.", "[Mm.Lattice α]", "Mm.Lattice"},
	{[]string{"monotone"}, "A function f between preorders is monotone: a ≤ b implies f a ≤ f b.", "Mm.Monotone f", "Mm.Monotone"},
	{[]string{"upper bound"}, "b is an upper bound of the set s.", "Mm.IsUpperBound s b", "Mm.IsUpperBound"},
}

// template is a scripted formalization for a family of statements.
type template struct {
	all  []string // every phrase must occur (lower case)
	stub string   // with NAME for the theorem name
}

var templates = []template{
	{[]string{"prime", "greater than 2", "odd"}, "theorem NAME {p : Nat} (hp : Mm.Prime p) (h : 2 < p) : Mm.Odd p := by sorry"},
	{[]string{"prime", "other than 2", "odd"}, "theorem NAME {p : Nat} (hp : Mm.Prime p) (h : p ≠ 2) : Mm.Odd p := by sorry"},
	{[]string{"greatest common divisor", "distinct prime"}, "theorem NAME {p q : Nat} (hp : Mm.Prime p) (hq : Mm.Prime q) (hne : p ≠ q) : Mm.gcd p q = 1 := by sorry"},
	{[]string{"distinct prime", "coprime"}, "theorem NAME {p q : Nat} (hp : Mm.Prime p) (hq : Mm.Prime q) (hne : p ≠ q) : Mm.Coprime p q := by sorry"},
	{[]string{"prime", "divides the product"}, "theorem NAME {p a b : Nat} (hp : Mm.Prime p) (h : p ∣ₘ a * b) : p ∣ₘ a ∨ p ∣ₘ b := by sorry"},
	{[]string{"monoid", "concatenation", "product"}, "theorem NAME {M : Type} [Mm.Monoid M] (l₁ l₂ : List M) : Mm.prod (l₁ ++ l₂) = Mm.prod l₁ * Mm.prod l₂ := by sorry"},
	{[]string{"lattice", "infimum", "supremum"}, "theorem NAME {α : Type} [Mm.Lattice α] (a b : α) : a ⊓ b ≤ a ⊔ b := by sorry"},
	{[]string{"square", "odd", "odd"}, "theorem NAME {n : Nat} (h : Mm.Odd n) : Mm.Odd (n * n) := by sorry"},
	{[]string{"infinitely many primes"}, "theorem NAME (n : Nat) : ∃ p, n < p ∧ Mm.Prime p := by sorry"},
	{[]string{"at least 2", "prime divisor"}, "theorem NAME {n : Nat} (hn : 2 ≤ n) : ∃ p, Mm.Prime p ∧ p ∣ₘ n := by sorry"},
}

// Workspace returns a rule-based model for the statements of
// testdata/workspace: it recognises the stage from the prompt and answers
// Decompose with \boxed{} sub-queries for the concepts it finds, Propose with
// their full names as {"dependency": [...]}, Formalize with a ```lean block
// (a scripted template when one matches, else a stub assembled from the
// concepts), Informalize with a one-sentence description and the
// back-translation with the concepts and numbers of the stub.
//
// A request with a json_schema response format (structured output), or
// with a grammar (llama.cpp's grammar, vLLM's structured_outputs: drift
// sends Formalize's JSON answer as one), gets the same content as JSON of
// drift's schemas, as a server constraining its decoding to them would
// give.
func Workspace() Responder {
	return func(_ int, req Request) Reply {
		structured := req.ResponseFormat != nil && req.ResponseFormat.Type == "json_schema" || req.Grammar != "" || req.StructuredOutputs != nil
		switch StageOf(req) {
		case llm.StageDecompose:
			return Reply{Text: decomposeAnswer(lastUser(req, "Statement:"), structured)}
		case llm.StagePropose:
			return Reply{Text: proposeAnswer(lastUser(req, "Statement:"), structured)}
		case llm.StageFormalize:
			return Reply{Text: formalizeAnswer(lastUser(req, ""), structured)}
		case llm.StageInformalize:
			return Reply{Text: informalizeAnswer(req.Prompt())}
		case llm.StageRepair:
			return Reply{Text: repairAnswer(req.Prompt())}
		case llm.StageBackTranslate:
			return Reply{Text: backTranslateAnswer(lastUser(req, ""))}
		}
		return Reply{Status: 400, Text: "fake model: unrecognised prompt (not one of drift's stages)"}
	}
}

func lastUser(req Request, marker string) string {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if m := req.Messages[i]; m.Role == "user" {
			if j := strings.LastIndex(m.Content, marker); j >= 0 && marker != "" {
				return strings.TrimSpace(m.Content[j+len(marker):])
			}
			return m.Content
		}
	}
	return ""
}

func found(statement string) []concept {
	s := " " + strings.ToLower(statement) + " "
	type hit struct {
		c   concept
		pos int
	}
	var hits []hit
	for _, c := range concepts {
		best := -1
		for _, k := range c.keys {
			if i := strings.Index(s, k); i >= 0 && (best < 0 || i < best) {
				best = i
			}
		}
		if best >= 0 {
			hits = append(hits, hit{c, best})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].pos < hits[j].pos })
	out := make([]concept, len(hits))
	for i, h := range hits {
		out[i] = h.c
	}
	return out
}

func decomposeAnswer(statement string, structured bool) string {
	cs := found(statement)
	if structured {
		type query struct {
			Sentence string `json:"sentence"`
			Lean     string `json:"lean"`
		}
		qs := []query{{"The type of natural numbers.", "Nat"}}
		if len(cs) > 0 {
			qs = qs[:0]
		}
		for _, c := range cs {
			qs = append(qs, query{c.sentence, c.lean})
		}
		b, _ := json.Marshal(map[string][]query{"queries": qs})
		return string(b)
	}
	if len(cs) == 0 {
		return "The statement is about natural numbers.\n\\boxed{The type of natural numbers. Lean: `Nat`}"
	}
	var b strings.Builder
	b.WriteString("The statement involves these concepts:\n")
	for _, c := range cs {
		fmt.Fprintf(&b, "\\boxed{%s Lean: `%s`}\n", c.sentence, c.lean)
	}
	return b.String()
}

func proposeAnswer(statement string, structured bool) string {
	names := []string{}
	for _, c := range found(statement) {
		names = append(names, c.name)
	}
	b, _ := json.Marshal(map[string][]string{"dependency": names})
	if structured {
		return string(b)
	}
	return "```json\n" + string(b) + "\n```"
}

var (
	nameRE = regexp.MustCompile(`(?m)^## Theorem name\s*\n\s*\n?(.+)$`)
	stmtRE = regexp.MustCompile(`(?s)## Informal statement\s*\n(.*)$`)
)

func formalizeAnswer(prompt string, structured bool) string {
	statement := ""
	if m := stmtRE.FindStringSubmatch(prompt); m != nil {
		statement = strings.TrimSpace(m[1])
	}
	name := ""
	if m := nameRE.FindStringSubmatch(prompt); m != nil {
		name = strings.TrimSpace(m[1])
	}
	if name == "" || strings.HasPrefix(name, "(") {
		name = snakeName(statement)
	}
	low := strings.ToLower(statement)
	stub := ""
	for _, t := range templates {
		ok := true
		for _, k := range t.all {
			ok = ok && strings.Contains(low, k)
		}
		if ok {
			stub = t.stub
			break
		}
	}
	if stub == "" {
		stub = assembled(found(statement))
	}
	stub = strings.Replace(stub, "NAME", name, 1)
	if structured {
		return stubJSON(stub)
	}
	return "Here is the formal statement:\n\n```lean\n" + stub + "\n```\n"
}

// stubJSON splits "theorem NAME BINDERS : CONCLUSION := by sorry" into drift's
// structured form {"name", "binders", "conclusion"}.
func stubJSON(stub string) string {
	rest := strings.TrimSuffix(strings.TrimPrefix(stub, "theorem "), " := by sorry")
	name, rest, _ := strings.Cut(rest, " ")
	var binders []string
	depth, start := 0, -1
	concl := ""
	for i, r := range rest {
		switch {
		case strings.ContainsRune("({[⦃", r):
			if depth == 0 {
				start = i
			}
			depth++
		case strings.ContainsRune(")}]⦄", r):
			depth--
			if depth == 0 && start >= 0 {
				binders = append(binders, rest[start:i+len(string(r))])
				start = -1
			}
		case r == ':' && depth == 0:
			concl = strings.TrimSpace(rest[i+1:])
		}
		if concl != "" {
			break
		}
	}
	// In the schema's order and with no escapes, as a server constrained
	// to drift's grammar writes it (the grammar has no backslash).
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(struct {
		Name       string   `json:"name"`
		Binders    []string `json:"binders"`
		Conclusion string   `json:"conclusion"`
	}{name, append([]string{}, binders...), concl})
	return strings.TrimSpace(b.String())
}

// assembled builds a stub from the predicates found: every concept but the
// last becomes a hypothesis on n, the last the conclusion.
func assembled(cs []concept) string {
	var preds []concept
	for _, c := range cs {
		if strings.HasSuffix(c.lean, " n") || strings.HasSuffix(c.lean, " p") {
			preds = append(preds, c)
		}
	}
	if len(preds) == 0 {
		return "theorem NAME (n : Nat) : n = n := by sorry"
	}
	var b strings.Builder
	b.WriteString("theorem NAME {n : Nat}")
	for i, c := range preds[:len(preds)-1] {
		fmt.Fprintf(&b, " (h%d : %s n)", i+1, c.name)
	}
	fmt.Fprintf(&b, " : %s n := by sorry", preds[len(preds)-1].name)
	return b.String()
}

var stop = map[string]bool{"the": true, "a": true, "an": true, "of": true, "is": true, "every": true, "two": true, "if": true, "then": true, "in": true, "it": true, "their": true, "its": true, "and": true}

func snakeName(statement string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(statement), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !stop[w] && len(words) < 4 {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return "drift_statement"
	}
	if unicode.IsDigit(rune(words[0][0])) {
		words = append([]string{"thm"}, words...)
	}
	return strings.Join(words, "_")
}

func informalizeAnswer(prompt string) string {
	sig := lastLineAfter(prompt, "Declaration:")
	cs := found(sig)
	if len(cs) > 0 {
		return "A statement about " + strings.TrimSuffix(strings.ToLower(cs[0].sentence[:1])+cs[0].sentence[1:], ".") + "."
	}
	return "A declaration of the user's library: " + sig
}

// numeralRE finds the numbers of a stub.
var numeralRE = regexp.MustCompile(`\b[0-9]+\b`)

// backTranslateAnswer restates a stub in words: the concepts it names, in
// order, then the numbers it mentions.
func backTranslateAnswer(stub string) string {
	if _, after, ok := strings.Cut(stub, ":"); ok {
		stub = after
	}
	var words []string
	for _, c := range found(stub) {
		words = append(words, c.keys[0])
	}
	out := "A statement about " + strings.Join(words, " and ")
	if nums := numeralRE.FindAllString(stub, -1); len(nums) > 0 {
		out += ", with the number " + strings.Join(nums, " and ")
	}
	return out + "."
}

func lastLineAfter(s, marker string) string {
	i := strings.LastIndex(s, marker)
	if i < 0 {
		return ""
	}
	rest := strings.TrimSpace(s[i+len(marker):])
	if j := strings.Index(rest, "\n"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

var (
	failingRE = regexp.MustCompile("(?s)## Failing statement[^\n]*\n\n```lean\n(.*?)\n```")
	suggestRE = regexp.MustCompile("(?m)`([^`\\n]+)`.*did you mean: ([^,\n]+)")
)

func repairAnswer(prompt string) string {
	m := failingRE.FindStringSubmatch(prompt)
	if m == nil {
		return "I cannot find the failing statement."
	}
	stub := m[1]
	for _, s := range suggestRE.FindAllStringSubmatch(prompt, -1) {
		stub = strings.ReplaceAll(stub, s[1], strings.TrimSpace(s[2]))
	}
	return "Fixed:\n\n```lean\n" + stub + "\n```\n"
}
