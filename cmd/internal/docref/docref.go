package docref

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// Status says what a reference denotes.
type Status uint8

// The statuses of a reference. Only Unresolved and Deprecated references
// are findings.
const (
	Resolved   Status = iota + 1 // a declaration of the index
	Deprecated                   // a deprecated declaration or alias
	Bound                        // a `variable` or a binder of the declaration's signature
	Namespace                    // a namespace or a module, not a declaration
	External                     // not indexed, but used as a name in the library's code
	Unresolved                   // nothing: a stale or wrong reference
)

var statusNames = [...]string{Resolved: "resolved", Deprecated: "deprecated", Bound: "bound",
	Namespace: "namespace", External: "external", Unresolved: "unresolved"}

// String names the status ("unresolved").
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "unknown"
}

// Ref is one name mentioned in backticks in a comment or docstring.
type Ref struct {
	// Name is the identifier as written.
	Name string
	// Start and End are byte offsets of Name in the file; Range is the same
	// span in LSP coordinates.
	Start, End int
	Range      leansrc.Range
	// Comment is the kind of comment holding it (TokDoc, TokModDoc, TokComment).
	Comment leansrc.TokenKind
	// Whole is set when the backtick span is this one name (rather than an
	// expression using it).
	Whole bool
	// Hedged is set when the line's wording is hypothetical ("would be",
	// "does not exist", "we could"): the name may be missing on purpose, so
	// a finding there is reported but never sure (no --fix, no quick-fix).
	Hedged bool
	// Scope is the scope in force; Self is the declaration the comment
	// documents or sits in ("" when none).
	Scope *leansrc.Scope
	Self  string
	// Status and Target: what the name denotes (Target is the full name for
	// Resolved and Deprecated references).
	Status Status
	Target string
	// fileSpaces are the namespaces a module docstring may refer to: those
	// of the whole file.
	fileSpaces []string
	// module is the module name of the file ("" when unknown).
	module string
}

// Finding is a reference that lint-docs and the editor report: one that does
// not resolve, or that names a deprecated declaration.
type Finding struct {
	Ref
	// Suggestions are replacement texts for Name, best first.
	Suggestions []string
	// Sure is set when the first suggestion is the only best one, so that
	// --fix and the quick-fix may apply it.
	Sure bool
}

// Checker resolves comment references against one library snapshot. It is
// immutable and safe for concurrent use.
type Checker struct {
	lib   *library.Library
	ix    *names.Index
	known Known
	// spaces holds every proper prefix of a declaration name (namespaces)
	// and every module name.
	spaces map[string]bool
	// coreMissing is set when Lean's own sources are not indexed.
	coreMissing bool
	// missing holds the lower-cased names of the packages that the
	// workspace's lake-manifest.json lists but that are not indexed: their
	// root namespaces cannot be checked.
	missing map[string]bool
	// scopes caches completed scopes by their text (see expand).
	scopes sync.Map
}

// New returns a checker over lib, whose names ix indexes; known lists the
// names the library's code uses (see Known), nil for none.
func New(lib *library.Library, ix *names.Index, known Known) *Checker {
	c := &Checker{lib: lib, ix: ix, known: known, spaces: map[string]bool{}, coreMissing: true}
	c.missing = missingPackages(lib.Workspace())
	for _, root := range lib.Workspace().Roots {
		if root.Package == "lean4" {
			c.coreMissing = false
		}
	}
	modules := map[string]bool{}
	for _, d := range lib.Decls() {
		if !modules[d.Module] {
			modules[d.Module] = true
			// Every run of components of a module name names a module or a
			// folder (`Data.ZMod.Basic`, `GroupTheory.GroupAction`).
			parts := strings.Split(d.Module, ".")
			for i := range parts {
				for j := i + 1; j <= len(parts); j++ {
					c.spaces[strings.Join(parts[i:j], ".")] = true
				}
			}
		}
		n := d.Name
		for i := strings.LastIndexByte(n, '.'); i > 0; i = strings.LastIndexByte(n, '.') {
			n = n[:i]
			if c.spaces[n] {
				break
			}
			c.spaces[n] = true
		}
	}
	return c
}

// missingPackages returns the lower-cased names of the packages in the
// workspace's lake-manifest.json that are not among its roots.
func missingPackages(ws *library.Workspace) map[string]bool {
	out := map[string]bool{}
	b, err := os.ReadFile(filepath.Join(ws.Dir, "lake-manifest.json"))
	if err != nil {
		return out
	}
	var m struct {
		Packages []struct {
			Name string `json:"name"`
		} `json:"packages"`
	}
	if json.Unmarshal(b, &m) != nil {
		return out
	}
	have := map[string]bool{}
	for _, r := range ws.Roots {
		have[strings.ToLower(r.Package)] = true
	}
	for _, p := range m.Packages {
		if n := strings.ToLower(p.Name); !have[n] {
			out[n] = true
		}
	}
	return out
}

// expand completes the opens of a scope the way Lean resolves `open`: a
// namespace opened after another may be relative to it (`open
// CategoryTheory Limits` opens CategoryTheory.Limits).
func (c *Checker) expand(sc *leansrc.Scope) *leansrc.Scope {
	if sc == nil || len(sc.Opens) == 0 {
		return sc
	}
	key := sc.Namespace + "\x00" + strings.Join(sc.Opens, "\x00")
	if x, ok := c.scopes.Load(key); ok {
		return x.(*leansrc.Scope)
	}
	out := &leansrc.Scope{Namespace: sc.Namespace, Opens: append([]string(nil), sc.Opens...)}
	for i, o := range sc.Opens {
		for _, p := range sc.Opens[:i] {
			if n := p + "." + o; c.spaces[n] {
				out.Opens = append(out.Opens, n)
			}
		}
		for ns := sc.Namespace; ns != ""; ns = parent(ns) {
			if n := ns + "." + o; c.spaces[n] {
				out.Opens = append(out.Opens, n)
			}
		}
	}
	c.scopes.Store(key, out)
	return out
}

// Known is the set of identifiers that a library's code (outside comments)
// writes. A name the index cannot resolve but that code uses comes from an
// unindexed dependency (Lean core, a package whose sources are absent) or is
// a local, a tactic or an option: a comment naming it is not stale.
type Known map[string]bool

// Add records the identifiers among the code tokens of src.
func (k Known) Add(src []byte, code []leansrc.Token) {
	for _, t := range code {
		switch t.Kind {
		case leansrc.TokIdent:
			k[string(src[t.Start:t.End])] = true
		case leansrc.TokNameLit:
			k[strings.TrimLeft(string(src[t.Start:t.End]), "`")] = true
		case leansrc.TokString:
			// Syntax atoms: tactic, command and notation words ("norm_num", "ℒp").
			if a := strings.TrimSpace(strings.Trim(string(src[t.Start:t.End]), `"`)); leansrc.IsIdentifier(a) {
				k[a] = true
			}
		}
	}
}

// File returns the references in the comments of one file. src is the
// file's text after leansrc.Prepare, syn its scopes (from leansrc.Parse or
// Library.Syntax) and decls its declarations in order.
func (c *Checker) File(src []byte, syn *leansrc.File, decls []*library.Decl) []Ref {
	comments, _ := Comments(src)
	return c.Refs(src, comments, syn, decls)
}

// Refs is File over comments already located.
func (c *Checker) Refs(src []byte, comments []Comment, syn *leansrc.File, decls []*library.Decl) []Ref {
	return c.refs(src, comments, syn, decls, nil)
}

// refs is Refs with local, names the file's own code uses, counted as known
// besides the checker's Known.
func (c *Checker) refs(src []byte, comments []Comment, syn *leansrc.File, decls []*library.Decl, local Known) []Ref {
	if len(comments) == 0 {
		return nil
	}
	lines := leansrc.NewLineIndex(src)
	own := ownDecls(decls)
	module := ""
	if len(decls) > 0 {
		module = decls[0].Module
	}
	var out []Ref
	for _, cm := range comments {
		from, to := commentBody(src, cm)
		spans := leansrc.CodeSpans(src, from, to)
		if len(spans) == 0 || historical(src[from:to]) || commentedOut(src[from:to]) {
			continue
		}
		var sc *leansrc.Scope
		var vars []string
		if syn != nil {
			sc, vars = syn.At(cm.Start)
		}
		self := documented(own, cm, lines)
		var bound map[string]bool
		var spaces []string
		first := len(out)
		for _, s := range spans {
			ids, whole := refsIn(src, s)
			hedged := len(ids) > 0 && hypothetical(lineOf(src, s.Start))
			for _, t := range ids {
				r := Ref{Name: string(src[t.Start:t.End]), Start: int(t.Start), End: int(t.End), Comment: cm.Kind,
					Whole: whole, Hedged: hedged, Scope: c.expand(sc), module: module}
				if cm.Kind == leansrc.TokModDoc && syn != nil {
					if spaces == nil {
						spaces = c.fileSpaces(syn, own)
					}
					r.fileSpaces = spaces
				}
				if self != nil {
					r.Self = self.Name
				}
				r.Range = leansrc.Range{Start: lines.Pos(r.Start), End: lines.Pos(r.End)}
				if bound == nil {
					bound = boundNames(vars, self)
				}
				c.classify(&r, bound, local)
				out = append(out, r)
			}
		}
		c.madeUp(out[first:], fencedIdents(src, from, to))
	}
	return out
}

// madeUp marks as Bound the unresolved references of one comment that name
// the comment's own worked example rather than the library: a name written
// in the comment's fenced code (`class CoolerIsoClass …` in a ``` block), or
// a dotted name whose head the same comment mentions alone as a word or
// variable and that is no namespace (`Bottom.toMiddle` after "three
// classes `Top`, `Middle`, `Bottom`").
func (c *Checker) madeUp(refs []Ref, fenced map[string]bool) {
	words := map[string]bool{}
	for _, r := range refs {
		if r.Status == Bound && !strings.Contains(r.Name, ".") {
			words[r.Name] = true
		}
	}
	for i := range refs {
		r := &refs[i]
		if r.Status != Unresolved {
			continue
		}
		head, _, dotted := strings.Cut(r.Name, ".")
		if fenced[r.Name] || fenced[head] || (dotted && (fenced[parent(r.Name)] || words[head] && !c.namespace(r, head))) {
			r.Status = Bound
		}
	}
}

// namespace reports whether name, read at r's place, is a namespace of the
// library.
func (c *Checker) namespace(r *Ref, name string) bool {
	return c.anyExpansion(&Ref{Name: name, Scope: r.Scope, Self: r.Self, fileSpaces: r.fileSpaces},
		func(n string) bool { return c.spaces[n] })
}

// fencedIdents returns the identifiers written in the fenced code blocks
// of the comment body src[from:to], scanned with the Lean lexer.
func fencedIdents(src []byte, from, to int) map[string]bool {
	var set map[string]bool
	for _, b := range leansrc.FencedBlocks(src, from, to) {
		toks, _ := leansrc.Scan(src[b.Start:b.End])
		for _, t := range toks {
			if t.Kind != leansrc.TokIdent {
				continue
			}
			if set == nil {
				set = map[string]bool{}
			}
			set[string(src[b.Start+int(t.Start):b.Start+int(t.End)])] = true
		}
	}
	return set
}

// fileSpaces lists the namespaces and opens of every scope of a file and
// the namespaces of its declarations' names.
func (c *Checker) fileSpaces(syn *leansrc.File, decls []*library.Decl) []string {
	seen := map[string]bool{"": true}
	var out []string
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	for i := range syn.Scopes {
		sc := c.expand(&syn.Scopes[i])
		add(sc.Namespace)
		for _, o := range sc.Opens {
			add(o)
		}
	}
	for _, d := range decls {
		add(parent(d.Name))
	}
	return out
}

// ownDecls returns the declarations written in the file (not generated
// twins), ordered by start.
func ownDecls(decls []*library.Decl) []*library.Decl {
	out := make([]*library.Decl, 0, len(decls))
	for _, d := range decls {
		if !d.Generated {
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Range.Start.Before(out[j].Range.Start) })
	return out
}

// documented returns the declaration a comment belongs to: for a docstring,
// the declaration it precedes; for another comment, the declaration around
// it; nil for module docstrings and comments between declarations.
func documented(decls []*library.Decl, cm Comment, lines *leansrc.LineIndex) *library.Decl {
	if cm.Kind == leansrc.TokModDoc {
		return nil
	}
	end := lines.Pos(cm.End)
	i := sort.Search(len(decls), func(i int) bool { return !decls[i].Range.Start.Before(end) })
	if cm.Kind == leansrc.TokDoc {
		if i < len(decls) {
			return decls[i]
		}
		return nil
	}
	if i > 0 && end.Before(decls[i-1].Range.End) {
		return decls[i-1]
	}
	return nil
}

// boundNames is the set of names that comments may use as variables: the
// `variable`s in force and the identifiers of the declaration's signature.
func boundNames(vars []string, self *library.Decl) map[string]bool {
	set := make(map[string]bool, len(vars)+8)
	for _, v := range vars {
		set[v] = true
	}
	if self != nil {
		sig := []byte(self.Signature)
		toks, _ := leansrc.Scan(sig)
		for _, t := range toks {
			if t.Kind == leansrc.TokIdent {
				set[string(sig[t.Start:t.End])] = true
			}
		}
	}
	return set
}

// classify resolves r and sets its Status and Target.
func (c *Checker) classify(r *Ref, bound map[string]bool, local Known) {
	known := func(n string) bool { return c.known[n] || local[n] }
	if n := c.Resolve(r.Name, r.Scope, r.Self); n != "" {
		r.Target = n
		r.Status = Resolved
		if d, ok := c.lib.Lookup(n); ok && deprecated(d) {
			r.Status = Deprecated
		}
		return
	}
	if n := c.quoted(r); n != "" {
		r.Target, r.Status = n, Resolved
		return
	}
	for _, ns := range r.fileSpaces {
		sc := &leansrc.Scope{Namespace: ns}
		if n := c.Resolve(r.Name, sc, ""); n != "" {
			r.Target, r.Status = n, Resolved
			return
		}
		if strings.Contains(r.Name, ".") && c.generated(&Ref{Name: r.Name, Scope: sc}, r.Name) {
			r.Status = Resolved
			return
		}
	}
	id := strings.TrimPrefix(r.Name, "_root_.")
	head, _, dotted := strings.Cut(id, ".")
	switch {
	case !dotted && (bound[id] || mathVariable(id)):
		r.Status = Bound
	case dotted && c.localHead(r, head, bound):
		r.Status = Bound // field notation on a local: `f.map_add`, `hx.le`
	case placeholder(id):
		r.Status = Bound
	case auxiliary(names.Last(id)) || (!dotted && generatedSuffixes[id]) || c.simpsLemma(r, id):
		r.Status = External
	case dotted && c.generated(r, id):
		r.Status = Resolved
	case dotted && generatedSuffixes[names.Last(id)] && known(parent(id)):
		// Lean generates it for a type the code uses but the index lacks
		// (Batteries' `Rat.casesOn` without Batteries' sources).
		r.Status = External
	case !dotted && plainWord(id):
		r.Status = Bound // an English word in backticks (`rich`, `Input`)
	case !dotted && lean3Words[id]:
		r.Status = External // Lean 3 vocabulary
	case c.missing[strings.ToLower(head)]:
		r.Status = External // a package of the manifest that is not indexed
	case !dotted && (strings.Contains(id, "?") || strings.HasPrefix(id, "_") || strings.HasSuffix(id, "_")):
		r.Status = Bound // a tactic (`rw?`) or a piece of names (`_left`)
	case c.coreMissing && (coreRoots[head] || coreOptions[head] || coreTypes[parent(id)] || opensCore(r)):
		r.Status = External // may be Lean's own, whose sources are absent
	case !dotted && r.Whole && strings.HasSuffix(id, "s") && c.Resolve(id[:len(id)-1], r.Scope, r.Self) != "":
		r.Status = Bound // a plural in prose: `ProperSpaces`
	case strings.HasSuffix(id, ".lean"):
		r.Status = Namespace // a file name
	case c.anyExpansion(r, func(n string) bool { return c.spaces[n] }):
		r.Status = Namespace
	case c.anyExpansion(r, known) && !(dotted && len(c.ix.Suffix(id)) > 0):
		// Code uses the name, and no indexed declaration could be meant
		// (`Widget.double` out of its namespace is a mistake, not Lean's).
		r.Status = External
	case !dotted && c.fragment(id):
		r.Status = Bound
	default:
		r.Status = Unresolved
	}
}

// keywords are Lean keywords that declaration names use as components in
// «guillemets» (`PLift.«exists»`), which documentation writes bare.
var keywords = map[string]bool{"exists": true, "forall": true, "fun": true, "if": true, "then": true, "else": true,
	"match": true, "with": true, "do": true, "at": true, "by": true, "have": true, "show": true, "from": true,
	"let": true, "in": true, "end": true, "open": true, "def": true, "instance": true, "where": true, "mutual": true}

// quoted resolves a reference whose components include keywords by
// quoting them (`PLift.exists` → `PLift.«exists»`), or returns "".
func (c *Checker) quoted(r *Ref) string {
	parts := strings.Split(r.Name, ".")
	changed := false
	for i, p := range parts {
		if keywords[p] {
			parts[i] = "«" + p + "»"
			changed = true
		}
	}
	if !changed {
		return ""
	}
	return c.Resolve(strings.Join(parts, "."), r.Scope, r.Self)
}

// localHead reports whether the first component head of a dotted
// reference is a local rather than a namespace: it resolves to nothing, and
// it is bound, lower-case, or a one- or two-letter name (`X`, `L₀`).
func (c *Checker) localHead(r *Ref, head string, bound map[string]bool) bool {
	if bound[head] {
		return true
	}
	if c.Resolve(head, r.Scope, r.Self) != "" {
		return false
	}
	letters := 0
	for _, ch := range head {
		if isSubscript(ch) {
			return true // `IsPolyₙ`, `Fₙ`
		}
		if unicode.IsLetter(ch) {
			letters++
		}
	}
	if letters <= 2 {
		return true // `M.toDFA`, `L₀.X₃`
	}
	if c.anyExpansion(&Ref{Name: head, Scope: r.Scope, Self: r.Self}, func(n string) bool { return c.spaces[n] }) {
		return false
	}
	first, _ := utf8.DecodeRuneInString(head)
	return unicode.IsLower(first)
}

// historicalMarkers mark comments that name old or future declarations on
// purpose: porting notes about mathlib3 and TODOs.
var historicalMarkers = []string{"porting note", "mathlib3", "mathlib 3", "lean 3", "lean3", "mathport", "todo",
	"not yet", "used to", "was called", "previously", "formerly", "anymore", "no longer"}

// historical reports whether a comment text is a porting note or a TODO,
// whose names are not meant to resolve.
func historical(text []byte) bool {
	low := strings.ToLower(string(text))
	for _, m := range historicalMarkers {
		if strings.Contains(low, m) {
			return true
		}
	}
	return false
}

// hypotheticalMarkers mark lines that may name declarations which do not
// exist on purpose: their findings are not sure.
var hypotheticalMarkers = []string{"doesn't exist", "does not exist", "don't have", "do not have", "no need for",
	"not exist", "not defined", "we could", "would be", "no `", "not in the namespace", "might want", "can't",
	"cannot", "is defined", "not implemented", "rather than", "should be called", "project:", "don't currently",
	"add `", "assuming `", "complain", "do not define", "don't define", "we shorten", "irrelevant", "to exist",
	"` not `", "if we had", "ever acquires", "would not", "` vs. `", "such a thing", "not needed", "avoid the",
	"suppose we", "imagine", "hypothetical"}

// hypothetical reports whether a line may say the names it mentions do not
// exist.
func hypothetical(line []byte) bool {
	low := strings.ToLower(string(line))
	for _, m := range hypotheticalMarkers {
		if strings.Contains(low, m) {
			return true
		}
	}
	return false
}

// lineOf returns the line of src holding offset off.
func lineOf(src []byte, off int) []byte {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		return src[start:]
	}
	return src[start : off+end]
}

// commentedOut reports whether a comment holds commented-out code or
// comments (`-- /-- …`, `-- -- …`).
func commentedOut(body []byte) bool {
	t := bytes.TrimSpace(body)
	return bytes.HasPrefix(t, []byte("/-")) || bytes.HasPrefix(t, []byte("--"))
}

// placeholders are the words documentation uses for made-up names.
var placeholders = []string{"foo", "Foo", "bar", "Bar", "baz", "xxx", "XXX", "Ixx", "Ixy", "something"}

// placeholder reports whether a name is a made-up example (`Foo.bar`,
// `ciSup_xxx`, `toFoo`).
func placeholder(id string) bool {
	for _, p := range placeholders {
		if strings.Contains(id, p) {
			return true
		}
	}
	for _, part := range strings.Split(id, ".") {
		if len(part) > 2 && strings.HasPrefix(part, "My") && part[2] >= 'A' && part[2] <= 'Z' {
			return true // `MyHom`, `MyStructure.foo`
		}
	}
	if strings.ContainsRune(id, 'ₓ') {
		return true // mathlib3's aligned names (`Commute.allₓ`)
	}
	return citation(id)
}

// citation reports whether id is a bibliography key (`bourbaki1975b`).
func citation(id string) bool {
	i := 0
	for i < len(id) && id[i] >= 'a' && id[i] <= 'z' {
		i++
	}
	j := i
	for j < len(id) && id[j] >= '0' && id[j] <= '9' {
		j++
	}
	return i > 0 && j-i == 4 && len(id)-j <= 1
}

// auxiliary reports whether a last component names a declaration Lean
// generates and numbers (`match_1`, `proof_2`, `eq_3`), or one that
// @[simps] or the instance-naming rule generates, which source does not
// spell: the index cannot judge them.
func auxiliary(last string) bool {
	for _, p := range []string{"match_", "proof_", "eq_", "_aux_"} {
		if i := strings.LastIndex(last, p); i >= 0 && i+len(p) < len(last) && last[i+len(p)] >= '0' && last[i+len(p)] <= '9' {
			return true
		}
	}
	return strings.HasPrefix(last, "inst") && len(last) > 4 && last[4] >= 'A' && last[4] <= 'Z'
}

// fragment reports whether an undotted name is a piece of declaration
// names rather than a name: it occurs between underscores or at an end of
// the last component of some declaration (`rat_smul`, `csSup`, `isMinOn`
// as naming conventions).
func (c *Checker) fragment(id string) bool {
	return c.ix.Contains("_"+id+"_") || c.ix.Contains("."+id+"_") || c.ix.EndsWith("_"+id)
}

// generatedSuffixes are the declarations Lean generates for a type
// (recursors, injectivity, sizeOf) or for any definition (equation lemmas),
// which no source file declares.
var generatedSuffixes = map[string]bool{"rec": true, "recOn": true, "casesOn": true, "noConfusion": true,
	"noConfusionType": true, "below": true, "brecOn": true, "binductionOn": true, "ibelow": true, "inj": true,
	"injEq": true, "sizeOf_spec": true, "ext_iff": true, "eq_def": true, "eq_1": true, "eq_2": true,
	"induct": true, "mk": true, "ctorIdx": true}

// coreRoots are the root namespaces of Lean's own library: without Lean's
// sources in the workspace, names under them cannot be checked.
var coreRoots = map[string]bool{"Lean": true, "Std": true, "Init": true, "IO": true, "Lake": true}

// coreTypes are namespaces that Lean's core library owns (Mathlib only adds
// to them): without Lean's sources, `List.foo` cannot be checked.
var coreTypes = map[string]bool{"List": true, "Array": true, "String": true, "Char": true, "Option": true,
	"Int": true, "Nat": true, "Fin": true, "Bool": true, "Prod": true, "Sum": true, "Subtype": true, "Function": true,
	"Except": true, "Task": true, "Thunk": true, "Id": true, "Decidable": true, "Eq": true, "Ne": true, "Iff": true,
	"And": true, "Or": true, "Not": true, "HEq": true, "Quot": true, "Quotient": true, "Sigma": true, "PSigma": true,
	"Exists": true, "Float": true, "UInt8": true, "UInt16": true, "UInt32": true, "UInt64": true, "USize": true,
	"ByteArray": true, "Substring": true, "Syntax": true, "Expr": true, "Name": true, "MVarId": true, "FVarId": true,
	"Functor": true, "Monad": true, "Applicative": true, "Pure": true, "Bind": true, "Seq": true, "StateT": true,
	"ReaderT": true, "ExceptT": true, "OptionT": true, "EStateM": true, "HashMap": true, "PUnit": true, "Unit": true}

// plainWord reports whether an undotted name is a word rather than a
// declaration name: lower-case letters only (`abbreviation`), or one
// capital followed by lower-case letters (`Input`, `Leaf`). Declaration
// names carry an underscore, a digit, a prime or a second capital.
func plainWord(id string) bool {
	for i, r := range id {
		switch {
		case r >= 'a' && r <= 'z':
		case r >= 'A' && r <= 'Z' && i == 0:
		default:
			return false
		}
	}
	return id != ""
}

// lean3Words are Lean 3 keywords and tactics that mathlib's comments
// still mention; they name nothing in Lean 4.
var lean3Words = map[string]bool{"meta": true, "begin": true, "tidy": true, "obviously": true, "elide": true,
	"unelide": true, "squeeze_simp": true, "case_bash": true, "rewrite_search": true, "library_search": true,
	"hint": true, "localized": true, "finish": true, "nlinarith!": true, "equiv_rw": true, "auto_cases": true,
	"reducible_and_instances": true}

// coreOptions are the first components of Lean's own options
// (`set_option pp.all`, `maxHeartbeats`).
var coreOptions = map[string]bool{"pp": true, "trace": true, "linter": true, "maxHeartbeats": true,
	"maxRecDepth": true, "autoImplicit": true, "relaxedAutoImplicit": true, "warningAsError": true,
	"synthInstance": true, "backward": true, "debug": true, "profiler": true, "diagnostics": true, "compiler": true}

// opensCore reports whether a reference's scope (or, in a module
// docstring, its file) is inside or opens one of Lean's own
// namespaces (`open Lean Meta`): metaprogramming code, whose names come
// from Lean's library.
func opensCore(r *Ref) bool {
	spaces := r.fileSpaces
	if sc := r.Scope; sc != nil {
		spaces = append(append([]string{sc.Namespace}, sc.Opens...), spaces...)
	}
	for _, n := range spaces {
		head, _, _ := strings.Cut(n, ".")
		if coreRoots[head] || (head == "Mathlib" && strings.HasPrefix(n, "Mathlib.Tactic")) {
			return true
		}
	}
	return false
}

// generated reports whether a dotted name is one Lean generates for its
// prefix (`Foo.rec`, `foo.eq_def`), or a field of a structure reached
// through an extending structure (`DivisionMonoid.div_eq_mul_inv`).
func (c *Checker) generated(r *Ref, id string) bool {
	i := strings.LastIndexByte(id, '.')
	pre, last := id[:i], id[i+1:]
	n := c.Resolve(pre, r.Scope, r.Self)
	if n == "" {
		return false
	}
	if generatedSuffixes[last] {
		return true
	}
	d, ok := c.lib.Lookup(n)
	if !ok || !d.Kind.IsTypeLike() {
		return false
	}
	for _, m := range c.ix.Suffix(last) {
		if f, ok := c.lib.Lookup(m); ok && f.Kind == library.KindField {
			return true
		}
	}
	return false
}

// simpsLemma reports whether id is a lemma that @[simps] generates for a
// declaration (`foo_apply`, `foo_symm_apply`, `foo_toFun`): the prefix
// before the last underscore-separated projection carries `simps`.
func (c *Checker) simpsLemma(r *Ref, id string) bool {
	for i := strings.LastIndexByte(id, '_'); i > 0; i = strings.LastIndexByte(id[:i], '_') {
		n := c.Resolve(id[:i], r.Scope, r.Self)
		if n == "" {
			continue
		}
		d, ok := c.lib.Lookup(n)
		if !ok {
			return false
		}
		for _, a := range d.Attrs {
			if strings.HasPrefix(a, "simps") {
				return true
			}
		}
		return false
	}
	return false
}

// mathVariable reports whether an undotted name is written like a
// mathematical variable rather than a declaration: with subscripts (`tᵢ`,
// `Fₙ`), as a one- or two-letter name with an index (`p_i`, `X_0`, `A_f`),
// in capitals of at most four letters (`ABCD`), or as a factorial (`n!`).
func mathVariable(id string) bool {
	for _, ch := range id {
		if isSubscript(ch) {
			return true
		}
	}
	if strings.HasSuffix(id, "!") {
		return true
	}
	if h, t, ok := strings.Cut(id, "_"); ok && len([]rune(h)) <= 3 && len([]rune(t)) <= 2 && h != "" && t != "" {
		return true // `p_i`, `X_0`, `val_v`
	}
	if i := strings.IndexByte(id, '\''); i > 0 && strings.TrimRight(id[i:], "'") != "" {
		return true // notation with a prime inside: `F'Uε_Y`
	}
	if i := strings.LastIndexByte(id, '_'); i > 0 && len(id)-i == 2 && strings.ContainsAny(id[i+1:], "ijkmn") {
		return true // an indexed name: `module_i`
	}
	if n := len([]rune(id)); n <= 2 || (n <= 4 && strings.ToUpper(id) == id) {
		return true
	}
	return false
}

// isSubscript reports whether ch is a Unicode subscript or modifier letter
// used for indices (ᵢ, ₙ, ₀, ᵣ).
func isSubscript(ch rune) bool {
	return (ch >= 0x2080 && ch <= 0x209c) || (ch >= 0x1d62 && ch <= 0x1d6a) || ch == 0x2c7c
}

// Resolve returns the full name id denotes in scope sc inside declaration
// self, as Lean resolves it, or "". A dotted name whose prefix is a theorem
// resolves to that theorem when the rest is a projection (`foo.mp`,
// `foo.symm`): generalized field notation on the proof.
func (c *Checker) Resolve(id string, sc *leansrc.Scope, self string) string {
	if n := c.lib.Resolve(id, sc, self); n != "" {
		return n
	}
	pre := id
	for k := 0; k < 2; k++ {
		i := strings.LastIndexByte(pre, '.')
		if i <= 0 {
			return ""
		}
		rest := id[i+1:]
		pre = pre[:i]
		if n := c.lib.Resolve(pre, sc, self); n != "" {
			if d, ok := c.lib.Lookup(n); ok && !d.Kind.IsTypeLike() && c.projection(rest) {
				return n
			}
			return ""
		}
	}
	return ""
}

// projection reports whether every component of rest is a number or the
// last component of some declaration (a field or lemma that generalized
// field notation can reach).
func (c *Checker) projection(rest string) bool {
	for _, p := range strings.Split(rest, ".") {
		if p == "" {
			return false
		}
		if p[0] >= '0' && p[0] <= '9' {
			continue
		}
		if len(c.ix.Suffix(p)) == 0 {
			return false
		}
	}
	return true
}

// anyExpansion reports whether pred holds for the reference's name as
// written or qualified by a namespace in force (the documented
// declaration's, the current ones, the opened ones).
func (c *Checker) anyExpansion(r *Ref, pred func(string) bool) bool {
	id := strings.TrimPrefix(r.Name, "_root_.")
	if pred(id) {
		return true
	}
	try := func(ns string) bool {
		for ; ns != ""; ns = parent(ns) {
			if pred(ns + "." + id) {
				return true
			}
		}
		return false
	}
	if try(parent(r.Self)) {
		return true
	}
	if r.Scope != nil {
		if try(r.Scope.Namespace) {
			return true
		}
		for _, o := range r.Scope.Opens {
			if pred(o + "." + id) {
				return true
			}
		}
	}
	for _, ns := range r.fileSpaces {
		if pred(ns + "." + id) {
			return true
		}
	}
	return false
}

// parent drops the last component of a dotted name.
func parent(n string) string {
	if i := strings.LastIndexByte(n, '.'); i > 0 {
		return n[:i]
	}
	return ""
}

// declaredIn reports whether the declaration named n is declared in the
// file with module name mod: a file may discuss what it deprecates.
func (c *Checker) declaredIn(n, mod string) bool {
	d, ok := c.lib.Lookup(n)
	return ok && mod != "" && d.Module == mod
}

// deprecatedModule reports whether a module gathers deprecated material
// (`Mathlib.Deprecated.…`), whose comments name deprecated declarations.
func deprecatedModule(mod string) bool {
	return strings.HasPrefix(mod, "Deprecated.") || strings.Contains(mod, ".Deprecated.")
}

// isDeprecated reports whether the declaration named n is deprecated: its
// comments may name what it replaced.
func (c *Checker) isDeprecated(n string) bool {
	d, ok := c.lib.Lookup(n)
	return ok && deprecated(d)
}

// deprecated reports whether d carries @[deprecated].
func deprecated(d *library.Decl) bool {
	return deprecation(d) != ""
}

// deprecation returns d's `deprecated …` attribute text, or "".
func deprecation(d *library.Decl) string {
	for _, a := range d.Attrs {
		if a == "deprecated" || strings.HasPrefix(a, "deprecated ") {
			return a
		}
	}
	return ""
}

// Findings returns the references of refs that are findings: unresolved
// names that look like references (the whole span, or a dotted name inside
// an expression) and deprecated ones, each with suggestions.
func (c *Checker) Findings(refs []Ref) []Finding {
	var out []Finding
	for _, r := range refs {
		switch {
		case r.Status == Deprecated && r.Self != r.Target && !c.isDeprecated(r.Self) && !c.declaredIn(r.Target, r.module) && !deprecatedModule(r.module):
			f := Finding{Ref: r}
			if n := c.Replacement(r.Target); n != "" {
				f.Suggestions, f.Sure = []string{c.Spelling(n, r)}, !r.Hedged
			}
			out = append(out, f)
		case r.Status == Unresolved && (r.Whole || strings.Contains(r.Name, ".")):
			f := Finding{Ref: r}
			f.Suggestions, f.Sure = c.suggest(r)
			f.Sure = f.Sure && !r.Hedged
			out = append(out, f)
		}
	}
	return out
}

// Replacement returns the full name that replaces a deprecated declaration:
// an alias's target or the name given to @[deprecated], "" when none.
func (c *Checker) Replacement(name string) string {
	d, ok := c.lib.Lookup(name)
	if !ok {
		return ""
	}
	if d.Kind == library.KindAlias && d.Parent != "" {
		return d.Parent
	}
	a := strings.TrimSpace(strings.TrimPrefix(deprecation(d), "deprecated"))
	toks, _ := leansrc.Scan([]byte(a))
	if len(toks) == 0 || toks[0].Kind != leansrc.TokIdent {
		return ""
	}
	return c.lib.Resolve(a[toks[0].Start:toks[0].End], nil, d.Name)
}

// Spelling returns how to write full name n at reference r: its shortest
// dotted suffix, with at least as many components as r's name, that
// resolves to n there.
func (c *Checker) Spelling(n string, r Ref) string {
	min := strings.Count(strings.TrimPrefix(r.Name, "_root_."), ".") + 1
	parts := strings.Split(n, ".")
	for k := min; k < len(parts); k++ {
		s := strings.Join(parts[len(parts)-k:], ".")
		if c.lib.Resolve(s, r.Scope, r.Self) == n {
			return s
		}
	}
	return n
}

// maxSuggestions bounds the suggestions of one finding.
const maxSuggestions = 5

// suggest proposes names for an unresolved reference, closest first, and
// whether the best one is the only one of its rank. Ranks: the to_additive
// twin of the name, then the same last component in another namespace
// (a move), then names within a small edit distance.
func (c *Checker) suggest(r Ref) ([]string, bool) {
	id := strings.TrimPrefix(r.Name, "_root_.")
	q := id
	if !strings.Contains(id, ".") {
		ns := parent(r.Self)
		if ns == "" && r.Scope != nil {
			ns = r.Scope.Namespace
		}
		if ns != "" {
			q = ns + "." + id
		}
	}
	type cand struct {
		n    string
		rank int
	}
	var cands []cand
	seen := map[string]bool{}
	last := names.Last(q)
	if add := library.GuessAdditiveName(last); add != last {
		for _, n := range []string{joinName(parent(q), add), add} {
			if c.ix.Exact(n) && !seen[n] {
				seen[n] = true
				cands = append(cands, cand{n, 0})
			}
		}
	}
	for _, n := range c.ix.Similar(q, 2*maxSuggestions) {
		if seen[n] {
			continue
		}
		seen[n] = true
		rank := 1
		if l := names.Last(n); l != last {
			rank = 1 + names.Distance(l, last)
			if parent(n) != parent(q) {
				rank += 2 // an edit and a move: farther than either
			}
		}
		cands = append(cands, cand{n, rank})
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].rank < cands[j].rank })
	if len(cands) > maxSuggestions {
		cands = cands[:maxSuggestions]
	}
	out := make([]string, len(cands))
	for i, cd := range cands {
		out[i] = c.Spelling(cd.n, r)
	}
	sure := len(cands) == 1 || (len(cands) > 1 && cands[0].rank < cands[1].rank)
	return out, sure && len(cands) > 0 && cands[0].rank <= 3
}

func joinName(ns, n string) string {
	if ns == "" {
		return n
	}
	return ns + "." + n
}
