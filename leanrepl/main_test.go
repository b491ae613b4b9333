package leanrepl

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// fakeBin is the replfake test double built for this test run ("" if the
// build failed; fakeErr then says why).
var fakeBin, fakeErr = "", error(nil)

// testDir is a temporary directory for the whole test run.
var testDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "leanrepl-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	testDir = dir
	bin := filepath.Join(dir, "replfake")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/drift-lsp/drift-lsp/leanrepl/replfake").CombinedOutput()
	if err != nil {
		fakeErr = fmt.Errorf("building replfake: %v: %s", err, out)
	} else {
		fakeBin = bin
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// needFake returns the test double's path; the test fails when it did not
// build (it is this repository's code, so building it must work).
func needFake(t testing.TB) string {
	t.Helper()
	if fakeBin == "" {
		t.Fatalf("the REPL test double did not build: %v", fakeErr)
	}
	return fakeBin
}
