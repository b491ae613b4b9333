package app

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// TestServerLogsInvalidSettings: the server's log names an invalid value
// of the environment with its variable, and one of the editor's with its
// setting, and the session runs with the defaults.
func TestServerLogsInvalidSettings(t *testing.T) {
	env := map[string]string{"DRIFT_MAX_JOBS": "many", "DRIFT_LOCAL_LLM_DIR": t.TempDir()}
	editor := map[string]any{"local": "sometimes"}
	s := startWith(t, llmtest.Workspace(), env, workspaceDir, filepath.Join("DriftExample", "Demo.lean"), editor)
	want := []string{
		`drift: settings: DRIFT_MAX_JOBS="many" is not a whole number from 1 to 16; using the default`,
		`drift: settings: llm.local="sometimes" is not one of auto, off; using auto`,
	}
	if err := s.Wait(s.ctx, func() bool {
		logs := s.Logs()
		return !slices.ContainsFunc(want, func(w string) bool {
			return !slices.ContainsFunc(logs, func(l string) bool { return strings.Contains(l, w) })
		})
	}); err != nil {
		t.Fatalf("%v: logs %q", err, s.Logs())
	}
}
