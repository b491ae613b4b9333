package leanrepl

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
)

// MaxStubBytes is the largest stub the gate accepts.
const MaxStubBytes = 64 << 10

// AllowedAttributes are the attributes a stub may carry; everything else
// (extern, implemented_by, init, macro, …) is rejected.
var AllowedAttributes = map[string]bool{
	"simp": true, "norm_cast": true, "push_cast": true, "ext": true, "gcongr": true, "mono": true,
	"continuity": true, "measurability": true, "fun_prop": true, "to_additive": true, "nolint": true,
}

// GateError explains why the gate rejected a stub: Reason, at byte Offset
// of the trimmed stub (-1 when it concerns the whole stub).
type GateError leansrc.StubError

// Error implements error.
func (e *GateError) Error() string {
	if e.Offset >= 0 {
		return "rejected by the safety gate " + (*leansrc.StubError)(e).Error()
	}
	return "rejected by the safety gate: " + e.Reason
}

func reject(off int, format string, args ...any) error {
	return &GateError{Reason: fmt.Sprintf(format, args...), Offset: off}
}

// rule is the safety policy for one word: why it may not appear in a stub
// and whether it could run code or change the environment anywhere in
// generated text (runsCode) or only breaks the one-declaration shape.
type rule struct {
	why      string
	runsCode bool
}

// forbidden is THE safety policy for words in generated Lean: the gate
// rejects every one of them in a stub, and Screen rejects those that run
// code anywhere in a model's answer.
var forbidden = map[string]rule{
	"def": {"a definition", false}, "abbrev": {"a definition", false}, "instance": {"an instance", true},
	"axiom": {"an axiom", true}, "opaque": {"an opaque constant", true}, "structure": {"a structure", false},
	"class": {"a class", false}, "inductive": {"an inductive type", false}, "open": {"an `open` command", false},
	"import": {"an import", false}, "namespace": {"a namespace", false}, "section": {"a section", false},
	"end": {"an `end` command", false}, "variable": {"a variable command", false}, "universe": {"a universe command", false},
	"set_option": {"set_option", true}, "attribute": {"an attribute command", true}, "macro": {"a macro", true},
	"macro_rules": {"macro_rules", true}, "syntax": {"a syntax declaration", true}, "elab": {"an elaborator", true},
	"elab_rules": {"elab_rules", true}, "notation": {"a notation", true}, "infix": {"a notation", true},
	"infixl": {"a notation", true}, "infixr": {"a notation", true}, "prefix": {"a notation", true},
	"postfix": {"a notation", true}, "initialize": {"an initializer", true}, "builtin_initialize": {"an initializer", true},
	"run_cmd": {"run_cmd", true}, "run_tac": {"run_tac", true}, "run_elab": {"run_elab", true}, "run_meta": {"run_meta", true},
	"unsafe": {"unsafe code", true}, "partial": {"a partial definition", false}, "noncomputable": {"noncomputable", false},
	"mutual": {"a mutual block", false}, "termination_by": {"termination_by", false}, "decreasing_by": {"decreasing_by", false},
	"export": {"an export command", false}, "declare_syntax_cat": {"a syntax category", true}, "by_elab": {"a by_elab term", true},
	"deriving": {"a deriving clause", false}, "where": {"a where clause", false}, "do": {"do-notation", false},
	"omit": {"an omit command", false}, "include": {"an include command", false}, "theorem": {"a second declaration", false},
	"lemma": {"a second declaration", false}, "example": {"a second declaration", false}, "nonrec": {"nonrec", false},
}

// codeAttributes are attributes that make Lean run or link code; Screen
// rejects them anywhere (the gate admits only AllowedAttributes anyway).
var codeAttributes = map[string]bool{"extern": true, "implemented_by": true, "init": true, "builtin_init": true, "export": true}

// Screen rejects Lean text from an untrusted source (a model's answer)
// that holds, anywhere, a construct that could run code or change the
// environment: a hash command (#eval, #print, …), run_cmd and its kin,
// macros, elaborators, syntax and notations, initializers, set_option,
// attribute commands, instances, axioms, unsafe code, or an attribute such
// as extern or implemented_by. Declarations, imports and `open`s are left
// to the gate, which every stub passes before Lean sees it. The error is a
// *GateError.
func Screen(code string) error {
	toks, _ := leansrc.Lex(code)
	for i, t := range toks {
		switch t.Kind {
		case leansrc.LexHash:
			return reject(t.Start, "the command %s", t.Text)
		case leansrc.LexKeyword:
			if r, ok := forbidden[t.Text]; ok && r.runsCode {
				return reject(t.Start, "%s (`%s`) is not allowed in generated Lean", r.why, t.Text)
			}
		}
		if (t.Kind == leansrc.LexIdent || t.Kind == leansrc.LexKeyword) && codeAttributes[t.Text] && i > 0 && (toks[i-1].Text == "@[" || toks[i-1].Text == ",") {
			return reject(t.Start, "the attribute %q is not allowed in generated Lean", t.Text)
		}
	}
	return nil
}

// Stub is a gated stub, parsed: its declaration's keyword, name, binders,
// type and positions (internal/leansrc's, named here so that Gate's
// callers can name what it returns).
type Stub = leansrc.Stub

// Gate checks that stub is exactly one `theorem`, `lemma` or `example` — an
// optional doc comment, attributes from AllowedAttributes, binders and a
// type — whose proof is exactly `sorry` (`:= sorry` or `:= by sorry`). It
// returns the parsed stub, or a *GateError saying why it was rejected.
func Gate(stub string) (*Stub, error) {
	return gate(stub, false)
}

// GateDef is Gate that also takes one `def` whose body is exactly
// `sorry` (`def NAME BINDERS : TYPE := sorry`): a blueprint's definition
// node. Nothing else changes: one declaration, the same forbidden words,
// attributes and binders.
func GateDef(stub string) (*Stub, error) {
	return gate(stub, true)
}

func gate(stub string, defs bool) (*Stub, error) {
	if !utf8.ValidString(stub) {
		return nil, reject(-1, "the stub is not valid UTF-8")
	}
	if len(stub) > MaxStubBytes {
		return nil, reject(-1, "the stub is %d bytes, more than the limit of %d", len(stub), MaxStubBytes)
	}
	text := strings.TrimSpace(stub)
	if text == "" {
		return nil, reject(-1, "the stub is empty")
	}
	for i, r := range text {
		if (r < 0x20 && r != '\n' && r != '\t' && r != '\r') || r == 0x7f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return nil, reject(i, "invisible control character U+%04X", r)
		}
	}
	parse := leansrc.ParseStub
	if defs {
		parse = leansrc.ParseDefStub
	}
	s, err := parse(text, gateRules{})
	var se *leansrc.StubError
	if errors.As(err, &se) {
		return nil, reject(se.Offset, "%s", se.Reason)
	}
	return s, err
}

// gateRules is the gate's policy, consulted by leansrc.ParseStub.
type gateRules struct{}

// Lexeme rejects forbidden constructs, and a `by` whose block is not just
// `sorry`.
func (gateRules) Lexeme(toks []leansrc.Lexeme, i int) error {
	if err := forbiddenToken(&toks[i]); err != nil {
		return err
	}
	if t := toks[i]; t.Kind == leansrc.LexKeyword && t.Text == "by" && !(i+1 < len(toks) && toks[i+1].Kind == leansrc.LexKeyword && toks[i+1].Text == "sorry") {
		return reject(t.Start, "a tactic block other than `by sorry` in the statement")
	}
	return nil
}

// Attribute admits only AllowedAttributes, never local or scoped ones.
func (gateRules) Attribute(toks []leansrc.Lexeme, i int) error {
	t := toks[i]
	if t.Kind == leansrc.LexKeyword && (t.Text == "local" || t.Text == "scoped") {
		return reject(t.Start, "%s attributes are not allowed in a stub", t.Text)
	}
	if t.Kind != leansrc.LexIdent || !AllowedAttributes[t.Text] {
		return reject(t.Start, "the attribute %q is not allowed in a stub (allowed: %s)", t.Text, allowedList())
	}
	return nil
}

// AttributeArg admits names, strings, numbers and simple punctuation only.
func (gateRules) AttributeArg(toks []leansrc.Lexeme, i int) error {
	t := &toks[i]
	if err := forbiddenToken(t); err != nil {
		return err
	}
	switch t.Kind {
	case leansrc.LexIdent, leansrc.LexString, leansrc.LexNumber, leansrc.LexSymbol:
		return nil
	}
	return reject(t.Start, "unexpected %q in attribute arguments", t.Text)
}

// Proof admits exactly `sorry` or `by sorry`, and nothing after it.
func (gateRules) Proof(s *Stub, toks []leansrc.Lexeme, i int) error {
	if i < len(toks) && toks[i].Kind == leansrc.LexKeyword && toks[i].Text == "by" {
		i++
	}
	if i >= len(toks) || toks[i].Kind != leansrc.LexKeyword || toks[i].Text != "sorry" {
		where := len(s.Text)
		if i < len(toks) {
			where = toks[i].Start
		}
		return reject(where, "the proof must be exactly `sorry` (`:= sorry` or `:= by sorry`)")
	}
	if i++; i < len(toks) {
		t := &toks[i]
		var ge *GateError
		if err := forbiddenToken(t); errors.As(err, &ge) {
			return reject(t.Start, "text after the declaration: %s", ge.Reason)
		}
		return reject(t.Start, "text after the declaration: %q", textcut.Cut(s.Text[t.Start:], 40))
	}
	return nil
}

// forbiddenToken rejects commands and constructs that must not reach Lean.
func forbiddenToken(t *leansrc.Lexeme) error {
	switch t.Kind {
	case leansrc.LexHash:
		return reject(t.Start, "the command %s", t.Text)
	case leansrc.LexDoc:
		return reject(t.Start, "a doc comment in the middle of the stub (a second declaration?)")
	case leansrc.LexBacktick:
		return reject(t.Start, "a name literal or syntax quotation")
	case leansrc.LexKeyword:
		if r, bad := forbidden[t.Text]; bad {
			return reject(t.Start, "%s (`%s`) is not allowed in a stub", r.why, t.Text)
		}
	case leansrc.LexSymbol:
		switch t.Text {
		case "@[":
			return reject(t.Start, "attributes inside the statement")
		case "%[":
			return reject(t.Start, "unexpected %q", t.Text)
		}
	}
	return nil
}

func allowedList() string {
	names := []string{"simp", "norm_cast", "push_cast", "ext", "gcongr", "mono", "continuity", "measurability", "fun_prop", "to_additive", "nolint"}
	return strings.Join(names, ", ")
}
