// Package mcpserver serves drift-lsp's library, name check and checks to
// coding agents over the Model Context Protocol (the official Go SDK): the
// tools search, check_names, declaration, retrieve, check, formalize and
// lint_docs, over one live workspace shared with the editors and the CLI.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/progress"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"github.com/drift-lsp/drift-lsp/leanrepl"
)

// Backend is what the tools need from the rest of drift-lsp (the library
// index, the name check, the checker, the pipeline, the names in comments),
// in this package's own types: a consumer-side interface, as lsp.Backend is
// for the language server, so that the edge depends on none of those
// packages but for the check report's JSON form (leanrepl.ReportJSON, the
// shape `drift-lsp check --json` prints too). cmd/internal/app implements it
// (app.MCP) and does every conversion.
type Backend interface {
	// Ready waits until the index is ready; its error (wrapping
	// ErrNotReady, or saying the index failed) says how far it came.
	Ready(ctx context.Context) error
	// Header returns the header stubs are checked under by default.
	Header() string
	// Params returns the default numbers of premises and illustrative
	// theorems.
	Params() (k, m int)
	// Kinds lists the declaration kinds a search may keep.
	Kinds() []string
	// Search runs the library search, keeping the given kinds (all when
	// none).
	Search(ctx context.Context, query string, k int, kinds []string) ([]Hit, error)
	// CheckNames says what the library makes of each full name.
	CheckNames(ctx context.Context, names []string) ([]NameCheck, error)
	// Declaration returns one declaration (a unique suffix is accepted)
	// with its source text.
	Declaration(ctx context.Context, name string) (DeclarationOutput, error)
	// Retrieve returns k premises and m illustrative theorems.
	Retrieve(ctx context.Context, statement string, k, m int) (RetrieveOutput, error)
	// Gate runs the checker's safety gate alone: nil when it lets stub
	// through.
	Gate(stub string) error
	// Check runs the checker (gate first) on a stub under header.
	Check(ctx context.Context, header, stub string, report progress.Func) (*leanrepl.ReportJSON, error)
	// SanitizeName is the Lean identifier the pipeline makes of name.
	SanitizeName(name string) string
	// Formalize runs the DRIFT pipeline on an informal statement.
	Formalize(ctx context.Context, statement, name, header string, report progress.Func) (FormalizeOutput, error)
	// LintDocs checks the names in the comments of the indexed files at or
	// under path (the workspace's own files when ""), listing at most max
	// findings.
	LintDocs(ctx context.Context, path string, max int) (LintDocsOutput, error)
}

// Options configures a server.
type Options struct {
	// Version is reported to clients ("dev" when empty).
	Version string
	// ReadyWait bounds how long a tool waits for the index to be ready
	// before it answers that the index is still being built (30 s when 0).
	ReadyWait time.Duration
	// Logf receives one line per failed tool call; nil discards them.
	Logf func(string, ...any)
}

// Size limits on arguments: beyond them a call gets a tool error.
const (
	maxText    = 16 << 10 // a query, statement, stub, header, name or path, in bytes
	maxNames   = 256      // names of one check_names call
	maxName    = 512      // bytes of one Lean name (Mathlib's longest are under 200)
	maxK       = 100      // k of search and retrieve
	maxM       = 20       // m of retrieve
	maxSource  = 64 << 10 // declaration source text returned, in bytes
	maxLintOut = 500      // lint findings returned
)

// instructions tell an agent what the server is for.
const instructions = `drift-lsp serves the Lean 4 library of this workspace (Mathlib or any other library, forks and your latest edits included), offline. ` +
	`Before you write a Lean name, search for it or check it with check_names; check a theorem statement with check before you try to prove it.`

// New returns the MCP server of b with the seven tools.
func New(b Backend, opts Options) *mcp.Server {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	if opts.ReadyWait <= 0 {
		opts.ReadyWait = 30 * time.Second
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "drift-lsp", Version: opts.Version}, &mcp.ServerOptions{Instructions: instructions})
	t := &tools{b: b, opts: opts}
	// No tool changes the workspace; only formalize reaches out, to the
	// model.
	closed, open := false, true
	local := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &closed}
	model := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &open}
	add(s, t, &mcp.Tool{Name: "search", Annotations: local, Description: "Use to find library declarations by meaning or by name (natural language, a Lean name or a formula) before writing a Lean name you are not sure of."}, t.search)
	add(s, t, &mcp.Tool{Name: "check_names", Annotations: local, Description: "Use to verify, before writing Lean, that the names you plan to use exist in the workspace library, and to get the right names when they do not."}, t.checkNames)
	add(s, t, &mcp.Tool{Name: "declaration", Annotations: local, Description: "Use to read one declaration of the library (signature, docstring, file:line and source text) when you need its exact statement."}, t.declaration)
	add(s, t, &mcp.Tool{Name: "retrieve", Annotations: local, Description: "Use when formalizing an informal statement yourself, to get the library premises it needs and example theorems that use them."}, t.retrieve)
	add(s, t, &mcp.Tool{Name: "check", Annotations: local, Description: "Use to check a theorem statement ending in `:= by sorry` (gate, unknown names, lints, then Lean when available) before you prove or commit it."}, t.check)
	add(s, t, &mcp.Tool{Name: "formalize", Annotations: model, Description: "Use to turn an informal mathematical statement into a checked Lean theorem stub with the configured model (slow: reports progress, can be cancelled)."}, t.formalize)
	add(s, t, &mcp.Tool{Name: "lint_docs", Annotations: local, Description: "Use after editing docstrings or comments, to find the Lean names in backticks that no longer resolve and what they should be."}, t.lintDocs)
	s.AddReceivingMiddleware(t.unknownTool)
	return s
}

// schemaOptions give the output schemas of the types whose JSON form is
// not their Go shape.
var schemaOptions = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[leanrepl.Severity](): {Type: "string", Description: "error, warning, information or hint"},
}}

// tools holds the tool handlers.
type tools struct {
	b     Backend
	opts  Options
	names []string // the registered tools, in order
}

// texter is a tool's structured output that can render itself as text.
type texter interface{ text() string }

// refuser is an output that can say its input was refused: the call is
// then a tool error (isError) that still carries the output.
type refuser interface{ refused() bool }

// add registers a typed tool whose result carries its output both as
// structured content and as readable text, and whose errors are tool errors
// (isError) that name the tool.
func add[In any, Out texter](s *mcp.Server, t *tools, tool *mcp.Tool, h func(context.Context, *mcp.CallToolRequest, In) (Out, error)) {
	t.names = append(t.names, tool.Name)
	schema, err := jsonschema.For[Out](schemaOptions)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: the output schema of %s: %v", tool.Name, err))
	}
	tool.OutputSchema = schema
	mcp.AddTool(s, tool, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		out, err := h(ctx, req, in)
		if err != nil {
			if ctx.Err() != nil {
				err = fmt.Errorf("cancelled: %w", err)
			}
			t.opts.Logf("drift-lsp mcp: %s: %v", tool.Name, err)
			var zero Out
			return nil, zero, fmt.Errorf("%s: %w", tool.Name, err)
		}
		res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.text()}}}
		if r, ok := any(out).(refuser); ok {
			res.IsError = r.refused()
		}
		return res, out, nil
	})
}

// unknownTool answers a call of a tool the server does not have with a tool
// error listing the tools, rather than a protocol error.
func (t *tools) unknownTool(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if ct, ok := req.(*mcp.CallToolRequest); ok && ct.Params != nil && !slices.Contains(t.names, ct.Params.Name) {
			return toolError(ct.Session, fmt.Sprintf("unknown tool %q; the tools are %s", textcut.Cut(ct.Params.Name, 100), strings.Join(t.names, ", ")))
		}
		return next(ctx, method, req)
	}
}

// toolError is a tool error result as the SDK's typed handlers give one.
// Clients of protocol revision 2026-07-28 (the SDK's latest, assumed when
// the session did not initialize) require its resultType, which the SDK
// lets a result carry only through its JSON form.
func toolError(ss *mcp.ServerSession, msg string) (*mcp.CallToolResult, error) {
	wire := map[string]any{"content": []map[string]string{{"type": "text", "text": msg}}, "isError": true}
	if ip := ss.InitializeParams(); ip == nil || ip.ProtocolVersion >= "2026-07-28" {
		wire["resultType"] = "complete"
	}
	b, err := json.Marshal(wire)
	if err != nil {
		return nil, err
	}
	res := &mcp.CallToolResult{}
	return res, json.Unmarshal(b, res)
}

// ErrNotReady means the index was not ready within ReadyWait.
var ErrNotReady = errors.New("the index is still being built")

// ready waits, at most ReadyWait, for the index to be ready.
func (t *tools) ready(ctx context.Context) error {
	wctx, cancel := context.WithTimeout(ctx, t.opts.ReadyWait)
	defer cancel()
	if err := t.b.Ready(wctx); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	return nil
}

// text checks a text argument: not blank when required, at most maxText
// bytes, valid UTF-8.
func text(arg, s string, required bool) error {
	switch {
	case required && strings.TrimSpace(s) == "":
		return fmt.Errorf("%s is empty", arg)
	case len(s) > maxText:
		return fmt.Errorf("%s is %d bytes, more than the limit of %d", arg, len(s), maxText)
	case !utf8.ValidString(s):
		return fmt.Errorf("%s is not valid UTF-8", arg)
	}
	return nil
}

// leanName checks a Lean name argument: a (dotted) identifier of at most
// maxName bytes, `_root_.` allowed; it returns the name without `_root_.`
// and surrounding space.
func leanName(arg, s string) (string, error) {
	if err := text(arg, s, true); err != nil {
		return "", err
	}
	name := strings.TrimPrefix(strings.TrimSpace(s), "_root_.")
	switch {
	case len(name) > maxName:
		return "", fmt.Errorf("%s is %d bytes, more than the limit of %d for a name", arg, len(name), maxName)
	case !leansrc.IsIdentifier(name):
		return "", fmt.Errorf("%s is not a Lean name: %q", arg, textcut.Cut(s, 100))
	}
	return name, nil
}

// count checks an optional count argument and returns it, or def when it
// is 0.
func count(arg string, n, def, limit int) (int, error) {
	switch {
	case n == 0:
		return def, nil
	case n < 0 || n > limit:
		return 0, fmt.Errorf("%s is %d; it must be between 1 and %d", arg, n, limit)
	}
	return n, nil
}
