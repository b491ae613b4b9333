package local

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The server's prompt cache outlives it: llama.cpp keeps the processed
// prompt of every slot, and a request that starts with the same tokens as
// a slot's prompt is served that prefix from the cache. drift-lsp saves the
// slots' states to files when it stops the server (llama.cpp's
// /slots/ID?action=save) and loads them into the slots when it starts it
// again (action=restore), so the instructions and worked examples that every
// formalization sends are processed once, not once per drift-lsp process.
// The files hold only token states of earlier prompts; a file that does not
// fit (another model, another llama.cpp) is refused by the server and
// removed.

// promptCacheDir is where the slot states live: Options.PromptCacheDir,
// else under the installation.
func (s *Server) promptCacheDir() string {
	if s.opts.PromptCacheDir != "" {
		return s.opts.PromptCacheDir
	}
	return filepath.Join(s.inst.Dir, "prompt-cache")
}

// slotFile is the file name (in promptCacheDir) of slot i's state for this
// model.
func (s *Server) slotFile(i int) string {
	return fmt.Sprintf("%s-slot%d.bin", s.inst.ModelName(), i)
}

// slotAction asks the running server at url to save or restore slot i.
func slotAction(ctx context.Context, url, action string, i int, file string) (tokens int, err error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	body := strings.NewReader(fmt.Sprintf(`{"filename": %q}`, file))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("%s/slots/%d?action=%s", url, i, action), body)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var out struct {
		Saved    int `json:"n_saved"`
		Restored int `json:"n_restored"`
		Error    *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&out); err != nil {
		return 0, fmt.Errorf("slot %d %s: HTTP %d: %v", i, action, resp.StatusCode, err)
	}
	if resp.StatusCode != http.StatusOK || out.Error != nil {
		msg := ""
		if out.Error != nil {
			msg = out.Error.Message
		}
		return 0, fmt.Errorf("slot %d %s: HTTP %d %s", i, action, resp.StatusCode, msg)
	}
	return out.Saved + out.Restored, nil
}

// restoreSlots loads the saved slot states into the new server p.
func (s *Server) restoreSlots(ctx context.Context, p *process) {
	n, tokens := 0, 0
	for i := range s.opts.Slots {
		file := s.slotFile(i)
		path := filepath.Join(s.promptCacheDir(), file)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		t, err := slotAction(ctx, p.url, "restore", i, file)
		if err != nil {
			s.logf("local model: prompt cache: %v; removing %s", err, path)
			os.Remove(path)
			continue
		}
		n, tokens = n+1, tokens+t
	}
	if n > 0 {
		s.logf("local model: prompt cache: restored %d slot(s), %d tokens", n, tokens)
	}
}

// saveSlots writes the slot states of the running server p (those that
// hold a prompt) for the next start.
func (s *Server) saveSlots(p *process) {
	if err := os.MkdirAll(s.promptCacheDir(), 0o700); err != nil {
		s.logf("local model: prompt cache: %v", err)
		return
	}
	n := 0
	for i := range s.opts.Slots {
		t, err := slotAction(context.Background(), p.url, "save", i, s.slotFile(i))
		switch {
		case err != nil:
			s.logf("local model: prompt cache: %v", err)
			return
		case t == 0:
			// An empty slot: its file (written, with no tokens) restores nothing.
			os.Remove(filepath.Join(s.promptCacheDir(), s.slotFile(i)))
		default:
			n++
		}
	}
	s.logf("local model: prompt cache: saved %d slot(s)", n)
}
