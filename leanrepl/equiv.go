package leanrepl

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
)

// ErrNoLean is returned by operations that need Lean when the checker has
// no Pool.
var ErrNoLean = errors.New("Lean is not available")

// Direction is one half of an equivalence check: proving one statement with
// the other as a hypothesis.
type Direction struct {
	// Command is what was sent to Lean.
	Command string
	// Proved is true when `exact?` closed the goal.
	Proved bool
	// Proof is the proof `exact?` found ("exact h …").
	Proof string
	// Messages are Lean's messages.
	Messages []Message
}

// Equivalence is the result of the BEq-style check that each statement
// proves the other.
type Equivalence struct {
	Equivalent bool
	// AtoB proves B from A, BtoA proves A from B.
	AtoB, BtoA Direction
}

// Equivalent checks, without a language model, whether stubs a and b state
// the same thing: each must be provable from the other by `exact?` (the BEq
// paper's symbolic check, which had 100% precision there). Both stubs must
// pass the gate. It needs Lean (ErrNoLean otherwise).
func (c *Checker) Equivalent(ctx context.Context, header, a, b string) (*Equivalence, error) {
	if c.cfg.Pool == nil {
		return nil, fmt.Errorf("%w: %s", ErrNoLean, c.cfg.NoLean)
	}
	sa, err := Gate(a)
	if err != nil {
		return nil, fmt.Errorf("first statement: %w", err)
	}
	sb, err := Gate(b)
	if err != nil {
		return nil, fmt.Errorf("second statement: %w", err)
	}
	res := &Equivalence{AtoB: Direction{Command: EquivCommand(sa, sb)}, BtoA: Direction{Command: EquivCommand(sb, sa)}}
	err = c.cfg.Pool.Session(ctx, header, func(s *Session) error {
		for _, d := range []*Direction{&res.AtoB, &res.BtoA} {
			resp, err := s.Command(ctx, d.Command)
			if err != nil {
				return err
			}
			d.Messages = resp.Messages
			d.Proved, d.Proof = exactSucceeded(resp)
			if !d.Proved {
				break
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.Equivalent = res.AtoB.Proved && res.BtoA.Proved
	return res, nil
}

// EquivCommand builds the Lean command that proves `to` from `from`: an
// example with to's binders and, as one more hypothesis, from's statement
// universally closed over its own binders; the proof is `exact?`, which
// tries the hypothesis (and the library) by solve_by_elim.
func EquivCommand(from, to *Stub) string {
	var b strings.Builder
	b.WriteString("example")
	for _, bd := range to.Binders {
		b.WriteByte(' ')
		b.WriteString(binderText(bd))
	}
	b.WriteString(" (drift_h : ")
	if len(from.Binders) > 0 {
		b.WriteString("∀")
		for _, bd := range from.Binders {
			b.WriteByte(' ')
			b.WriteString(binderText(bd))
		}
		b.WriteString(", ")
	}
	b.WriteString(from.Type)
	b.WriteString(") : ")
	b.WriteString(to.Type)
	b.WriteString(" := by exact?")
	return b.String()
}

// binderText prints a binder for a ∀ or a signature: without a default
// value (a default argument would change the statement) and with Mathlib's
// `Type*` replaced by `Type _`, which works in any binder position.
func binderText(bd leansrc.StubBinder) string {
	names := strings.Join(bd.Names, " ")
	typ := strings.ReplaceAll(strings.ReplaceAll(bd.Type, "Type*", "Type _"), "Sort*", "Sort _")
	open, closer := bd.Bracket, leansrc.Closer(bd.Bracket)
	if open == "" {
		open, closer = "(", ")"
	}
	switch {
	case names == "":
		return open + typ + closer
	case typ == "":
		return open + names + closer
	}
	return open + names + " : " + typ + closer
}

// exactSucceeded reads `exact?`'s verdict from a response: success is no
// error and a "Try this:" suggestion.
func exactSucceeded(r *Response) (bool, string) {
	proof := ""
	for _, m := range r.Messages {
		if m.Severity == "error" {
			return false, ""
		}
		if i := strings.Index(m.Data, "Try this:"); i >= 0 {
			p := strings.TrimSpace(m.Data[i+len("Try this:"):])
			p = strings.TrimSpace(strings.TrimPrefix(p, "[apply]"))
			proof = p
		}
	}
	return proof != "", proof
}

// Collapse groups candidate stubs into classes of equivalent statements, in
// order of first appearance; stubs the gate rejects form classes of their
// own. It needs Lean.
func (c *Checker) Collapse(ctx context.Context, header string, stubs []string) ([][]int, error) {
	if c.cfg.Pool == nil {
		return nil, fmt.Errorf("%w: %s", ErrNoLean, c.cfg.NoLean)
	}
	var classes [][]int
	for i, s := range stubs {
		placed := false
		if _, err := Gate(s); err == nil {
			for k, cl := range classes {
				rep := stubs[cl[0]]
				if _, err := Gate(rep); err != nil {
					continue
				}
				eq, err := c.Equivalent(ctx, header, rep, s)
				if err != nil {
					return nil, err
				}
				if eq.Equivalent {
					classes[k] = append(classes[k], i)
					placed = true
					break
				}
			}
		}
		if !placed {
			classes = append(classes, []int{i})
		}
	}
	return classes, nil
}
