package drift

import (
	"fmt"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// RepairNames rewrites every unknown name of stub that the library has
// under one namespace the model left out — Mm.Even for Even, Nat.Prime for
// Prime — token by token with internal/leansrc's lexer, so that a name is
// only replaced where it occurs as a whole identifier. It replaces a name
// only when the library leaves no choice: exactly one of the name check's
// suggestions is the name under a single namespace and usable (nil accepts
// all; the pipeline passes the rule that a statement names definitions,
// types and fields, not theorems, aliases or instances). Anything else —
// look-alikes (Rel for Re), several namespaces (log: Real.log, Nat.log,
// CFC.log …), deeper ones (InverseSystem.PEquivOn.nat for nat) — would turn
// an honest failure into a stub that passes the name check and means
// something else; such names stay unknown, with their suggestions. It needs
// no model. It returns the new stub and one note per replacement, or stub
// unchanged and no notes when nothing could be replaced.
func RepairNames(stub string, unknown []string, suggestions map[string][]string, usable func(name string) bool) (string, []string) {
	to := map[string]string{}
	var notes []string
	for _, u := range unknown {
		if _, done := to[u]; done {
			continue
		}
		var only []string
		for _, s := range suggestions[u] {
			ns, ok := strings.CutSuffix(s, "."+u)
			if ok && ns != "" && !strings.Contains(ns, ".") && (usable == nil || usable(s)) {
				only = append(only, s)
			}
		}
		if len(only) != 1 {
			to[u] = ""
			continue
		}
		to[u] = only[0]
		notes = append(notes, fmt.Sprintf("replaced the unknown name %s by %s (the library's only name for it in a namespace)", u, only[0]))
	}
	if len(notes) == 0 {
		return stub, nil
	}
	toks, _ := leansrc.Scan([]byte(stub))
	var b strings.Builder
	last := 0
	for _, t := range toks {
		if t.Kind != leansrc.TokIdent {
			continue
		}
		if repl := to[stub[t.Start:t.End]]; repl != "" {
			b.WriteString(stub[last:t.Start])
			b.WriteString(repl)
			last = int(t.End)
		}
	}
	b.WriteString(stub[last:])
	return b.String(), notes
}
