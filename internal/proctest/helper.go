package proctest

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
)

// Helper re-runs this test binary with only test and the environment
// variables env added, its standard error passed through, and returns it
// started, with a scanner over its standard output; the process is killed
// when the test ends. The test recognises its helper run by env.
func Helper(t testing.TB, test string, env ...string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd, bufio.NewScanner(out)
}
