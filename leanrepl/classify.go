package leanrepl

import (
	"regexp"
	"strings"
)

// Class is the coarse kind of a Lean error.
type Class string

// The two classes of RAutoformalizer's error analysis: errors caused by
// names the model invented, and everything else.
const (
	Hallucination Class = "hallucination"
	OtherError    Class = "other"
)

// Classification is what Classify says about one Lean message.
type Classification struct {
	Class Class `json:"class,omitempty"`
	// Category is a finer label: "unknown-identifier", "unknown-constant",
	// "invalid-field", "invalid-dotted-identifier", "not-a-structure",
	// "unknown-namespace", "unknown-attribute", "type-mismatch",
	// "failed-to-synthesize", "syntax", "unsolved-goals", "timeout",
	// "function-expected", "ambiguous", "placeholder", "universe",
	// "kernel", "termination", "other".
	Category string `json:"category,omitempty"`
	// Name is the offending name for hallucinations, when the message
	// carries one.
	Name string `json:"name,omitempty"`
}

type classRule struct {
	prefix   string // lower-case prefix of the message's first line
	contains string // or a lower-case substring of it
	class    Class
	category string
}

// classRules are matched in order against the message, case-insensitively;
// they cover both message styles (Lean ≤ 4.21 "unknown identifier 'x'",
// later "Unknown identifier `x`").
var classRules = []classRule{
	{prefix: "unknown identifier", class: Hallucination, category: "unknown-identifier"},
	{prefix: "unknown constant", class: Hallucination, category: "unknown-constant"},
	{prefix: "unknown declaration", class: Hallucination, category: "unknown-constant"},
	{prefix: "invalid field notation", class: Hallucination, category: "not-a-structure"},
	{prefix: "invalid field", class: Hallucination, category: "invalid-field"},
	{prefix: "invalid dotted identifier", class: Hallucination, category: "invalid-dotted-identifier"},
	{prefix: "invalid projection", class: Hallucination, category: "not-a-structure"},
	{contains: "is not a structure", class: Hallucination, category: "not-a-structure"},
	{prefix: "unknown namespace", class: Hallucination, category: "unknown-namespace"},
	{prefix: "unknown attribute", class: Hallucination, category: "unknown-attribute"},
	{prefix: "unknown universe level", class: OtherError, category: "universe"},
	{prefix: "type mismatch", class: OtherError, category: "type-mismatch"},
	{prefix: "application type mismatch", class: OtherError, category: "type-mismatch"},
	{prefix: "failed to synthesize", class: OtherError, category: "failed-to-synthesize"},
	{prefix: "typeclass instance problem is stuck", class: OtherError, category: "failed-to-synthesize"},
	{prefix: "unexpected token", class: OtherError, category: "syntax"},
	{prefix: "unexpected identifier", class: OtherError, category: "syntax"},
	{prefix: "unexpected end of input", class: OtherError, category: "syntax"},
	{prefix: "expected ", class: OtherError, category: "syntax"},
	{prefix: "unknown tactic", class: OtherError, category: "syntax"},
	{contains: "unknown tactic", class: OtherError, category: "syntax"},
	{prefix: "unsolved goals", class: OtherError, category: "unsolved-goals"},
	{prefix: "(deterministic) timeout", class: OtherError, category: "timeout"},
	{contains: "maximum number of heartbeats", class: OtherError, category: "timeout"},
	{contains: "maximum recursion depth", class: OtherError, category: "timeout"},
	{prefix: "function expected", class: OtherError, category: "function-expected"},
	{prefix: "ambiguous", class: OtherError, category: "ambiguous"},
	{prefix: "don't know how to synthesize", class: OtherError, category: "placeholder"},
	{prefix: "type expected", class: OtherError, category: "type-mismatch"},
	{prefix: "stuck at solving universe constraint", class: OtherError, category: "universe"},
	{prefix: "(kernel)", class: OtherError, category: "kernel"},
	{prefix: "fail to show termination", class: OtherError, category: "termination"},
}

// quoted matches a name in '…' (old style) or `…` (new style) quotes.
var quoted = regexp.MustCompile("['`]([^'`\\s]+)['`]")

// Classify sorts one Lean error message into the hallucination / other
// taxonomy of RAutoformalizer's error analysis, with a finer category and,
// for hallucinations, the offending name.
func Classify(msg string) Classification {
	text := strings.TrimSpace(msg)
	text = strings.TrimPrefix(text, "Lean error:\n")
	first := strings.ToLower(firstLine(text))
	if i := strings.Index(first, ": "); i > 0 && strings.HasPrefix(first, "<input>:") {
		first = first[i+2:]
	}
	for _, r := range classRules {
		if (r.prefix != "" && strings.HasPrefix(first, r.prefix)) || (r.contains != "" && strings.Contains(first, r.contains)) {
			c := Classification{Class: r.class, Category: r.category}
			if r.class == Hallucination {
				c.Name = offendingName(firstLine(text), r.category)
			}
			return c
		}
	}
	return Classification{Class: OtherError, Category: "other"}
}

// offendingName extracts the name a hallucination message is about: for an
// invalid field, the full name the environment lacks.
func offendingName(line, category string) string {
	ms := quoted.FindAllStringSubmatch(line, -1)
	if len(ms) == 0 {
		return ""
	}
	if category == "invalid-field" && len(ms) > 1 {
		return ms[len(ms)-1][1]
	}
	return ms[0][1]
}
