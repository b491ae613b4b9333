package drift

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/llm"
	"github.com/drift-lsp/drift-lsp/retrieval"
)

// Structured output: with an endpoint that constrains decoding to a JSON
// schema (llama.cpp's server, vLLM, OpenAI), every stage asks for JSON of a
// fixed shape, which even a 0.5B model then cannot break; the parsers accept
// the text formats as well, for servers without it.

// Schemas of the three stages' structured answers. Formalize's binders and
// conclusion admit no backslash and no dollar sign: LaTeX is not Lean, and a
// small model that copies the statement's LaTeX into a JSON string meets
// llama.cpp's HTTP 500 "does not match the expected peg-native format" (see
// llm's outputUnparsed); the price is Lean's set difference `s \ t`, which
// a model can write `s ∩ tᶜ` or `sdiff s t`. Decompose's guessed Lean forms
// stay free: with the same pattern the 0.5B model completed 21 of 50
// decompositions instead of 45 on the same problems.
var (
	decomposeSchema = &llm.Schema{Name: "decomposition", JSON: json.RawMessage(`{"type":"object","properties":{"queries":{"type":"array","minItems":1,"maxItems":4,"items":{"type":"object","properties":{"sentence":{"type":"string","maxLength":200},"lean":{"type":"string","maxLength":100}},"required":["sentence","lean"],"additionalProperties":false}}},"required":["queries"],"additionalProperties":false}`)}
	proposeSchema   = &llm.Schema{Name: "dependencies", JSON: json.RawMessage(`{"type":"object","properties":{"dependency":{"type":"array","maxItems":12,"items":{"type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_.']*$"}}},"required":["dependency"],"additionalProperties":false}`)}
	formalizeSchema = &llm.Schema{Name: "theorem_statement", JSON: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","pattern":"^[A-Za-z_][A-Za-z0-9_.']*$"},"binders":{"type":"array","maxItems":10,"items":{"type":"string","pattern":"^[({\\[⦃][^\\\\$]*[)}\\]⦄]$"}},"conclusion":{"type":"string","pattern":"^[^\\\\$]+$"}},"required":["name","binders","conclusion"],"additionalProperties":false}`)}
)

// structuredStub is the JSON form of a formalization.
type structuredStub struct {
	Name       string   `json:"name"`
	Binders    []string `json:"binders"`
	Conclusion string   `json:"conclusion"`
	// Theorem is a whole statement, which some models give instead.
	Theorem string `json:"theorem"`
}

// jsonObject returns the JSON object an answer holds: the whole text, a
// fenced block, or the span from the first "{" to the last "}".
func jsonObject(text string) (string, bool) {
	body := strings.TrimSpace(text)
	if m := fenceRE.FindStringSubmatch(body); m != nil {
		body = strings.TrimSpace(m[1])
	}
	i, j := strings.Index(body, "{"), strings.LastIndex(body, "}")
	if i < 0 || j < i {
		return "", false
	}
	body = body[i : j+1]
	return body, json.Valid([]byte(body))
}

// stubFromJSON turns a structured Formalize answer into Lean text
// (`theorem NAME BINDERS : CONCLUSION := by sorry`), or reports false when
// the answer is not such JSON.
func stubFromJSON(text string) (string, bool) {
	obj, ok := jsonObject(text)
	if !ok {
		return "", false
	}
	var s structuredStub
	if json.Unmarshal([]byte(obj), &s) != nil {
		return "", false
	}
	if t := strings.TrimSpace(s.Theorem); t != "" && s.Conclusion == "" {
		return t, true
	}
	concl := strings.TrimSpace(s.Conclusion)
	if concl == "" {
		return "", false
	}
	name := strings.TrimSpace(s.Name)
	if name == "" {
		name = "drift_statement"
	}
	var b strings.Builder
	b.WriteString("theorem " + name)
	taken := identifiers(strings.Join(s.Binders, " ") + " " + concl)
	hyp := 0
	for _, bd := range s.Binders {
		bd = strings.TrimSpace(bd)
		if bd == "" {
			continue
		}
		if !strings.ContainsAny(bd[:1], "({[⦃") {
			bd = "(" + bd + ")"
		}
		if inner, ok := strings.CutPrefix(bd, "("); ok && strings.HasSuffix(inner, ")") && isUnnamedHypothesis(inner[:len(inner)-1]) {
			// (x ∈ S), (a ≠ 0): a hypothesis without its name, which small
			// models write as if it were a binder; Lean wants (h : x ∈ S).
			var h string
			for h = ""; h == "" || taken[h]; {
				hyp++
				h = "h" + strconv.Itoa(hyp)
			}
			bd = "(" + h + " : " + inner
		}
		b.WriteString(" " + bd)
	}
	b.WriteString(" : " + concl + " := by sorry")
	return b.String(), true
}

// isUnnamedHypothesis reports whether the inside of an explicit binder is a
// proposition with no name: it has no colon outside brackets (so it is not
// "x y : T") and is not a list of names ("x y", whose types Lean infers).
func isUnnamedHypothesis(inner string) bool {
	toks, errs := leansrc.Scan([]byte(inner))
	if len(errs) > 0 || len(toks) == 0 {
		return false
	}
	depth, names := 0, true
	for _, t := range toks {
		text := inner[t.Start:t.End]
		if t.Kind == leansrc.TokSymbol {
			depth += leansrc.BracketDelta(text)
			if text == ":" && depth == 0 {
				return false
			}
		}
		if t.Kind != leansrc.TokIdent {
			names = false
		}
	}
	return !names
}

// identifiers returns the identifiers of a piece of Lean text.
func identifiers(text string) map[string]bool {
	out := map[string]bool{}
	toks, _ := leansrc.Scan([]byte(text))
	for _, t := range toks {
		if t.Kind == leansrc.TokIdent {
			out[text[t.Start:t.End]] = true
		}
	}
	return out
}

// ParseFormalizeAnswer normalises a Formalize answer, structured (JSON with
// name, binders and conclusion) or text (a ```lean block), to one stub; see
// NormalizeStub.
func ParseFormalizeAnswer(answer, name string) (*Normalized, error) {
	if code, ok := stubFromJSON(answer); ok {
		st, err := NormalizeStub("```lean\n"+code+"\n```", name)
		if err != nil {
			return nil, fmt.Errorf("structured answer: %w", err)
		}
		return st, nil
	}
	return NormalizeStub(answer, name)
}

// subQueriesFromJSON reads a structured Decompose answer.
func subQueriesFromJSON(text string) ([]retrieval.SubQuery, bool) {
	obj, ok := jsonObject(text)
	if !ok {
		return nil, false
	}
	var v struct {
		Queries []struct {
			Sentence string `json:"sentence"`
			Lean     string `json:"lean"`
		} `json:"queries"`
	}
	if json.Unmarshal([]byte(obj), &v) != nil || v.Queries == nil {
		return nil, false
	}
	var subs []retrieval.SubQuery
	for _, q := range v.Queries {
		subs = append(subs, retrieval.SubQuery{Informal: strings.TrimSpace(q.Sentence), Formal: strings.TrimSpace(strings.Trim(strings.TrimSpace(q.Lean), "`$"))})
	}
	return subs, true
}
