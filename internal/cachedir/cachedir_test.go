package cachedir

import "testing"

func TestDir(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CACHE_HOME": "/x", "HOME": "/h"}, "/x/drift-lsp"},
		{map[string]string{"HOME": "/h"}, "/h/.cache/drift-lsp"},
	} {
		if got := Dir(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("Dir(%v) = %q, want %q", c.env, got, c.want)
		}
	}
}
