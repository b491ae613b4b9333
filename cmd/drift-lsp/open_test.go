package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandWarnsOfInvalidSettings: a command prints each invalid value
// of the environment, naming the variable and the value, and runs with the
// default.
func TestCommandWarnsOfInvalidSettings(t *testing.T) {
	ws, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workspace"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ELAN_HOME", filepath.Join(ws, ".no-elan"))
	t.Setenv("DRIFT_EMBED_PROVIDER", "magic")
	t.Setenv("DRIFT_REPL_TIMEOUT", "-5")
	var out, errb bytes.Buffer
	if rc := dispatch([]string{"search", "--json", "--cache", "", "--root", ws, "prime"}, &out, &errb); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errb.String())
	}
	for _, want := range []string{
		`drift-lsp: warning: DRIFT_EMBED_PROVIDER="magic" is not one of auto, use-lite, bert, openai, none; using auto`,
		`drift-lsp: warning: DRIFT_REPL_TIMEOUT="-5" is not a whole number from 1 to 3600; using the default`,
	} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb.String())
		}
	}
}
