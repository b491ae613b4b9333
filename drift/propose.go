package drift

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
)

// proposeSystem is the direct-dependency instruction of the DDR paper.
const proposeSystem = `You are an expert in Lean 4 and its mathematical library. Given an informal mathematical statement, list the full names of the library declarations (definitions, structures, classes, inductive types, notations' underlying constants) that a Lean 4 formal STATEMENT of it would use. Do not list theorems needed for a proof, and do not invent names: list only names you are confident exist.

Answer with JSON only, in exactly this form: {"dependency": ["Nat.Prime", "Finset.sum"]}
If the statement needs no library declarations, answer {"dependency": []}.`

// proposeExample is a worked example for the DDR prompt.
const (
	proposeExampleQ = `Statement: If $G$ is a finite group and $H$ a subgroup of $G$, then the order of $H$ divides the order of $G$.`
	proposeExampleA = `{"dependency": ["Group", "Subgroup", "Nat.card", "Finite"]}`
)

func proposeMessages(statement string) []llm.Message {
	return []llm.Message{
		{Role: "system", Content: proposeSystem},
		{Role: "user", Content: proposeExampleQ},
		{Role: "assistant", Content: proposeExampleA},
		{Role: "user", Content: "Statement: " + strings.TrimSpace(statement)},
	}
}

// ErrNoDependencyList means a Propose answer was prose rather than a list.
var ErrNoDependencyList = errors.New(`the answer is neither {"dependency": [...]} JSON nor a list of names`)

var (
	fenceRE    = regexp.MustCompile("(?s)```[a-zA-Z0-9]*\\s*\n?(.*?)```")
	listItemRE = regexp.MustCompile(`^\s*(?:[-*•]|\d+[.)])\s*`)
)

// maxProposed bounds how many names one answer may propose.
const maxProposed = 64

// ParseDependencies reads a Propose answer leniently: JSON
// {"dependency": [...]} (also inside a code fence, with a string instead of a
// list, or with trailing prose), a bare list of names (one per line or comma
// separated, bullets and quotes allowed), or "No usage" (no names). Prose
// yields ErrNoDependencyList.
func ParseDependencies(text string) ([]string, error) {
	body := strings.TrimSpace(text)
	if m := fenceRE.FindStringSubmatch(body); m != nil {
		body = strings.TrimSpace(m[1])
	}
	if i := strings.Index(body, "{"); i >= 0 {
		if j := strings.LastIndex(body, "}"); j > i {
			var v struct {
				Dependency json.RawMessage `json:"dependency"`
				Deps       json.RawMessage `json:"dependencies"`
			}
			if json.Unmarshal([]byte(body[i:j+1]), &v) == nil {
				raw := v.Dependency
				if raw == nil {
					raw = v.Deps
				}
				if raw != nil {
					return namesFromJSON(raw)
				}
			}
		}
	}
	if strings.Contains(strings.ToLower(body), "no usage") {
		return nil, nil
	}
	if strings.HasPrefix(body, "[") {
		if names, err := namesFromJSON(json.RawMessage(body)); err == nil {
			return names, nil
		}
	}
	return bareNames(body)
}

func namesFromJSON(raw json.RawMessage) ([]string, error) {
	var list []any
	if err := json.Unmarshal(raw, &list); err != nil {
		var one string
		if json.Unmarshal(raw, &one) != nil {
			return nil, ErrNoDependencyList
		}
		if strings.Contains(strings.ToLower(one), "no usage") {
			return nil, nil
		}
		return bareNames(one)
	}
	var names []string
	for _, it := range list {
		s, ok := it.(string)
		if !ok {
			continue
		}
		s = cleanName(s)
		if s != "" && isName(s) {
			names = append(names, s)
		}
	}
	return dedupe(names), nil
}

// bareNames accepts text that is only a list of identifiers.
func bareNames(body string) ([]string, error) {
	var names []string
	for _, line := range strings.Split(body, "\n") {
		line = listItemRE.ReplaceAllString(line, "")
		for _, tok := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' }) {
			tok = cleanName(tok)
			if tok == "" {
				continue
			}
			if !isName(tok) {
				return nil, ErrNoDependencyList
			}
			names = append(names, tok)
		}
	}
	// A run of plain words ("I think you need primes") is prose, not names.
	if len(names) == 0 {
		return nil, ErrNoDependencyList
	}
	formal := 0
	for _, n := range names {
		if strings.ContainsAny(n, "._") || n[0] >= 'A' && n[0] <= 'Z' {
			formal++
		}
	}
	if formal*2 < len(names) {
		return nil, ErrNoDependencyList
	}
	return dedupe(names), nil
}

func cleanName(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "`\"'[]{}()")
	return strings.TrimSpace(s)
}

func dedupe(names []string) []string {
	seen := map[string]bool{}
	out := names[:0]
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	if len(out) > maxProposed {
		out = out[:maxProposed]
	}
	return out
}

// Name-check outcomes.
const (
	NameExact   = "exact"
	NameSuffix  = "suffix"
	NamePartial = "partial"
	NameMissing = "missing"
)

// ProposedName is one name the model proposed and what the name channel made
// of it.
type ProposedName struct {
	Name string `json:"name"`
	// Check is NameExact, NameSuffix, NamePartial or NameMissing.
	Check string `json:"check"`
	// Resolved are the full names it stands for (empty when missing).
	Resolved []string `json:"resolved"`
}

// expandLimit bounds how many full names one suffix or partial match expands
// to.
const expandLimit = 3

// CheckNames verifies proposed names against the name channel (exact, then
// dotted suffix, then partial match, expanded to at most three full names
// each) and returns the checks and the hallucination rate: the share of
// proposed names that match nothing.
func CheckNames(ix leanrepl.Names, proposed []string) ([]ProposedName, float64) {
	out := make([]ProposedName, 0, len(proposed))
	missing := 0
	for _, n := range proposed {
		pn := ProposedName{Name: n}
		switch {
		case ix.Exact(n):
			pn.Check, pn.Resolved = NameExact, []string{n}
		default:
			if s := ix.Suffix(n); len(s) > 0 {
				pn.Check, pn.Resolved = NameSuffix, s[:min(len(s), expandLimit)]
			} else if p := ix.Partial(n, expandLimit); len(p) > 0 && len([]rune(n)) >= 3 {
				pn.Check, pn.Resolved = NamePartial, p
			} else {
				pn.Check, pn.Resolved = NameMissing, []string{}
				missing++
			}
		}
		out = append(out, pn)
	}
	if len(proposed) == 0 {
		return out, 0
	}
	return out, float64(missing) / float64(len(proposed))
}

// isName reports whether s is one Lean name (leansrc's identifier rule); a
// trailing dot, as a sentence leaves it, is allowed.
func isName(s string) bool { return leansrc.IsIdentifier(strings.TrimSuffix(s, ".")) }
