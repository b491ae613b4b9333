package proc

import (
	"os/exec"
	"strings"
	"testing"
)

// TestShell: the platform's shell runs a command line with its own syntax
// (a pipe), as repl.command is run.
func TestShell(t *testing.T) {
	argv := Shell("echo drift| sort")
	out, err := exec.Command(argv[0], argv[1:]...).Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "drift" {
		t.Errorf("%q printed %q", argv, got)
	}
}
