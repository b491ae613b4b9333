// Package leanrepl checks Lean 4 theorem stubs: a client for the Lean REPL
// (leanprover-community/repl) with a process pool, a safety gate in front of
// it, checks that need no compiler (unknown names, lints), a classifier for
// Lean's messages, the compile-and-repair loop and a BEq-style equivalence
// check.
package leanrepl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
)

// Request is one REPL request; it is one of Command, File, Tactic,
// PickleEnv, PickleProofState, UnpickleEnv or UnpickleProofState.
type Request interface {
	// Kind names the request type ("cmd", "path", "tactic", …) for messages.
	Kind() string
}

// Command elaborates Lean commands, in a fresh environment when Env is nil
// (only then may the text start with `import`) or in environment *Env.
type Command struct {
	Cmd        string `json:"cmd"`
	Env        *int   `json:"env,omitempty"`
	AllTactics bool   `json:"allTactics,omitempty"`
	RootGoals  bool   `json:"rootGoals,omitempty"`
	InfoTree   string `json:"infotree,omitempty"`
}

// File elaborates a whole file, like Command with the file's text.
type File struct {
	Path       string `json:"path"`
	Env        *int   `json:"env,omitempty"`
	AllTactics bool   `json:"allTactics,omitempty"`
}

// Tactic runs one tactic on a proof state from an earlier response.
type Tactic struct {
	Tactic     string `json:"tactic"`
	ProofState int    `json:"proofState"`
}

// PickleEnv writes environment Env to the .olean file PickleTo.
type PickleEnv struct {
	PickleTo string `json:"pickleTo"`
	Env      int    `json:"env"`
}

// PickleProofState writes a proof state to the .olean file PickleTo.
type PickleProofState struct {
	PickleTo   string `json:"pickleTo"`
	ProofState int    `json:"proofState"`
}

// UnpickleEnv reads an environment written by PickleEnv.
type UnpickleEnv struct {
	UnpickleEnvFrom string `json:"unpickleEnvFrom"`
}

// UnpickleProofState reads a proof state written by PickleProofState.
type UnpickleProofState struct {
	UnpickleProofStateFrom string `json:"unpickleProofStateFrom"`
	Env                    *int   `json:"env,omitempty"`
}

// Kind implements Request.
func (Command) Kind() string { return "cmd" }

// Kind implements Request.
func (File) Kind() string { return "path" }

// Kind implements Request.
func (Tactic) Kind() string { return "tactic" }

// Kind implements Request.
func (PickleEnv) Kind() string { return "pickleTo" }

// Kind implements Request.
func (PickleProofState) Kind() string { return "pickleTo" }

// Kind implements Request.
func (UnpickleEnv) Kind() string { return "unpickleEnvFrom" }

// Kind implements Request.
func (UnpickleProofState) Kind() string { return "unpickleProofStateFrom" }

// Int returns a pointer to n, for the optional Env fields.
func Int(n int) *int { return &n }

// Pos is a position in the text of a command as the REPL reports it: Line is
// 1-based, Column is 0-based and counts Unicode code points.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Message is one message Lean printed while elaborating.
type Message struct {
	Severity string `json:"severity"`
	Pos      Pos    `json:"pos"`
	EndPos   *Pos   `json:"endPos,omitempty"`
	Data     string `json:"data"`
}

// Sorry is one `sorry` in elaborated code, with the goal it stands for and a
// proof state that tactic mode can continue from.
type Sorry struct {
	ProofState *int   `json:"proofState,omitempty"`
	Pos        *Pos   `json:"pos,omitempty"`
	Goal       string `json:"goal"`
	EndPos     *Pos   `json:"endPos,omitempty"`
}

// TacticInfo is one tactic reported by a request with AllTactics.
type TacticInfo struct {
	UsedConstants []string `json:"usedConstants"`
	Tactic        string   `json:"tactic"`
	ProofState    int      `json:"proofState"`
	Pos           Pos      `json:"pos"`
	Goals         string   `json:"goals"`
	EndPos        Pos      `json:"endPos"`
}

// Response is one REPL answer. Command answers carry Env; tactic answers
// carry ProofState, Goals and ProofStatus; a failed request carries only
// Message. Fields the REPL leaves out are zero.
type Response struct {
	Env         *int            `json:"env,omitempty"`
	Messages    []Message       `json:"messages,omitempty"`
	Sorries     []Sorry         `json:"sorries,omitempty"`
	Tactics     []TacticInfo    `json:"tactics,omitempty"`
	InfoTree    json.RawMessage `json:"infotree,omitempty"`
	ProofState  *int            `json:"proofState,omitempty"`
	Goals       []string        `json:"goals,omitempty"`
	ProofStatus string          `json:"proofStatus,omitempty"`
	Traces      []string        `json:"traces,omitempty"`
	// Message is the REPL's error text for a failed request.
	Message string `json:"message,omitempty"`
	// Extra keeps fields this client does not know, so that nothing a newer
	// REPL says is lost.
	Extra map[string]json.RawMessage `json:"-"`
}

// responseFields lists the JSON keys Response decodes itself.
var responseFields = map[string]bool{
	"env": true, "messages": true, "sorries": true, "tactics": true, "infotree": true,
	"proofState": true, "goals": true, "proofStatus": true, "traces": true, "message": true,
}

type responseAlias Response

// UnmarshalJSON decodes a response and keeps unknown fields in Extra.
func (r *Response) UnmarshalJSON(b []byte) error {
	var a responseAlias
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	for k, v := range all {
		if !responseFields[k] {
			if a.Extra == nil {
				a.Extra = map[string]json.RawMessage{}
			}
			a.Extra[k] = v
		}
	}
	*r = Response(a)
	return nil
}

// IsTactic reports whether r answers a tactic-mode request.
func (r *Response) IsTactic() bool {
	return r.ProofStatus != "" || (r.ProofState != nil && r.Env == nil)
}

// MarshalJSON encodes r as the REPL would, including an empty goal list in
// tactic answers and any Extra fields.
func (r *Response) MarshalJSON() ([]byte, error) {
	a := responseAlias(*r)
	b, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if r.IsTactic() && r.Goals != nil && len(r.Goals) == 0 {
		m["goals"] = json.RawMessage("[]")
	}
	for k, v := range r.Extra {
		m[k] = v
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(m[k])
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// Errors returns the messages of severity "error".
func (r *Response) Errors() []Message {
	var out []Message
	for _, m := range r.Messages {
		if m.Severity == "error" {
			out = append(out, m)
		}
	}
	return out
}

// ReplError is a request the REPL refused with `{"message": …}`, for example
// "Unknown environment." or a Lean error in tactic mode. The process is
// healthy and stays in use.
type ReplError struct {
	Message string
}

// Error implements error.
func (e *ReplError) Error() string { return "Lean REPL: " + e.Message }

// EncodeRequest returns the bytes that send req: one JSON object on one line,
// followed by the blank line that ends a request.
func EncodeRequest(req Request) ([]byte, error) {
	if req == nil {
		return nil, fmt.Errorf("leanrepl: nil request")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(req); err != nil {
		return nil, fmt.Errorf("leanrepl: encoding %s request: %w", req.Kind(), err)
	}
	// Encode ends the object with "\n"; the blank line ends the request.
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}
