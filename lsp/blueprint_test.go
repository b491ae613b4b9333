package lsp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/fakeeditor"
)

const texURI = "file:///ws/blueprint/src/chapter/one.tex"

const texText = `\chapter{One}
\begin{lemma}[Small]\label{lem:small}\lean{Foo.small}
Every small number is small.
\end{lemma}
\begin{proof}\uses{lem:small}Clear.\end{proof}
Text between nodes.
\begin{theorem*}
\label{thm:big}
Big.
\end{theorem*}
`

// TestBlueprintNodeAction: in a .tex file of the blueprint the code action
// on a node is "Formalize this node", a drift.blueprint command for its
// label; nothing is offered between nodes; the job runs with progress.
func TestBlueprintNodeAction(t *testing.T) {
	b := newScripted()
	e := startDemo(t, b, editorOptions{})
	e.OpenDoc(texURI, texText)
	for anchor, want := range map[string]string{"Every small": "lem:small", "Big.": "thm:big", "thm:big": "thm:big", "Text between": "", "Clear.": ""} {
		var labels []string
		for _, a := range e.codeActions(texURI, e.rangeOf(texURI, anchor)) {
			if a.Title != titleBlueprintNode || a.Command.Command != cmdBlueprint {
				t.Errorf("%s: action %q (%s)", anchor, a.Title, a.Command.Command)
				continue
			}
			var args blueprintArgs
			_ = json.Unmarshal(a.Command.Arguments[0], &args)
			labels = append(labels, args.Label)
		}
		if want == "" && len(labels) != 0 || want != "" && !reflect.DeepEqual(labels, []string{want}) {
			t.Errorf("%s: labels %v, want %q", anchor, labels, want)
		}
	}
	a := e.action(texURI, e.rangeOf(texURI, "Every small"), titleBlueprintNode)
	if err := <-e.Start(a); err != nil {
		t.Fatal(err)
	}
	ends := e.waitEnds("DRIFT: "+titleBlueprintNode, 1)
	if ends[0] != "2 nodes: 1 in Lean, 1 stubbed" {
		t.Errorf("end %q", ends[0])
	}
	if got := b.blueprints; len(got) != 1 || !reflect.DeepEqual(got[0].Only, []string{"lem:small"}) {
		t.Errorf("requests %+v", got)
	}
	e.WaitFor("showMessage", func() bool { return len(e.Messages()) > 0 })
	if !strings.Contains(e.Messages()[0], "/ws/DriftBlueprint.lean") {
		t.Errorf("message %q", e.Messages()[0])
	}
}

// TestBlueprintCommandCancel: "Formalize the blueprint" (drift.blueprint
// without an argument) reports progress and is cancelled by its progress
// token.
func TestBlueprintCommandCancel(t *testing.T) {
	b := newScripted()
	b.gate = make(chan struct{})
	defer close(b.gate)
	e := startDemo(t, b, editorOptions{})
	var a fakeeditor.CodeAction
	a.Title = titleBlueprint
	a.Command.Command = cmdBlueprint
	done := e.Start(a)
	<-b.started
	if msgs := e.progressMessages("DRIFT: " + titleBlueprint); len(msgs) == 0 {
		e.WaitFor("progress", func() bool { return len(e.progressMessages("DRIFT: "+titleBlueprint)) > 0 })
	}
	e.Tell("window/workDoneProgress/cancel", map[string]any{"token": e.tokenOf("DRIFT: " + titleBlueprint)})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if ends := e.waitEnds("DRIFT: "+titleBlueprint, 1); ends[0] != "Cancelled" {
		t.Errorf("end %q", ends[0])
	}
	if got := b.blueprints; len(got) != 1 || len(got[0].Only) != 0 {
		t.Errorf("requests %+v", got)
	}
}
