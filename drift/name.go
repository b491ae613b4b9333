package drift

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// The theorem name of a formalization is decided here, once (theoremName):
// the caller's name (Request.Name: a placeholder's, --name) as given; else an
// explicit "name: foo" in the statement, else the model's name, else a few
// words of the statement — each made a valid identifier and unique among
// Request.Taken.

// nameHintRE finds an explicit name in a statement: "(name: foo)" or
// "name: foo" on its own line.
var nameHintRE = regexp.MustCompile(`(?m)(?:^|\()\s*name:\s*([^\s)]+)`)

// stopWords are left out of names derived from a statement.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "is": true, "are": true, "be": true, "that": true,
	"for": true, "every": true, "all": true, "any": true, "each": true, "there": true, "if": true, "then": true,
	"and": true, "or": true, "to": true, "in": true, "on": true, "with": true, "by": true, "its": true,
	"it": true, "which": true, "such": true, "let": true, "show": true, "prove": true, "we": true, "has": true,
	"have": true, "as": true, "at": true, "some": true, "this": true, "form": true, "than": true, "so": true,
}

// ExplicitName returns the name a statement asks for ("name: foo" on its
// own line or "(name: foo)"), made a valid identifier, or "".
func ExplicitName(statement string) string {
	if m := nameHintRE.FindStringSubmatch(statement); m != nil {
		return SanitizeName(m[1])
	}
	return ""
}

// SanitizeName turns s into a valid Lean identifier (dotted components of
// letters, digits, subscripts, _ and '), or returns "" when nothing is left.
func SanitizeName(s string) string {
	var parts []string
	for _, part := range strings.Split(s, ".") {
		if strings.HasPrefix(part, "«") && strings.HasSuffix(part, "»") && leansrc.IsIdentifier(part) {
			parts = append(parts, part)
			continue
		}
		var b strings.Builder
		for _, r := range part {
			switch {
			case unicode.IsLetter(r) || r == '_' || r == '\'' || unicode.IsDigit(r) || leansrc.IsSubScriptAlnum(r):
				b.WriteRune(r)
			case r == '-' || unicode.IsSpace(r):
				b.WriteByte('_')
			}
		}
		p := strings.Trim(b.String(), "_")
		if p == "" {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(p); !leansrc.IsIdentifier(string(r)) {
			p = "thm_" + p
		}
		if leansrc.IsKeyword(p) {
			p += "'"
		}
		if !leansrc.IsIdentifier(p) {
			p = "«" + strings.ReplaceAll(p, "»", "") + "»"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ".")
}

// nameFromStatement makes a name from a few words of a statement.
func nameFromStatement(stmt string) string {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(stmt), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r))
	}) {
		if stopWords[w] || len(w) < 2 || !isASCIIWord(w) {
			continue
		}
		words = append(words, w)
		if len(words) == 4 {
			break
		}
	}
	if len(words) == 0 {
		return "drift_statement"
	}
	return SanitizeName(strings.Join(words, "_"))
}

func isASCIIWord(w string) bool {
	for _, r := range w {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

// DeclaredNames returns the names declared in a Lean file, for
// Request.Taken: each full name and its last component.
func DeclaredNames(text string) []string {
	var out []string
	for _, d := range leansrc.Parse([]byte(text)).Decls {
		if d.Name == "" || d.Anonymous {
			continue
		}
		out = append(out, d.Name)
		if i := strings.LastIndexByte(d.Name, '.'); i >= 0 {
			out = append(out, d.Name[i+1:])
		}
	}
	return out
}

// uniqueName returns name, or name with the first free numeric suffix, so
// that it is not taken.
func uniqueName(name string, taken func(string) bool) string {
	if !taken(name) {
		return name
	}
	for i := 2; ; i++ {
		if n := name + "_" + strconv.Itoa(i); !taken(n) {
			return n
		}
	}
}

// namer decides the theorem name of one request.
type namer struct {
	forced   string // the caller's name, used as given
	fallback string // a name from the statement's words
	taken    func(string) bool
}

// newNamer returns the namer of req. A name is taken when req.Taken lists
// it or inLib (nil: nothing) says the library declares it: the stub goes
// into a file that imports the library, where Lean rejects a second
// `abs_nonneg` ("has already been declared"), which small models write for
// a statement the library already holds.
func newNamer(req Request, statement string, inLib func(string) bool) namer {
	declared := map[string]bool{}
	for _, t := range req.Taken {
		declared[t] = true
	}
	n := namer{forced: req.Name, taken: func(s string) bool { return declared[s] || inLib != nil && inLib(s) }}
	if n.forced == "" {
		n.forced = ExplicitName(statement)
		if n.forced != "" {
			n.forced = uniqueName(n.forced, n.taken)
		}
	}
	n.fallback = uniqueName(nameFromStatement(statement), n.taken)
	return n
}

// name returns the theorem name for a candidate whose model wrote given
// ("" for an example or no name).
func (n namer) name(given string) string {
	if n.forced != "" {
		return n.forced
	}
	if s := SanitizeName(given); s != "" && s != SanitizeName(nameOrAsk("")) {
		return uniqueName(s, n.taken)
	}
	// No name, or the prompt's request for one copied as the name (small
	// models do that).
	return n.fallback
}
