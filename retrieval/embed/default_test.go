package embed

import (
	"strings"
	"testing"
)

func TestDefaultDegradesWithWarning(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{ModelsDir: empty}, "dense search disabled"},
		{Config{ModelsDir: empty, Provider: "use-lite"}, "ONNX Runtime library not found"},
		{Config{ModelsDir: empty, Provider: "bert"}, "no model directory"},
		{Config{ModelsDir: empty, Provider: "bogus"}, "unknown embedding provider"},
		{Config{ModelsDir: empty, Provider: "openai"}, "no model configured"},
	}
	for _, tc := range tests {
		e, warn := Default(tc.cfg)
		if e != nil {
			t.Errorf("%+v: got embedder %s, want nil", tc.cfg, e.Name())
		}
		if !strings.Contains(warn, tc.want) || !strings.Contains(warn, "lexical") {
			t.Errorf("%+v: warning %q, want it to mention %q and the lexical fallback", tc.cfg, warn, tc.want)
		}
	}
	if e, warn := Default(Config{ModelsDir: empty, Provider: "none"}); e != nil || warn != "" {
		t.Errorf("provider none: %v %q", e, warn)
	}
	e, warn := Default(Config{ModelsDir: empty, Provider: "openai", Model: "m", BaseURL: "http://127.0.0.1:1"})
	if e == nil || warn != "" || e.Name() != "openai:m" {
		t.Errorf("openai provider: %v %q", e, warn)
	}
}

func TestDefaultPicksBundled(t *testing.T) {
	needModel(t, "use-lite")
	e, warn := Default(Config{ModelsDir: ModelsDir()})
	if e == nil {
		t.Fatalf("no embedder: %s", warn)
	}
	if warn != "" {
		t.Errorf("unexpected warning %q", warn)
	}
	if e.Name() != "use-lite-int8" && e.Name() != "use-lite" {
		t.Errorf("picked %s", e.Name())
	}
	e2, warn := Default(Config{ModelsDir: ModelsDir(), Provider: "bert", ModelDir: t.TempDir()})
	if e2 == nil || !strings.Contains(warn, "using bundled model") {
		t.Errorf("bad bert dir: %v %q, want fallback to bundled with warning", e2, warn)
	}
}
