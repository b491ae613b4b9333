package settings

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestFromEnv: each variable of the table sets its field; an invalid value
// keeps the default and is reported naming the variable and the value.
func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		ok   func(Settings) bool
		warn string // part of the one warning, "" for none
	}{
		{"nothing set: the defaults", nil, func(s Settings) bool {
			d := Default()
			return s.Pipeline == d.Pipeline && s.REPL == d.REPL && s.MaxJobs == d.MaxJobs && s.LLM.Retries == -1 &&
				s.Paths.Cache == filepath.Join("/h", ".cache", "drift-lsp") && s.Paths.Elan == filepath.Join("/h", ".elan") &&
				s.LLM.CacheDir == filepath.Join(s.Paths.Cache, "llm") && s.Paths.LocalLLM == filepath.Join(s.Paths.Cache, "local-llm") &&
				s.Paths.Models == filepath.Join(s.Paths.Cache, "models") && s.Cache() == s.Paths.Cache
		}, ""},
		{"strings and lists", map[string]string{"DRIFT_LLM_MODEL": " m ", "DRIFT_ROOTS": "/a" + string(filepath.ListSeparator) + "/b", "DRIFT_CACHE_DIR": "/c", "DRIFT_LLM_MODEL_REPAIR": "big"},
			func(s Settings) bool {
				return s.LLM.Model == "m" && slices.Equal(s.Roots, []string{"/a", "/b"}) && s.Cache() == "/c" && s.LLM.StageModels["repair"] == "big"
			}, ""},
		{"numbers and durations", map[string]string{"DRIFT_REPL_TIMEOUT": "90", "DRIFT_MAX_JOBS": "3", "DRIFT_LLM_TIMEOUT": "7s", "DRIFT_LLM_RETRIES": "0", "DRIFT_EMBED_THREADS": "4"},
			func(s Settings) bool {
				return s.REPL.TimeoutSeconds == 90 && s.MaxJobs == 3 && s.LLM.Timeout == 7*time.Second && s.LLM.Retries == 0 && s.Embedding.Threads == 4
			}, ""},
		{"paths", map[string]string{"XDG_CACHE_HOME": "/x", "ELAN_HOME": "/e", "DRIFT_MODELS": "/m", "DRIFT_LOCAL_LLM_DIR": "/l", "DRIFT_LLM_CACHE": "off"},
			func(s Settings) bool {
				return s.Paths.Cache == filepath.Join("/x", "drift-lsp") && s.Paths.Elan == "/e" && s.Paths.Models == "/m" && s.Paths.LocalLLM == "/l" && s.LLM.CacheDir == ""
			}, ""},
		{"not a number", map[string]string{"DRIFT_MAX_JOBS": "many"}, func(s Settings) bool { return s.MaxJobs == 2 }, `DRIFT_MAX_JOBS="many" is not a whole number from 1 to 16`},
		{"out of range, not clamped silently", map[string]string{"DRIFT_REPL_TIMEOUT": "99999"}, func(s Settings) bool { return s.REPL.TimeoutSeconds == 60 }, `DRIFT_REPL_TIMEOUT="99999"`},
		{"a negative timeout", map[string]string{"DRIFT_LLM_TIMEOUT": "-3s"}, func(s Settings) bool { return s.LLM.Timeout == 0 }, `DRIFT_LLM_TIMEOUT="-3s" is not a positive duration`},
		{"a negative count", map[string]string{"DRIFT_LLM_BUDGET": "-1"}, func(s Settings) bool { return s.LLM.CallBudget == 0 }, `DRIFT_LLM_BUDGET="-1"`},
		{"an unknown provider", map[string]string{"DRIFT_EMBED_PROVIDER": "magic"}, func(s Settings) bool { return s.Embedding.Provider == "auto" }, `DRIFT_EMBED_PROVIDER="magic" is not one of auto, use-lite, bert, openai, none; using auto`},
		{"an unknown word", map[string]string{"DRIFT_LLM_LOCAL": "sometimes"}, func(s Settings) bool { return s.LLM.Local == "auto" }, `DRIFT_LLM_LOCAL="sometimes"`},
		{"case and spaces", map[string]string{"DRIFT_LLM_LOCAL": " OFF ", "DRIFT_LOG_LEVEL": "Debug"}, func(s Settings) bool { return s.LLM.Local == "off" && s.Log.Level == "debug" }, ""},
		{"a bad switch", map[string]string{"DRIFT_LLM_STREAM": "maybe"}, func(s Settings) bool { return !s.LLM.Stream }, `DRIFT_LLM_STREAM="maybe"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"HOME": "/h"}
			for k, v := range tc.env {
				env[k] = v
			}
			s := FromEnv(func(k string) string { return env[k] })
			if !tc.ok(s) {
				t.Errorf("settings %+v", s)
			}
			switch {
			case tc.warn == "" && len(s.Warnings) > 0:
				t.Errorf("warnings %q", s.Warnings)
			case tc.warn != "" && (len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], tc.warn)):
				t.Errorf("warnings %q, want one with %q", s.Warnings, tc.warn)
			}
		})
	}
}

// TestOverlay: the editor's values replace the environment's; an invalid
// one keeps the default and is reported by its setting's name; malformed
// JSON is an error and changes nothing.
func TestOverlay(t *testing.T) {
	base := FromEnv(func(k string) string {
		return map[string]string{"DRIFT_LLM_MODEL": "env-model", "DRIFT_LLM_BASE_URL": "http://env/v1", "MY_KEY": "sk-mine", "OPENAI_API_KEY": "sk-openai"}[k]
	})
	s, err := base.Overlay([]byte(`{"drift": {"llm": {"model": "m2", "apiKeyEnv": "MY_KEY"}, "pipeline": {"k": 500, "samples": 2}, "embedding": {"provider": "BERT"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.LLM.Model != "m2" || s.LLM.BaseURL != "http://env/v1" || s.Pipeline.K != DefaultK || s.Pipeline.Samples != 2 || s.Embedding.Provider != "bert" {
		t.Errorf("overlay %+v", s)
	}
	if len(s.Warnings) != 1 || s.Warnings[0] != "pipeline.k=500 is not a whole number from 1 to 100; using 5" {
		t.Errorf("warnings %q", s.Warnings)
	}
	if len(base.Warnings) != 0 {
		t.Errorf("the base changed: %q", base.Warnings)
	}
	if got := strings.Join(s.Secrets(), ","); got != "sk-mine,sk-openai" || s.APIKey() != "sk-mine" {
		t.Errorf("secrets %q", got)
	}
	if strings.Contains(s.String(), "sk-") {
		t.Errorf("String shows a key: %s", s)
	}
	if _, err := base.Overlay([]byte(`{"maxJobs": "many"}`)); err == nil {
		t.Error("a string accepted as a number")
	}
	if again := s.Normalized(); len(again.Warnings) != 1 {
		t.Errorf("normalizing twice reports twice: %q", again.Warnings)
	}
}

// TestVarsTable: every variable is named once, and every variable of an
// editor's setting names one the JSON knows.
func TestVarsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range Vars {
		if seen[v.Name] {
			t.Errorf("%s twice", v.Name)
		}
		seen[v.Name] = true
		if v.Doc == "" {
			t.Errorf("%s has no description", v.Name)
		}
		if v.Setting != "" && v.set == nil {
			t.Errorf("%s falls back for %s but sets nothing", v.Name, v.Setting)
		}
	}
}
