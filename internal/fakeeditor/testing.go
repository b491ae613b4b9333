package fakeeditor

import (
	"context"
	"testing"
	"time"
)

// StepTimeout bounds each step of a Tester.
const StepTimeout = 10 * time.Second

// Tester drives an Editor from a test or benchmark: a step that fails
// fails TB, and each step is bounded by StepTimeout.
type Tester struct {
	*Editor
	TB testing.TB
}

// Step returns the context of one step.
func Step() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), StepTimeout)
}

// Tell sends a notification (an error is logged: the server may be gone).
func (e Tester) Tell(method string, params any) {
	if err := e.Notify(context.Background(), method, params); err != nil {
		e.TB.Logf("notify %s: %v", method, err)
	}
}

// Ask calls method and decodes its answer into result.
func (e Tester) Ask(method string, params, result any) error {
	ctx, cancel := Step()
	defer cancel()
	return e.Call(ctx, method, params, result)
}

// OpenDoc opens a document in the editor and the server.
func (e Tester) OpenDoc(u, text string) {
	e.TB.Helper()
	if err := e.Open(context.Background(), u, text); err != nil {
		e.TB.Fatal(err)
	}
}

// Type replaces the first occurrence of old by new in document u, as a user
// would by typing, and sends an incremental didChange.
func (e Tester) Type(u, old, new string) {
	e.TB.Helper()
	if err := e.Edit(context.Background(), u, old, new); err != nil {
		e.TB.Fatal(err)
	}
}

// TextOf returns the editor's text of document u.
func (e Tester) TextOf(u string) string {
	text, _ := e.Text(u)
	return text
}

// Start executes a code action's command in the background and returns a
// channel with the request's error.
func (e Tester) Start(a CodeAction) <-chan error {
	ch := make(chan error, 1)
	go func() {
		ctx, cancel := Step()
		defer cancel()
		ch <- e.Execute(ctx, a)
	}()
	return ch
}

// WaitFor waits until cond is true, re-checking after every message from
// the server; what names the wait in the failure.
func (e Tester) WaitFor(what string, cond func() bool) {
	e.TB.Helper()
	ctx, cancel := Step()
	defer cancel()
	if err := e.Wait(ctx, cond); err != nil {
		e.TB.Fatalf("timed out waiting for %s; messages %q; progress %+v", what, e.Messages(), e.Progresses(""))
	}
}
