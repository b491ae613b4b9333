package doctor

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// workspace copies testdata/workspace (with its .lake packages) to a
// temporary directory and returns it with the temporary root.
func workspace(t *testing.T) (tmp, ws string) {
	t.Helper()
	tmp = t.TempDir()
	ws = filepath.Join(tmp, "workspace")
	if err := os.CopyFS(ws, os.DirFS(filepath.Join("..", "..", "..", "testdata", "workspace"))); err != nil {
		t.Fatal(err)
	}
	return tmp, ws
}

func write(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// stamp matches what changes from run to run in a stored snapshot's line.
var (
	stamp    = regexp.MustCompile(`\([0-9.]+ (bytes|kB|MB), stored [0-9TZ:-]+;`)
	snapshot = regexp.MustCompile(`library-[0-9a-f]+\.lib`)
)

// TestGolden: the report on testdata/workspace with nothing installed,
// with everything installed (the local model, a toolchain, a REPL, a
// stored index, a package linked to a fork) and with an endpoint; paths are normalised to $TMP.
func TestGolden(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake toolchain and REPL are shell scripts")
	}
	for _, tc := range []struct {
		name     string
		settings string // the editor's
		setup    func(t *testing.T, tmp, ws string) map[string]string
	}{
		{"bare", "", func(t *testing.T, tmp, ws string) map[string]string {
			return map[string]string{"DRIFT_EMBED_PROVIDER": "none"}
		}},
		{"installed", "", func(t *testing.T, tmp, ws string) map[string]string {
			llm := filepath.Join(tmp, "cache", "drift-lsp", "local-llm")
			write(t, filepath.Join(llm, "model"), "tiny-q4.gguf\n", 0o644)
			write(t, filepath.Join(llm, "models", "tiny-q4.gguf"), "GGUF", 0o644)
			write(t, filepath.Join(llm, "venv", "bin", "python"), "#!/bin/sh\n", 0o755)
			tcDir := filepath.Join(tmp, "home", ".elan", "toolchains", "leanprover--lean4---v4.17.0", "bin")
			write(t, filepath.Join(tcDir, "lean"), "#!/bin/sh\n", 0o755)
			write(t, filepath.Join(tcDir, "lake"), "#!/bin/sh\n", 0o755)
			write(t, filepath.Join(ws, ".lake", "build", "bin", "repl"), "#!/bin/sh\n", 0o755)
			// A package that is a link to a local fork.
			pkg := filepath.Join(ws, ".lake", "packages", "minimath")
			fork := filepath.Join(tmp, "forks", "minimath")
			if err := os.MkdirAll(filepath.Dir(fork), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(pkg, fork); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(fork, pkg); err != nil {
				t.Fatal(err)
			}
			// A real stored index, as `drift-lsp index` leaves it.
			w, err := library.Discover(ws, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := library.Load(context.Background(), w, library.Options{CacheDir: filepath.Join(tmp, "cache", "drift-lsp")}); err != nil {
				t.Fatal(err)
			}
			return map[string]string{"DRIFT_EMBED_PROVIDER": "openai", "DRIFT_EMBED_BASE_URL": "http://127.0.0.1:1/v1", "DRIFT_EMBED_MODEL": "embed-small"}
		}},
		{"endpoint", "", func(t *testing.T, tmp, ws string) map[string]string {
			return map[string]string{"DRIFT_LLM_BASE_URL": "http://127.0.0.1:11434/v1", "DRIFT_LLM_MODEL": "qwen2.5-coder:32b",
				"DRIFT_LLM_API_KEY_ENV": "MY_KEY", "DRIFT_EMBED_PROVIDER": "none", "DRIFT_REPL": "lake env repl"}
		}},
		// The editor's settings win over the environment, as in the server.
		{"editor", `{"cacheDir": "/elsewhere/cache", "llm": {"baseUrl": "http://127.0.0.1:9/v1", "model": "m-editor"}, "embedding": {"provider": "none"}}`,
			func(t *testing.T, tmp, ws string) map[string]string {
				return map[string]string{"DRIFT_LLM_BASE_URL": "http://127.0.0.1:11434/v1", "DRIFT_LLM_MODEL": "from-env", "OPENAI_API_KEY": "k"}
			}},
		{"bad editor settings", `{"maxJobs": "many"}`, func(t *testing.T, tmp, ws string) map[string]string {
			return map[string]string{"DRIFT_EMBED_PROVIDER": "none"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmp, ws := workspace(t)
			env := map[string]string{"HOME": filepath.Join(tmp, "home"), "XDG_CACHE_HOME": filepath.Join(tmp, "cache")}
			for k, v := range tc.setup(t, tmp, ws) {
				env[k] = v
			}
			// Nothing from this machine's PATH.
			t.Setenv("PATH", filepath.Join(tmp, "bin"))
			var editor []byte
			if tc.settings != "" {
				editor = []byte(tc.settings)
			}
			r := Run(filepath.Join(ws, "DriftExample"), "v1.2.3", settings.FromEnv(func(k string) string { return env[k] }), editor)
			var text, js bytes.Buffer
			if err := r.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			if err := r.WriteJSON(&js); err != nil {
				t.Fatal(err)
			}
			got := text.String() + "\n" + js.String()
			if rt, err := filepath.EvalSymlinks(tmp); err == nil {
				got = strings.ReplaceAll(got, rt, "$TMP") // macOS: /var → /private/var
			}
			got = strings.ReplaceAll(got, tmp, "$TMP")
			got = strings.ReplaceAll(got, r.Platform, "GOOS/GOARCH")
			got = stamp.ReplaceAllString(got, "(SIZE, stored DATE;")
			got = snapshot.ReplaceAllString(got, "library-HASH.lib")
			golden := filepath.Join("testdata", strings.ReplaceAll(tc.name, " ", "-")+".golden")
			if *update {
				write(t, golden, got, 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("report differs from %s (go test -update to rewrite):\n%s", golden, got)
			}
		})
	}
}

// TestMissingEmbeddings: without the bundled models (or without cgo),
// dense retrieval is missing and the fix installs it.
func TestMissingEmbeddings(t *testing.T) {
	tmp := t.TempDir()
	r := &Report{}
	getenv := func(k string) string { return map[string]string{"XDG_CACHE_HOME": tmp}[k] }
	r.embeddings(embed.ConfigOf(settings.FromEnv(getenv)))
	if len(r.Items) != 1 || r.Items[0].State != Missing || r.Items[0].Fix != fixEmbeddings || r.Items[0].Detail == "" {
		t.Errorf("items %+v", r.Items)
	}
}
