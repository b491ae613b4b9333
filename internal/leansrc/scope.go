package leansrc

import "strings"

// SplitLast splits "A.B.c" into "A.B" and "c", ignoring dots inside «».
func SplitLast(name string) (string, string) {
	depth := 0
	for i := len(name) - 1; i >= 0; i-- {
		switch name[i] {
		case 0xbb: // last byte of »
			if i > 0 && name[i-1] == 0xc2 {
				depth++
			}
		case 0xab: // last byte of «
			if i > 0 && name[i-1] == 0xc2 {
				depth--
			}
		case '.':
			if depth == 0 {
				return name[:i], name[i+1:]
			}
		}
	}
	return "", name
}

// JoinName returns the name last inside namespace pre ("" for the root).
func JoinName(pre, last string) string {
	if pre == "" {
		return last
	}
	return pre + "." + last
}

// restricted reports whether sc opens none of the names of namespace ns:
// every occurrence of ns in Opens is a Restricted one.
func (sc *Scope) restricted(ns string) bool {
	n := 0
	for _, r := range sc.Restricted {
		if r == ns {
			n++
		}
	}
	for _, o := range sc.Opens {
		if o == ns {
			n--
		}
	}
	return n >= 0
}

// OpensNotation reports whether the scoped notation of namespace ns is in
// force in sc: inside ns, or with ns opened (scoped or not).
func (sc *Scope) OpensNotation(ns string) bool {
	if sc == nil {
		return false
	}
	if sc.Namespace == ns || strings.HasPrefix(sc.Namespace, ns+".") {
		return true
	}
	for _, o := range sc.Opens {
		if o == ns {
			return true
		}
	}
	return false
}

// enclosing calls try with the namespaces around an identifier written in
// scope sc inside the declaration named self, until try returns true, and
// reports whether it did: self's own namespaces, innermost first, then sc's
// namespace and its parents when self is not inside it.
func (sc *Scope) enclosing(self string, try func(ns string) bool) bool {
	prefix, _ := SplitLast(self)
	for ns := prefix; ns != ""; ns, _ = SplitLast(ns) {
		if try(ns) {
			return true
		}
	}
	if sc != nil && !(sc.Namespace == "" || prefix == sc.Namespace || strings.HasPrefix(prefix, sc.Namespace+".")) {
		for ns := sc.Namespace; ns != ""; ns, _ = SplitLast(ns) {
			if try(ns) {
				return true
			}
		}
	}
	return false
}

// EachNamespace calls try with each namespace ("" for the root) in which
// an identifier written in scope sc inside the declaration named self is
// looked up, in the order the library resolves it to one full name, until
// try returns true, and reports whether it did: the enclosing namespaces
// (self's, innermost first, then sc's), the root, then the opened
// namespaces, the last opened first. With names, the namespaces opened for
// notation or some names only (Restricted) are left out, as Lean does;
// without, they count (the library's over-approximation). sc may be nil.
func (sc *Scope) EachNamespace(self string, names bool, try func(ns string) bool) bool {
	if sc.enclosing(self, try) || try("") {
		return true
	}
	if sc != nil {
		for i := len(sc.Opens) - 1; i >= 0; i-- {
			if names && sc.restricted(sc.Opens[i]) {
				continue
			}
			if try(sc.Opens[i]) {
				return true
			}
		}
	}
	return false
}

// Alias returns the full name id stands for through sc's Aliases (its
// first component aliased), if any.
func (sc *Scope) Alias(id string) (string, bool) {
	if sc == nil {
		return "", false
	}
	head, rest, dotted := strings.Cut(id, ".")
	full, ok := sc.Aliases[head]
	if ok && dotted {
		full += "." + rest
	}
	return full, ok
}

// Candidates returns every full name id may denote when written in scope
// sc inside the declaration named self, in the order the name check and
// the falsifier weigh them (Lean itself tries them all): the enclosing
// namespaces, the namespaces whose names are open in the order opened, an
// alias, and the root last.
func (sc *Scope) Candidates(id, self string) []string {
	var out []string
	add := func(ns string) bool {
		out = append(out, JoinName(ns, id))
		return false
	}
	sc.enclosing(self, add)
	if sc != nil {
		for _, o := range sc.Opens {
			if !sc.restricted(o) {
				add(o)
			}
		}
	}
	if full, ok := sc.Alias(id); ok {
		out = append(out, full)
	}
	return append(out, id)
}
