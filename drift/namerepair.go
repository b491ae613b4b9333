package drift

import (
	"fmt"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// RepairNames rewrites every unknown name of stub that the library has
// under a namespace the model left out — a suggestion of the name check
// ending in "."+name, such as Mm.Even for Even — to the first such
// suggestion, token by token with internal/leansrc's lexer, so that a name
// is only replaced where it occurs as a whole identifier. Suggestions that
// are mere look-alikes (Rel for Re) are not used: they would turn an
// honest failure into a stub that passes the name check but means
// something else. Nor are names that usable rejects (nil accepts all): the
// pipeline passes the rule that a statement names definitions, types and
// fields, never a theorem, so the word "constant" does not become the
// theorem PLift.rec.constant. It needs no model. It returns the new stub and
// one note per replacement, or stub unchanged and no notes when nothing
// could be replaced.
func RepairNames(stub string, unknown []string, suggestions map[string][]string, usable func(name string) bool) (string, []string) {
	to := map[string]string{}
	var notes []string
	for _, u := range unknown {
		if to[u] != "" {
			continue
		}
		for _, s := range suggestions[u] {
			if strings.HasSuffix(s, "."+u) && (usable == nil || usable(s)) {
				to[u] = s
				notes = append(notes, fmt.Sprintf("replaced the unknown name %s by %s (the library's name in its namespace)", u, s))
				break
			}
		}
	}
	if len(to) == 0 {
		return stub, nil
	}
	toks, _ := leansrc.Scan([]byte(stub))
	var b strings.Builder
	last := 0
	for _, t := range toks {
		if t.Kind != leansrc.TokIdent {
			continue
		}
		if repl, ok := to[stub[t.Start:t.End]]; ok {
			b.WriteString(stub[last:t.Start])
			b.WriteString(repl)
			last = int(t.End)
		}
	}
	b.WriteString(stub[last:])
	return b.String(), notes
}
