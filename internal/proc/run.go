package proc

import (
	"bytes"
	"context"
	"os/exec"
)

// Run runs cmd to its end under the package's rules, like exec.Cmd.Run,
// and kills it with everything it started when ctx ends first (then the
// error is ctx's).
func Run(ctx context.Context, cmd *exec.Cmd) error {
	c, err := Start(cmd, 0, nil)
	if err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			c.Kill()
		case <-done:
		}
	}()
	err = c.Wait()
	close(done)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// CombinedOutput is Run returning what the child wrote to its standard
// output and error, interleaved.
func CombinedOutput(ctx context.Context, cmd *exec.Cmd) ([]byte, error) {
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := Run(ctx, cmd)
	return b.Bytes(), err
}
