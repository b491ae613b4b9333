// Package cachedir holds drift-lsp's one rule for its cache directory, used
// for the index, the model responses and the installed models alike.
package cachedir

import (
	"os"
	"path/filepath"
)

// Dir is $XDG_CACHE_HOME/drift-lsp, else ~/.cache/drift-lsp (on every
// platform, so that `make setup`, the server and the commands agree; the
// home directory is $HOME, or %USERPROFILE% on Windows), else drift-lsp
// under the system's temporary directory. getenv is the only environment it
// reads.
func Dir(getenv func(string) string) string {
	if x := getenv("XDG_CACHE_HOME"); x != "" {
		return filepath.Join(x, "drift-lsp")
	}
	for _, home := range []string{"HOME", "USERPROFILE"} {
		if h := getenv(home); h != "" {
			return filepath.Join(h, ".cache", "drift-lsp")
		}
	}
	return filepath.Join(os.TempDir(), "drift-lsp")
}
