package app

import (
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/settings"
)

// TestPipelineParamsTimeBudget: the settings' time budget reaches the
// pipeline (45 s by default; 0 turns it off).
func TestPipelineParamsTimeBudget(t *testing.T) {
	s := settings.Default()
	if got := PipelineParams(s).TimeBudget; got != 45*time.Second {
		t.Errorf("default time budget %s", got)
	}
	s.Pipeline.TimeBudgetSeconds = 0
	if got := PipelineParams(s).TimeBudget; got != 0 {
		t.Errorf("time budget off: %s", got)
	}
}
