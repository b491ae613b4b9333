package leansrc

// Comments returns every comment of src in order, with the scanner's rules
// (nested block comments, strings and character literals skipped): doc
// comments as TokDoc, module docs as TokModDoc and ordinary -- and /- -/
// comments as TokComment. A token's BOL says whether only white space
// precedes it on its line.
func Comments(src []byte) []Token {
	s := &scanner{src: src, bol: true, comments: true}
	for s.pos < len(src) {
		s.next()
	}
	out := s.toks[:0]
	for _, t := range s.toks {
		if t.Kind == TokComment || t.Kind == TokDoc || t.Kind == TokModDoc {
			out = append(out, t)
		}
	}
	return out
}

// IdentRune reports whether r may appear in a Lean identifier (after its
// first character): ASCII letters and digits, _ ' ! ?, letter-like symbols
// and subscripts.
func IdentRune(r rune) bool { return isIDRest(r) }

// IdentStart reports whether r may start a Lean identifier.
func IdentStart(r rune) bool { return isIDFirst(r) }

// keywords are Lean's reserved words, which no declaration may be named.
var keywords = map[string]bool{
	"theorem": true, "lemma": true, "def": true, "example": true, "fun": true, "let": true, "have": true,
	"show": true, "from": true, "by": true, "do": true, "then": true, "else": true, "if": true, "match": true,
	"with": true, "at": true, "in": true, "end": true, "namespace": true, "section": true, "open": true,
	"import": true, "where": true, "instance": true, "class": true, "structure": true, "forall": true,
	"exists": true, "Type": true, "Prop": true, "Sort": true, "sorry": true, "calc": true, "mut": true,
	"abbrev": true, "inductive": true, "axiom": true, "opaque": true, "variable": true, "universe": true,
}

// IsKeyword reports whether s is a reserved word of Lean.
func IsKeyword(s string) bool { return keywords[s] }
