package lsp

import (
	"context"
	"errors"

	"github.com/drift-lsp/drift-lsp/internal/progress"
)

// Progress hears a job's progress events (internal/progress's callback:
// one event type from a pipeline stage or the checker to the editor's
// work-done progress), named here as Pos and Span are.
type Progress = progress.Func

// Backend is what the language server needs from the rest of drift-lsp: the
// library index (retrieval), the DRIFT pipeline (drift, llm), the checks
// (leanrepl) and the names in comments (cmd/internal/docref), all in this
// package's own types. It is a consumer-side interface so that the server
// depends on none of those packages; cmd/internal/app builds the real one
// (app.Opener).
type Backend interface {
	// Status reports how far the library index has come.
	Status() IndexStatus
	// Search runs the library search for workspace/symbol.
	Search(ctx context.Context, query string, k int) ([]Symbol, error)
	// Formalize runs the full pipeline for an informal statement.
	Formalize(ctx context.Context, req FormalizeRequest, report Progress) (*Formalized, error)
	// FindPremises runs retrieval and illustration only (no model).
	FindPremises(ctx context.Context, statement string, report Progress) (*Premises, error)
	// Check runs the checks that need no compiler (and Lean when available)
	// on one theorem or example; report (which may be nil) hears what Lean
	// does meanwhile (importing the header, running lean).
	Check(ctx context.Context, header, stub string, report Progress) (*CheckReport, error)
	// Blueprint formalizes the workspace's leanblueprint (blueprint/src):
	// every node without Lean, in \uses order, appended to a Lean file;
	// report hears each node as it is decided.
	Blueprint(ctx context.Context, req BlueprintRequest, report Progress) (*BlueprintResult, error)
	// UpdateBuffer feeds unsaved buffer text to the index.
	UpdateBuffer(path string, text []byte)
	// CloseBuffer tells the index that the buffer is closed (the file on
	// disk is the truth again).
	CloseBuffer(path string)
	// Configure applies changed settings that do not need a new index
	// (model, pipeline parameters, REPL limits).
	Configure(s Settings)
	// Comments returns the checker of names in comments over the current
	// index, or nil while it is not built yet (it never blocks).
	Comments() CommentChecker
	// CommentsChanged returns a channel that is closed when Comments next
	// returns a newer checker (the library changed).
	CommentsChanged() <-chan struct{}
	// Close releases the index, REPL processes and model client.
	Close() error
}

// BlueprintRequest asks to formalize the workspace's blueprint.
type BlueprintRequest struct {
	// Only, when not empty, are the labels of the nodes to formalize.
	Only []string
}

// BlueprintResult is what a blueprint run did.
type BlueprintResult struct {
	// Summary counts the nodes by status, in words.
	Summary string
	// Out is the Lean file the stubs were appended to.
	Out string
	// Failed counts the nodes whose stub failed its checks.
	Failed int
}

// OpenFunc builds a Backend for a workspace root and settings; it must
// return at once and load the index in the background.
type OpenFunc func(ctx context.Context, root string, s Settings, logf func(format string, args ...any)) (Backend, error)

// ErrNoModel is returned (wrapped) by Formalize when no model endpoint is
// configured.
var ErrNoModel = errors.New("no model configured")

// IndexStatus describes the state of the library index.
type IndexStatus struct {
	// Phase is a short word: "scanning", "indexing", "embedding", "ready".
	Phase string
	// Done and Total count work units of the current phase.
	Done, Total int
	// Ready is true once search covers the whole library.
	Ready bool
	// Decls is the number of searchable declarations.
	Decls int
	// Warning is a one-line degraded-mode message, if any.
	Warning string
	// Err is set when the index failed to load.
	Err error
}

// Percent returns the progress of the current phase in percent (0 while
// its size is unknown), by progress.Percent.
func (s IndexStatus) Percent() int { return max(progress.Percent(s.Done, s.Total), 0) }

// Symbol is one library search hit.
type Symbol struct {
	Name      string
	Kind      string
	Signature string
	// Path is the absolute file path; Range the declaration's range in it.
	Path  string
	Range Span
	// Container is the namespace or module shown next to the name.
	Container string
	// Summary is the first sentence of the declaration's docstring and Why
	// says what matched the query (both empty when unknown).
	Summary, Why string
}

// FormalizeRequest is the input of Backend.Formalize.
type FormalizeRequest struct {
	Statement string
	// Name is the theorem name to use as given (a placeholder's); when it
	// is empty the pipeline decides (the statement's "name: foo", else the
	// model's, unique among Taken).
	Name string
	// Header holds the file's import and open lines.
	Header string
	// Path is the file the statement comes from.
	Path string
	// Text is that file's text: the chosen name, unless it is Name,
	// differs from the names it declares.
	Text string
	// Found, when set, hears the premises and examples while the model
	// works: a first look retrieved with the whole statement (final false),
	// then the context the candidates are drawn with (final true).
	Found func(p *Premises, final bool)
}

// Formalized is the result of Backend.Formalize.
type Formalized struct {
	// Name is the theorem's name, as Stub declares it (the server tracks
	// the inserted theorem by it, without parsing Stub again).
	Name string
	// Stub is the chosen `theorem … := by sorry`.
	Stub string
	// Summary is a one-line description of how the stub was chosen (for
	// the log and the final progress message).
	Summary string
	// Report is the checker's report on Stub, if it ran: what the editor
	// shows for the inserted stub without checking it again.
	Report *CheckReport
}

// Premises is the result of Backend.FindPremises.
type Premises struct {
	Premises []Symbol
	Examples []Symbol
	// Coverage is the share of premises that the examples use.
	Coverage float64
}

// CheckReport is the checker's report on one stub, as the editor shows it.
type CheckReport struct {
	// Stub is the text checked (the declaration trimmed, its proof cut);
	// Findings are located in it.
	Stub     string
	Findings []Finding
	// Passed is true when the stub passed every check that ran; Verdict
	// says in a few words which ran and how they came out.
	Passed  bool
	Verdict string
	// LeanRan is set when Lean checked the stub, LeanFailed when Lean (the
	// REPL or `lean`, LeanBackend) was tried and failed; LeanSkipped says
	// why Lean did not run or how it failed ("" when it ran).
	LeanRan, LeanFailed bool
	LeanBackend         string
	LeanSkipped         string
}

// Finding is one located result of the checks.
type Finding struct {
	// Severity is an LSP DiagnosticSeverity (1 error … 4 hint).
	Severity int
	// Code names the check ("unknown-name", "lean", a lint's code…), "" for
	// none; Message is the text shown.
	Code, Message string
	// Start and End are byte offsets in CheckReport.Stub, -1 when the
	// finding is about the whole stub.
	Start, End int
}

// CommentChecker resolves the names written in backticks in comments
// against one state of the library; the backend hands out a new one when
// the library changed (Backend.CommentsChanged).
type CommentChecker interface {
	// Parse reads one revision of a document for the comment features; path
	// is its file ("" when it has none).
	Parse(path, text string) CommentDoc
	// Complete returns full names that start with prefix, or whose dotted
	// suffix does, shortest first.
	Complete(prefix string) []string
}

// CommentDoc is one revision of a document as the comment features see it.
type CommentDoc interface {
	// At returns the name in backticks under p, inside a comment (the Lean
	// server owns code).
	At(p Pos) (CommentRef, bool)
	// CompletionAt reports whether p follows a backtick and the start of a
	// name (or words) inside a comment: what was typed since the backtick,
	// and where that starts.
	CompletionAt(p Pos) (prefix string, start Pos, ok bool)
	// Diagnostics returns the names that do not resolve where they are
	// written, and those of deprecated declarations.
	Diagnostics() []CommentFinding
}

// CommentRef is a name in backticks in a comment.
type CommentRef struct {
	// Range is where the name is written.
	Range Span
	// Hover is the Markdown description of the declaration the name
	// denotes, "" when it denotes none.
	Hover string
	// Definition is where that declaration is (Path "" when unknown).
	Definition Location
}

// Location is a range of a file.
type Location struct {
	// Path is the absolute file path.
	Path  string
	Range Span
}

// CommentFinding is a name in a comment that does not resolve, or that
// names a deprecated declaration.
type CommentFinding struct {
	// Name is the name as written, at Range.
	Name       string
	Range      Span
	Deprecated bool
	// Suggestions are replacements for Name, best first; Sure is set when
	// the first is the only best one (the preferred quick fix).
	Suggestions []string
	Sure        bool
}
