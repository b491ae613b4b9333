package embed

import (
	"os"
	"path/filepath"

	"github.com/drift-lsp/drift-lsp/internal/settings"
)

// ModelsDir is where setup placed the models the tests load (DRIFT_MODELS,
// else the cache directory's, as settings resolves it).
func ModelsDir() string { return settings.FromEnv(os.Getenv).Paths.Models }

// ortLibrary is the ONNX Runtime library setup installed with them.
func ortLibrary() string { return filepath.Join(ModelsDir(), "lib", ORTLibraryName) }
