package drift

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm"
)

// formalizeInstruction is the Formalize system prompt (DRIFT §3.4). It is
// the same with and without retrieved context, and the worked example
// follows it, so that every draw of an action starts with the same prefix
// and a server with a prompt cache processes it once; what differs (the
// premises and illustrative theorems, the statement) comes last.
const formalizeInstruction = `You are an expert in Lean 4 and its mathematical library. Translate the informal statement at the end into a Lean 4 theorem STATEMENT that type-checks against the workspace's library.

Rules:
- Write only the statement, no proof: end it with ":= by sorry".
- Use exactly the theorem name given below.
- Be faithful: the same quantifiers, hypotheses and conclusion as the informal statement; explicit binders with types; the right coercions (for example (n : ℝ)) and type-class assumptions ([Group G], [TopologicalSpace X]).
- A question ("Find …", "What is …") is stated with its answer: the quantity it asks for equals the answer (x ^ 2 + y ^ 2 = 146), never a bare number.
- When premises and illustrative theorems are listed, prefer the premises and follow the style of the theorems.
- Do not add imports, options, commands, definitions or helper lemmas.
Answer with a single ` + "```lean" + ` code block containing the theorem.`

// asJSON turns an instruction's answer format into the structured one.
var asJSON = strings.NewReplacer(
	"Answer with a single ```lean code block containing the theorem.",
	`Answer with JSON: {"name": "...", "binders": ["(x : T)", "(h : P x)"], "conclusion": "..."}; the theorem is "theorem NAME BINDERS : CONCLUSION := by sorry".`,
)

// conditionsHeading heads the statement's condition hints.
const conditionsHeading = "## Conditions the statement assumes (state each as a hypothesis)"

// Prompt-size bounds: signatures and docstrings are clipped so that a huge
// declaration cannot blow up the prompt, and the context sections together
// stay under maxContextBytes. The context is the part of a Formalize
// prompt that no other request shares, which a local model reads anew for
// every action (prefill, about 19 tokens a second for the bundled 1.5B
// model on 2 cores; Lean's signatures take about one token for every 2–3
// bytes of UTF-8), so a premise and an illustrative theorem bring their
// docstring's first sentence only, at most maxContextDocChars, and the
// premises past their share of the budget are listed by name only (the
// grammar's vocabulary has them all). 1,500 bytes hold the elementary
// statements' contexts (~1,100) and bound ProofNet's, which were up to
// 3,000 bytes and 1,000 prompt tokens, about 50 s of prefill (docs/pipeline.md,
// "Long statements under the time budget").
const (
	maxSigChars        = 600
	maxDocChars        = 400
	maxContextDocChars = 200
	maxContextBytes    = 1500
)

// formalizeMessages builds the Formalize prompt in the order DRIFT prescribes:
// instruction, premises, illustrative theorems, theorem name, informal
// statement, after the worked examples (examplesFor). With no premises and no theorems the
// context sections are left out (the adaptive no-context draw). structured
// asks for JSON instead of a ```lean block. Premises past their share of
// the context budget are named on one line (at most a sixth of the
// budget), illustrative theorems past it left out. The hints' conditions (conditionHints)
// follow the statement, as the worked example shows them, then the
// notation of the relations it names.
func formalizeMessages(statement, name string, hints statementHints, premises []*library.Decl, theorems []*library.Decl, examples []workedExample, structured bool) []llm.Message {
	var prem, thms strings.Builder
	var named []string
	over := false
	for _, d := range premises {
		var e strings.Builder
		fmt.Fprintf(&e, "- %s\n  %s\n", d.Name, clip(oneLine(d.Signature), maxSigChars))
		if doc := docOf(d); doc != "" {
			fmt.Fprintf(&e, "  -- %s\n", contextDoc(doc))
		}
		if over = over || prem.Len()+e.Len() > maxContextBytes*2/3; over {
			if len(strings.Join(append(named, d.Name), ", ")) <= maxContextBytes/6 {
				named = append(named, d.Name)
			}
			continue
		}
		prem.WriteString(e.String())
	}
	if len(named) > 0 {
		prem.WriteString("- also: " + strings.Join(named, ", ") + "\n")
	}
	shown := 0
	for _, d := range theorems {
		e := fmt.Sprintf("%d. Informal: %s\n   Formal: %s\n", shown+1, contextDoc(docOrName(d)), clip(oneLine(d.Signature), maxSigChars))
		if prem.Len()+thms.Len()+len(e) > maxContextBytes {
			continue
		}
		thms.WriteString(e)
		shown++
	}
	var b strings.Builder
	if prem.Len() > 0 {
		b.WriteString("## Premises (declarations of the workspace's library the statement may use)\n\n" + prem.String() + "\n")
	}
	if thms.Len() > 0 {
		b.WriteString("## Illustrative theorems (how the premises are used)\n\n" + thms.String() + "\n")
	}
	b.WriteString(statementSection(name, statement, hints))
	instr := formalizeInstruction
	if structured {
		instr = asJSON.Replace(instr)
	}
	msgs := []llm.Message{{Role: "system", Content: instr}}
	for _, ex := range examples {
		msgs = append(msgs, ex.messages(structured)...)
	}
	return append(msgs, llm.Message{Role: "user", Content: b.String()})
}

// statementSection is the end of a Formalize request: the theorem's name,
// the informal statement, and the hints of its conditions and notation.
func statementSection(name, statement string, hints statementHints) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Theorem name\n\n%s\n\n## Informal statement\n\n%s\n", name, strings.TrimSpace(statement))
	if len(hints.conditions) > 0 {
		b.WriteString("\n" + conditionsHeading + "\n\n- " + strings.Join(hints.conditions, "\n- ") + "\n")
	}
	if len(hints.notation) > 0 {
		b.WriteString("\n## Notation for the relations the statement names\n\n- " + strings.Join(hints.notation, "\n- ") + "\n")
	}
	return b.String()
}

func docOf(d *library.Decl) string {
	if d.Doc != "" {
		return d.Doc
	}
	return d.Informal
}

func docOrName(d *library.Decl) string {
	if s := docOf(d); s != "" {
		return s
	}
	return d.Name
}

// contextDoc is what a Formalize prompt's context says of a declaration in
// words: its docstring's first sentence, clipped to maxContextDocChars.
func contextDoc(doc string) string {
	return clip(leansrc.FirstSentence(doc), maxContextDocChars)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip cuts s for a prompt or a message by textcut's one rule: at most n
// characters of s, then the mark.
func clip(s string, n int) string { return textcut.Cut(s, n+1) }

// Errors of NormalizeStub; each names a way an answer is unusable.
var (
	ErrNoCode         = errors.New("the answer has no ```lean code block and no theorem")
	ErrNoTheorem      = errors.New("the code has no theorem")
	ErrManyTheorems   = errors.New("the code has more than one declaration")
	ErrForbidden      = errors.New("the code contains a forbidden command") // leanrepl.Screen's verdict
	ErrEmptyStatement = errors.New("the theorem has no statement")
)

var (
	leanFenceRE = regexp.MustCompile("(?s)```[ \t]*(lean4?|)[ \t]*\r?\n(.*?)```")
)

// Normalized is a Formalize answer normalised to one candidate stub:
// exactly one `theorem NAME … := by sorry`, with what normalisation did.
// What the stub's text says is leansrc.Stub's to read (the checker's gate
// parses Text with leansrc.ParseStub).
type Normalized struct {
	// Text is the whole stub.
	Text string
	// Name is the theorem's name.
	Name string
	// Statement is the part between the name and ":=", whitespace-collapsed
	// (used to deduplicate candidates).
	Statement string
	// Opens are `open` lines the model put before the theorem (they belong in
	// the header).
	Opens []string
	// Notes say what normalisation changed (renamed, proof replaced, …).
	Notes []string
	// given is the name the model wrote ("" for an example).
	given string
}

// rename gives the stub another theorem name.
func (st *Normalized) rename(name string) {
	if name == st.Name {
		return
	}
	if st.given != "" {
		st.Notes = append(st.Notes, fmt.Sprintf("renamed %s to %s", st.Name, name))
	}
	st.Text = "theorem " + name + strings.TrimPrefix(st.Text, "theorem "+st.Name)
	st.Name = name
}

// NormalizeStub extracts the ```lean block of a Formalize answer and
// normalises it to exactly one `theorem NAME … := by sorry`: lemma/example
// become theorem, a different name is replaced by name (when name is not
// empty), a proof is replaced by sorry, imports are dropped. Anything that
// could run code (#eval, run_cmd, macro, …), a second declaration, or no
// theorem at all is an error.
func NormalizeStub(answer, name string) (*Normalized, error) {
	code, notes, err := extractCode(answer)
	if err != nil {
		return nil, err
	}
	code = stripComments(code)
	if err := leanrepl.Screen(code); err != nil {
		var ge *leanrepl.GateError
		if errors.As(err, &ge) {
			return nil, fmt.Errorf("%w: %s", ErrForbidden, ge.Reason)
		}
		return nil, fmt.Errorf("%w: %v", ErrForbidden, err)
	}
	st := &Normalized{Notes: notes}
	var decl []string
	count := 0
	for _, line := range strings.Split(code, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			if count > 0 {
				decl = append(decl, line)
			}
			continue
		}
		isTop := len(line) > 0 && !unicode.IsSpace(rune(line[0]))
		cmd := leansrc.CommandWord(trimmed)
		if isTop && headerCommands[cmd] {
			if strings.HasPrefix(trimmed, "open ") {
				st.Opens = append(st.Opens, trimmed)
				st.Notes = append(st.Notes, "moved `"+trimmed+"` to the header")
			} else if !strings.HasPrefix(trimmed, "import ") {
				st.Notes = append(st.Notes, "dropped `"+trimmed+"`")
			}
			if count > 0 {
				return nil, fmt.Errorf("%w: `%s` after the theorem", ErrManyTheorems, trimmed)
			}
			continue
		}
		if isTop {
			if leansrc.IsDeclCommand(cmd) {
				count++
				if count > 1 {
					return nil, ErrManyTheorems
				}
				if !leansrc.IsStubKeyword(cmd) {
					return nil, fmt.Errorf("%w: a %s instead of a theorem", ErrNoTheorem, cmd)
				}
			} else if count == 0 {
				return nil, fmt.Errorf("%w: unexpected `%s`", ErrNoTheorem, clip(trimmed, 40))
			}
		}
		if count > 0 {
			decl = append(decl, line)
		}
	}
	if count == 0 {
		return nil, ErrNoTheorem
	}
	text := strings.TrimSpace(strings.Join(decl, "\n"))
	// Drop attributes and modifiers in front of the keyword.
	kwStart, kwEnd, ok := leansrc.StubKeyword(text)
	if !ok {
		return nil, ErrNoTheorem
	}
	if kwStart > 0 {
		st.Notes = append(st.Notes, "dropped `"+strings.TrimSpace(text[:kwStart])+"`")
	}
	keyword := text[kwStart:kwEnd]
	rest := strings.TrimLeft(text[kwEnd:], " \t\n")
	var given string
	if keyword != "example" {
		given, rest = leansrc.LeadingName(rest)
		if given == "" {
			return nil, fmt.Errorf("%w: the %s has no name", ErrNoTheorem, keyword)
		}
	}
	if keyword != "theorem" {
		st.Notes = append(st.Notes, keyword+" written as theorem")
	}
	st.given = given
	switch {
	case name != "" && given != name:
		if given != "" {
			st.Notes = append(st.Notes, fmt.Sprintf("renamed %s to %s", given, name))
		}
		st.Name = name
	case given != "":
		st.Name = given
	default:
		st.Name = "drift_statement"
	}
	sig, proof, hasProof := leansrc.SplitProof(rest)
	sig = strings.TrimRight(sig, " \t\n")
	if strings.TrimSpace(sig) == "" || !strings.Contains(sig, ":") {
		return nil, ErrEmptyStatement
	}
	p := oneLine(proof)
	if hasProof && p != "sorry" && p != "by sorry" && p != "by\nsorry" {
		st.Notes = append(st.Notes, "replaced the proof by sorry")
	}
	st.Statement = oneLine(sig)
	st.Text = "theorem " + st.Name + " " + strings.TrimLeft(sig, " \t") + " := by sorry"
	return st, nil
}

// extractCode finds the Lean code in an answer: the ```lean block holding a
// declaration (several blocks with declarations are joined so that the
// duplicate is detected), or, with no fence, the text from the first line that
// starts a theorem.
func extractCode(answer string) (string, []string, error) {
	ms := leanFenceRE.FindAllStringSubmatch(answer, -1)
	var blocks []string
	for _, m := range ms {
		if leansrc.IsDeclCommand(leansrc.CommandWord(firstDeclLine(m[2]))) {
			blocks = append(blocks, m[2])
		}
	}
	if len(blocks) > 0 {
		return strings.Join(blocks, "\n"), nil, nil
	}
	if len(ms) > 0 {
		return ms[0][2], nil, nil
	}
	lines := strings.Split(answer, "\n")
	for i, l := range lines {
		if w := leansrc.CommandWord(l); (w == "theorem" || w == "lemma") && strings.HasPrefix(l, w) {
			return strings.Join(lines[i:], "\n"), []string{"the answer had no code block"}, nil
		}
	}
	return "", nil, ErrNoCode
}

func firstDeclLine(code string) string {
	for _, l := range strings.Split(code, "\n") {
		if t := strings.TrimSpace(l); t != "" && !headerCommands[leansrc.CommandWord(t)] && !strings.HasPrefix(t, "--") && !strings.HasPrefix(t, "/-") {
			return t
		}
	}
	return ""
}

// stripComments removes line comments and (nested) block comments,
// docstrings included, keeping line structure; the comments are found by
// leansrc's scanner, so string literals are left alone.
func stripComments(code string) string {
	toks, _ := leansrc.ScanWithComments([]byte(code))
	var b strings.Builder
	last := 0
	for _, t := range toks {
		switch t.Kind {
		case leansrc.TokComment, leansrc.TokDoc, leansrc.TokModDoc:
			b.WriteString(code[last:t.Start])
			b.WriteString(strings.Repeat("\n", strings.Count(code[t.Start:t.End], "\n")))
			last = int(t.End)
		}
	}
	b.WriteString(code[last:])
	return b.String()
}

// headerCommands are header lines that normalisation moves (open) or drops.
var headerCommands = map[string]bool{"import": true, "open": true, "namespace": true, "end": true, "section": true, "variable": true, "universe": true}
