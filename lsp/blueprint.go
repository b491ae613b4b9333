package lsp

import (
	"context"
	"regexp"
	"strings"

	"go.lsp.dev/protocol"
)

// cmdBlueprint formalizes the workspace's blueprint (drift-lsp blueprint):
// with no argument every node without Lean, with {"label"} that node.
const cmdBlueprint = "drift.blueprint"

// The titles of the blueprint's command and code action.
const (
	titleBlueprint     = "Formalize the blueprint"
	titleBlueprintNode = "Formalize this node"
)

// blueprintArgs is drift.blueprint's optional argument.
type blueprintArgs struct {
	Label string `json:"label,omitempty"`
}

// runBlueprint runs the blueprint as a background job with progress and
// cancel, as the other jobs run.
func (s *server) runBlueprint(ctx context.Context, a blueprintArgs, token protocol.ProgressToken) error {
	title := titleBlueprint
	req := BlueprintRequest{}
	if a.Label != "" {
		title = titleBlueprintNode + " (" + a.Label + ")"
		req.Only = []string{a.Label}
	}
	j, jctx := s.jobs.start(ctx, cmdBlueprint+"\x00"+a.Label)
	defer s.jobs.finish(j)
	prog := s.newProgress(jctx, token, "DRIFT: "+title, true)
	if prog.key != "" {
		s.jobs.setToken(j, prog.key)
	}
	if !s.jobs.acquire(jctx, func(n int) { prog.report("Queued behind running job(s)…", -1) }) {
		_, err := s.jobStopped(ctx, j, prog, title)
		return err
	}
	defer s.jobs.release()
	b, err := s.waitBackend(jctx, prog)
	var res *BlueprintResult
	if err == nil {
		res, err = b.Blueprint(jctx, req, progressFunc(prog))
	}
	switch {
	case jctx.Err() != nil:
		_, err := s.jobStopped(ctx, j, prog, title)
		return err
	case err != nil:
		prog.end("Failed: " + firstLine(err.Error()))
		s.log.Errorf("drift: %s failed: %v", title, err)
		s.showMessage(protocol.MessageTypeError, "DRIFT: "+title+" failed: "+firstLine(err.Error()))
		return nil
	}
	prog.end(res.Summary)
	s.log.Infof("drift: %s: %s → %s", title, res.Summary, res.Out)
	kind := protocol.MessageTypeInfo
	if res.Failed > 0 {
		kind = protocol.MessageTypeWarning
	}
	s.showMessage(kind, "DRIFT: "+title+": "+res.Summary+" → "+res.Out)
	return nil
}

// blueprintEnvRE finds the \begin and \end of a blueprint node's
// environment, and labels.
var (
	blueprintEnvRE   = regexp.MustCompile(`\\(begin|end)\{(definition|lemma|theorem|proposition|corollary)\*?\}`)
	blueprintLabelRE = regexp.MustCompile(`\\label\{([^}]*)\}`)
)

// blueprintNodeAt returns the label of the blueprint node (a definition,
// lemma, theorem, proposition or corollary environment of a .tex file)
// around position p of d, or "".
func blueprintNodeAt(d *Document, p Pos) string {
	if !isTeX(d) {
		return ""
	}
	off := d.Offset(p)
	if off < 0 || off > len(d.Text) {
		return ""
	}
	start := -1
	for _, m := range blueprintEnvRE.FindAllStringSubmatchIndex(d.Text, -1) {
		if m[0] > off {
			break
		}
		if d.Text[m[2]:m[3]] == "begin" {
			start = m[1]
		} else if m[1] <= off {
			start = -1 // the node ended before the cursor
		}
	}
	if start < 0 {
		return ""
	}
	rest := d.Text[start:]
	if e := blueprintEnvRE.FindStringIndex(rest); e != nil {
		rest = rest[:e[0]]
	}
	if m := blueprintLabelRE.FindStringSubmatch(rest); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}

// isTeX reports whether d is a LaTeX file (a blueprint's source).
func isTeX(d *Document) bool {
	return strings.HasSuffix(strings.ToLower(d.URI), ".tex") || d.LanguageID == "latex" || d.LanguageID == "tex"
}
