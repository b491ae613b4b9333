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
