package falsify

import "github.com/drift-lsp/drift-lsp/internal/library"

// FromLibrary adapts a workspace library to Library: resolve is the
// stub-scope resolver of the name check; names inside definitions resolve in
// their own file's scope.
func FromLibrary(lib *library.Library, resolve func(name string) []string) Library {
	return &libAdapter{lib: lib, resolve: resolve}
}

// libAdapter is the Library of a stub over a workspace library.
type libAdapter struct {
	lib     *library.Library
	resolve func(name string) []string
}

func (a *libAdapter) Resolve(name string) []string {
	if a.resolve == nil {
		return nil
	}
	return a.resolve(name)
}

func (a *libAdapter) Definition(full string) (Definition, bool) { return Definition{}, false }

func (a *libAdapter) Notation(symbol string) string { return "" }
