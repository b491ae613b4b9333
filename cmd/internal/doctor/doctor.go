// Package doctor says what drift-lsp finds around a directory: the
// workspace's roots and packages, the index, the model, Lean and the
// embeddings, each missing piece with the one command that fixes it. It
// resolves everything with the rules the server uses (cmd/internal/app's
// configuration, the finders of leanrepl, llm/local, retrieval/embed and
// internal/library), so that what it reports is what the server does.
package doctor

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/internal/lake"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/settings"
	"github.com/drift-lsp/drift-lsp/internal/setup"
	"github.com/drift-lsp/drift-lsp/leanrepl"
	"github.com/drift-lsp/drift-lsp/llm/local"
	"github.com/drift-lsp/drift-lsp/retrieval/embed"
)

// States of an Item.
const (
	// OK means the piece is there and works as configured.
	OK = "ok"
	// Missing means the piece is absent; Fix says how to add it.
	Missing = "missing"
	// Off means the piece is turned off by the configuration.
	Off = "off"
	// Info is a fact, neither good nor bad.
	Info = "info"
)

// Item is one line of the report.
type Item struct {
	// Section groups items: workspace, index, model, lean or embeddings.
	Section string `json:"section"`
	// Name says what the item is about.
	Name string `json:"name"`
	// State is OK, Missing, Off or Info.
	State string `json:"state"`
	// Detail says what was found, or what was looked for.
	Detail string `json:"detail"`
	// Fix is the one command that fixes a missing piece.
	Fix string `json:"fix,omitempty"`
}

// Report is what Run found.
type Report struct {
	// Version is drift-lsp's version.
	Version string `json:"version"`
	// Platform is GOOS/GOARCH.
	Platform string `json:"platform"`
	// Dir is the directory the report is about.
	Dir string `json:"dir"`
	// Items are the findings, in section order.
	Items []Item `json:"items"`
}

// Run reports on the workspace around dir with the settings of the
// environment (base, settings.FromEnv) and the editor's drift settings (a
// JSON object, as the server receives them; nil for none) over them, as
// the server resolves them; version is drift-lsp's. Nothing is started or
// built: the model and Lean are found, not run.
func Run(dir, version string, base settings.Settings, editor []byte) *Report {
	r := &Report{Version: version, Platform: runtime.GOOS + "/" + runtime.GOARCH, Dir: dir}
	s, err := base.Overlay(editor)
	if err != nil {
		r.add("workspace", "editor settings", Missing, err.Error(), "correct the drift settings of the editor")
	}
	for _, w := range s.Warnings {
		r.add("workspace", "settings", Missing, w, "correct the variable or setting named")
	}
	ws, err := library.DiscoverWith(dir, s.Roots, s.Paths.Elan)
	if err != nil {
		r.add("workspace", "workspace", Missing, err.Error(), "cd into a Lean project, or set DRIFT_ROOTS")
	} else {
		r.workspace(ws)
		r.index(s.Cache(), ws)
	}
	r.model(s)
	root := dir
	if ws != nil {
		root = ws.Dir
	}
	r.lean(root, ws, s)
	r.embeddings(embed.ConfigOf(s))
	return r
}

func (r *Report) add(section, name, state, detail, fix string) {
	r.Items = append(r.Items, Item{Section: section, Name: name, State: state, Detail: detail, Fix: fix})
}

// Missing returns the items that are missing.
func (r *Report) Missing() []Item {
	var out []Item
	for _, it := range r.Items {
		if it.State == Missing {
			out = append(out, it)
		}
	}
	return out
}

func (r *Report) workspace(ws *library.Workspace) {
	kind := "a directory without lakefile or lean-toolchain"
	if lake.IsRoot(ws.Dir) {
		kind = "a Lake workspace"
	}
	r.add("workspace", "root", Info, real(ws.Dir)+" ("+kind+")", "")
	if ws.Toolchain != "" {
		r.add("workspace", "lean-toolchain", Info, ws.Toolchain, "")
	}
	for _, root := range ws.Roots {
		name := root.Package
		switch {
		case root.User && name == "":
			name = "(workspace)"
		case root.User:
			name += " (yours)"
		}
		detail := real(root.Dir)
		if detail != root.Dir {
			detail = root.Dir + " → " + detail
		}
		r.add("workspace", "package "+name, Info, detail, "")
	}
}

// real resolves the symbolic links of path (path itself when it cannot).
func real(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		return p
	}
	return path
}

func (r *Report) index(cacheDir string, ws *library.Workspace) {
	r.add("index", "cache", Info, cacheDir, "")
	path := library.SnapshotPath(cacheDir, ws)
	st, err := os.Stat(path)
	if err != nil {
		r.add("index", "snapshot", Missing, "not built yet for this workspace (the server builds it at its first start)", "drift-lsp index")
		return
	}
	r.add("index", "snapshot", OK, fmt.Sprintf("%s (%s, stored %s; refreshed at start when files changed)", path, setup.HumanBytes(st.Size()), st.ModTime().UTC().Format(time.RFC3339)), "")
}

// The commands that install the bundled parts.
const (
	fixModel      = "drift-lsp setup model"
	fixEmbeddings = "drift-lsp setup embeddings"
	fixElan       = "curl https://raw.githubusercontent.com/leanprover/elan/master/elan-init.sh -sSf | sh"
)

func (r *Report) model(s settings.Settings) {
	cfg := app.ModelConfig(s)
	if cfg.Configured() {
		r.add("model", "endpoint", OK, fmt.Sprintf("%s at %s", cfg.Model, cfg.BaseURL), "")
		if cfg.APIKey == "" {
			r.add("model", "API key", Info, "$"+cfg.APIKeyEnv+" is empty (fine for a server that needs none)", "")
		}
		return
	}
	if s.LLM.Local == local.ModeOff {
		r.add("model", "endpoint", Missing, "none configured, and the bundled local model is off (llm.local)", "export DRIFT_LLM_BASE_URL=http://127.0.0.1:8080/v1 DRIFT_LLM_MODEL=NAME")
		return
	}
	r.add("model", "endpoint", Info, "none configured: the bundled local model runs", "")
	inst, err := local.Find(s.Paths.LocalLLM)
	if err != nil {
		r.add("model", "local model", Missing, err.Error(), fixModel)
		return
	}
	r.add("model", "local model", OK, fmt.Sprintf("%s in %s (started at the first request)", inst.ModelName(), inst.Dir), "")
}

func (r *Report) lean(root string, ws *library.Workspace, s settings.Settings) {
	replCmd := s.REPL.Command
	tc, leanErr := leanrepl.FindLean(root, strings.Fields(s.Lean.Command), app.LeanEnv(s.Paths))
	switch repl, err := leanrepl.FindREPL(root); {
	case replCmd != "":
		r.add("lean", "REPL", OK, "configured: "+replCmd, "")
	case err == nil:
		r.add("lean", "REPL", OK, strings.Join(repl, " "), "")
	case leanErr == nil:
		r.add("lean", "REPL", Info, "none found: checks run `lean --json` instead (a REPL keeps the imports loaded between checks)", "")
	default:
		r.add("lean", "REPL", Info, "none found: "+err.Error(), "")
	}
	if leanErr == nil {
		r.add("lean", "lean", OK, tc.String(), "")
	} else {
		fix := fixElan
		if ws != nil && ws.Toolchain != "" && lookPath("elan") {
			fix = "elan toolchain install " + ws.Toolchain
		}
		r.add("lean", "lean", Missing, leanErr.Error(), fix)
	}
	if ws == nil || ws.Toolchain == "" {
		return
	}
	dir := lake.ToolchainDir(s.Paths.Elan, ws.Toolchain)
	if _, err := os.Stat(filepath.Join(dir, "bin")); err == nil {
		r.add("lean", "toolchain", OK, ws.Toolchain+" (lean-toolchain) installed in "+dir, "")
		return
	}
	fix := fixElan
	if lookPath("elan") {
		fix = "elan toolchain install " + ws.Toolchain
	}
	r.add("lean", "toolchain", Missing, ws.Toolchain+" (lean-toolchain) is not installed in "+dir, fix)
}

// lookPath reports whether program is on PATH.
func lookPath(program string) bool {
	_, err := exec.LookPath(program)
	return err == nil
}

func (r *Report) embeddings(cfg embed.Config) {
	if strings.EqualFold(strings.TrimSpace(cfg.Provider), embed.ProviderNone) {
		r.add("embeddings", "dense retrieval", Off, "embedding.provider is none: lexical and name search only", "")
		return
	}
	emb, warn := embed.Default(cfg)
	if emb == nil {
		r.add("embeddings", "dense retrieval", Missing, warn, fixEmbeddings)
		return
	}
	if c, ok := emb.(io.Closer); ok {
		defer c.Close()
	}
	detail := emb.Name()
	if warn != "" {
		detail += " (" + warn + ")"
	}
	r.add("embeddings", "dense retrieval", OK, detail, "")
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// marks are the text report's state markers.
var marks = map[string]string{OK: "ok", Missing: "MISSING", Off: "off", Info: "--"}

// WriteText writes the report as one screen of text: a heading per
// section, a line per item, and under a missing piece the command that
// fixes it.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "drift-lsp %s (%s) in %s\n", r.Version, r.Platform, r.Dir)
	section := ""
	for _, it := range r.Items {
		if it.Section != section {
			section = it.Section
			fmt.Fprintf(&b, "\n%s\n", section)
		}
		fmt.Fprintf(&b, "  %-7s %s: %s\n", marks[it.State], it.Name, it.Detail)
		if it.Fix != "" {
			fmt.Fprintf(&b, "          fix: %s\n", it.Fix)
		}
	}
	if n := len(r.Missing()); n > 0 {
		fmt.Fprintf(&b, "\n%d missing; run the fix under each.\n", n)
	} else {
		fmt.Fprintf(&b, "\nNothing missing.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
