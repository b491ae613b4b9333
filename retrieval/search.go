package retrieval

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"github.com/drift-lsp/drift-lsp/retrieval/lexical"
	"github.com/drift-lsp/drift-lsp/retrieval/names"
)

// SearchRanking switches the signals of the search ranking. DefaultSearch is
// what every caller gets; the switches exist for the ablation benchmark
// (docs/retrieval.md).
type SearchRanking struct {
	// Intent reads the query's intent (theorem, definition, name) and
	// applies the matching kind prior; off, a neutral kind prior is used.
	Intent bool
	// Phrase rewards consecutive query words found together (in a bold
	// term, the first sentence, one docstring sentence or the name) and
	// exact matches of the whole query.
	Phrase bool
	// Bold and Lead index the docstring's bold terms and first sentence as
	// fields of their own.
	Bold, Lead bool
	// Main favours the declarations a module docstring lists as main and
	// indexes the description it gives them.
	Main bool
	// Noise damps simp lemmas and deprecated aliases.
	Noise bool
	// Synonyms expands the query with the hand list and the synonyms mined
	// from the library.
	Synonyms bool
	// Lexicon adds, to the synonyms, the lexicon of Lean's naming
	// conventions: the name parts mined from the library and the
	// hand-checked abbreviations (leanConventions).
	Lexicon bool
	// Forms makes candidates of the declarations whose names the query's
	// words spell (nameForms).
	Forms bool
	// Names fuses in the name channel for identifiers in the query.
	Names bool
	// Statement indexes what a declaration states (statement.go) as a
	// field of its own, and reads the query's notation (LaTeX and Unicode
	// symbols) through the symbols the library's statements use.
	Statement bool
	// Dense adds the sentence encoder's cosine between the query and each
	// candidate's stored vector as a feature of the ranking (not a
	// channel: it adds no candidates); off by default (docs/retrieval.md).
	Dense bool
	// Plain replaces the first stage by plain BM25 over name pieces and
	// docstrings and drops every prior: the baseline of the benchmark (use
	// with every other switch off).
	Plain bool
	// w are the signal weights (nil: defaultWeights); the tuner sets them.
	w *searchWeights
}

// weights returns the ranking's signal weights.
func (r SearchRanking) weights() *searchWeights {
	if r.w == nil {
		return &defaultWeights
	}
	return r.w
}

// DefaultSearch is the search ranking used by workspace/symbol, the editor
// commands, `drift-lsp search` and `bench search`.
var DefaultSearch = SearchRanking{
	Intent: true, Phrase: true, Bold: true, Lead: true, Main: true, Noise: true, Lexicon: true, Forms: true,
	Synonyms: true, Names: true, Statement: true,
}

// BaselineSearch is plain BM25 over split names and docstrings, with no
// Lean or Mathlib knowledge: the baseline that bench search reports.
var BaselineSearch = SearchRanking{Plain: true}

// SearchSignals names the switches of SearchRanking for `bench search
// --toggle`; Toggle flips one.
var SearchSignals = []string{"intent", "phrase", "bold", "lead", "main", "noise", "synonyms", "lexicon", "forms", "names", "dense", "statement"}

// Toggle returns r with the named signal switched (off when it was on, on
// when it was off).
func (r SearchRanking) Toggle(signal string) (SearchRanking, error) {
	p := map[string]*bool{"intent": &r.Intent, "phrase": &r.Phrase, "bold": &r.Bold, "lead": &r.Lead, "main": &r.Main,
		"noise": &r.Noise, "synonyms": &r.Synonyms, "lexicon": &r.Lexicon, "forms": &r.Forms, "names": &r.Names, "dense": &r.Dense, "statement": &r.Statement}[signal]
	if p == nil {
		return r, fmt.Errorf("unknown search signal %q (known: %s)", signal, strings.Join(SearchSignals, ", "))
	}
	*p = !*p
	return r, nil
}

// The weight of a synonym's rewrite of the whole query in exact matches,
// the size of the candidate pool that the second stage re-ranks and the
// depth to which it computes the phrase features.
const (
	synonymWeight = 0.7
	searchPool    = 200
	phraseDepth   = 80
	maxQueryTerms = 32
)

// Search runs library search for a human query: every kind of declaration
// (or those in q.Kinds) is a candidate, ranked by DefaultSearch.
func (e *Engine) Search(ctx context.Context, q Query) ([]Hit, error) {
	return e.SearchWith(ctx, q, DefaultSearch)
}

// SearchWith is Search with the given signals (for the ablation).
func (e *Engine) SearchWith(ctx context.Context, q Query, sr SearchRanking) ([]Hit, error) {
	s, err := e.current()
	if err != nil {
		return nil, err
	}
	return e.search(ctx, s, q, sr)
}

// search ranks snapshot s for q.
func (e *Engine) search(ctx context.Context, s *snapshot, q Query, sr SearchRanking) ([]Hit, error) {
	k := q.K
	if k <= 0 {
		k = 10
	}
	w := sr.weights()
	cs, intent, err := e.searchCandidates(ctx, s, q, sr, phraseDepth)
	if err != nil || len(cs) == 0 {
		return []Hit{}, err
	}
	for _, c := range cs {
		c.score = c.rescore(w, intent, sr, s.decl(c.slot), e.ranking.UserBoost)
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		return docID(s.decl(cs[i].slot)) < docID(s.decl(cs[j].slot))
	})
	hits := make([]Hit, 0, k)
	seen := map[string]bool{}
	for _, c := range cs {
		d := s.decl(c.slot)
		if seen[d.Name] {
			continue
		}
		seen[d.Name] = true
		hits = append(hits, Hit{Decl: d, Score: c.score, Channels: c.channels(), Why: c.why(intent), Summary: leansrc.FirstSentence(d.Doc)})
		if len(hits) == k {
			break
		}
	}
	return hits, nil
}

// searchCandidates gathers the candidates of q with their features: the
// first stage's best, the name channel's and dense hits, with the phrase
// features of the depth best by lexical evidence and channel bonuses (the
// rest cannot reach the top k). The tuner calls it with an unbounded depth
// and scores the candidates under many weights.
func (e *Engine) searchCandidates(ctx context.Context, s *snapshot, q Query, sr SearchRanking, depth int) ([]*candidate, Intent, error) {
	text := clip(q.Text)
	// The words a query matches: its claim when it announces one ("a
	// lemma stating that X" → X); the announcement itself still reads as
	// asking for a result (intent, statements).
	words := text
	if claim, ok := statedClaim(text); ok && sr.Intent {
		words = claim
	}
	seq := lexical.Terms(words + "\n" + clip(q.Formal))
	if len(seq) > maxQueryTerms {
		seq = seq[:maxQueryTerms]
	}
	var nameHits []string
	if sr.Names {
		nameHits = e.nameMatches(s, text, q.Formal)
		if len(nameHits) == 0 && !strings.ContainsAny(strings.TrimSpace(text), " \t\n") {
			// A single word may be a name's last component ("gcd").
			nameHits = s.names.Suffix(strings.TrimSpace(text))
			if len(nameHits) > 50 {
				nameHits = nameHits[:50]
			}
		}
	}
	if len(seq) == 0 && len(nameHits) == 0 {
		if strings.TrimSpace(text+q.Formal) == "" {
			return nil, IntentAny, ErrEmptyQuery
		}
		return nil, IntentAny, nil
	}
	w := sr.weights()
	intent := IntentAny
	if sr.Intent {
		intent = DetectIntent(text)
	}
	var syn *synonymTable
	if sr.Synonyms {
		syn = e.synonyms(s)
		if !sr.Lexicon {
			syn = syn.only("hand")
		}
	}
	allowed := func(d *library.Decl) bool {
		return len(q.Kinds) == 0 || slices.Contains(q.Kinds, d.Kind)
	}
	qs := uniq(seq)
	// Notation names its lemmas by Lean's conventions
	// (0 ≤ x → …_nonneg, |A| → card).
	for _, t := range lexical.NotationWords(words) {
		if len(qs) < maxQueryTerms && !slices.Contains(qs, t) {
			qs = append(qs, t)
		}
	}
	exps := syn.expand(qs)
	if sr.Statement {
		sr.Statement = stmtQuery(text, q.Formal)
		if sr.Statement && writesNotation(text, q.Formal) && w.StmtNotation != 1 {
			// A query in notation is asked against statements above all.
			wc := *w
			wc.Stmt *= wc.StmtNotation
			w = &wc
		}
		if sr.Statement && w.StmtUndoc != 1 && !statesResult(text, q.Formal) {
			wc := *w
			wc.StmtUndoc = 1
			w = &wc
		}
	}
	if sr.Statement {
		// The query's notation: LaTeX read as the symbols it typesets,
		// each a query term of its own (matched in the statement field),
		// and the words the library's statements use each symbol for.
		have := map[string]bool{}
		for _, t := range qs {
			have[t] = true
		}
		st := e.synonyms(s).sym
		for _, sym := range lexical.QuerySymbols(words + "\n" + clip(q.Formal)) {
			if isBracketHead(sym) && (st == nil || len(st.words[sym]) == 0) {
				continue // H[ the library declares no notation for
			}
			if len(qs) < maxQueryTerms && !have[sym] {
				have[sym] = true
				qs = append(qs, sym)
			}
		}
		for _, x := range exps {
			have[x.term] = true
		}
		exps = append(exps, st.expandSymbols(qs, have)...)
	}
	alts := syn.rewrites(seq)
	// Declarations whose names the query's words spell by Lean's naming
	// conventions are candidates wherever the first stage ranks them, for
	// a topic-shaped query (a sentence names no declaration; its forms only
	// cost time).
	spelledSlots := map[int32]bool{}
	if sr.Forms && intent != IntentName && len(strings.Fields(words)) <= maxFormWords {
		for _, form := range nameForms(words) {
			ns := s.names.Suffix(form)
			for _, n := range ns[:min(len(ns), maxFormHits)] {
				for _, sl := range s.slotsOf(n) {
					spelledSlots[sl] = true
				}
			}
		}
	}
	// A query that defines a term ("a set is called \emph{small} if …")
	// asks for the declaration named by the term: its name forms and the
	// best matches of the term alone are candidates, and a name spelling
	// the term is a concept match.
	defTerm, defines := definedTerm(text)
	defines = defines && sr.Forms
	if defines {
		for _, form := range nameForms(defTerm) {
			ns := s.names.Suffix(form)
			for _, n := range ns[:min(len(ns), maxFormHits)] {
				for _, sl := range s.slotsOf(n) {
					spelledSlots[sl] = true
				}
			}
		}
		tq := uniq(lexical.Terms(defTerm))
		for _, sl := range s.humanScores(tq, syn.expand(tq), sr, w, nil, searchPool).slots {
			spelledSlots[sl] = true
		}
	}
	first := s.humanScores(qs, exps, sr, w, spelledSlots, searchPool)
	cands := map[int32]*candidate{}
	get := func(sl int32) *candidate {
		c := cands[sl]
		if c == nil {
			c = &candidate{slot: sl}
			cands[sl] = c
		}
		return c
	}
	if len(first.slots) > 0 {
		top := first.scores[0]
		for i, sl := range first.slots {
			c := get(sl)
			c.base = first.scores[i] / top
			c.lexRank = i + 1
		}
	}
	if len(first.slots) > 0 {
		for sl := range spelledSlots {
			if c := get(sl); c.lexRank == 0 {
				c.base = first.extra[sl] / first.scores[0]
			}
		}
	}
	if sr.Names {
		exact := strings.TrimSpace(text)
		for i, n := range nameHits {
			for _, sl := range s.slotsOf(n) {
				c := get(sl)
				c.nameRank = i + 1
				c.nameHit += 1 / (1 + float64(i)/5)
				if n == exact {
					c.nameExact++
				}
			}
		}
		// A synonym's target written as a type name (vector space →
		// Module, group homomorphism → MonoidHom) is a name match.
		for _, n := range syn.names(seq) {
			if s.names.Exact(n) {
				for _, sl := range s.slotsOf(n) {
					c := get(sl)
					c.nameRank = max(c.nameRank, 1)
					c.synName++
				}
			}
		}
	}
	pool := make([]*candidate, 0, len(cands))
	for _, c := range cands {
		if allowed(s.decl(c.slot)) {
			c.score = c.base + c.channelBonus(w)
			pool = append(pool, c)
		}
	}
	sort.Slice(pool, func(i, j int) bool {
		if pool[i].score != pool[j].score {
			return pool[i].score > pool[j].score
		}
		return pool[i].slot < pool[j].slot
	})
	if sr.Plain {
		return pool, intent, nil
	}
	if x := e.dense.Load(); sr.Dense && e.ranking.Dense && x != nil && len(seq) > 0 {
		slots := make([]int32, len(pool))
		for i, c := range pool {
			slots[i] = c.slot
		}
		for i, v := range x.similarities(ctx, s, words, slots) {
			pool[i].dense = float64(v)
		}
	}
	spelled := s.spelledBy(qs, exps)
	if defines {
		tq := uniq(lexical.Terms(defTerm))
		whole, term := spelled, s.spelledBy(tq, syn.expand(tq))
		spelled = func(sl int32) float64 { return max(whole(sl), term(sl)) }
	}
	two := s.twoTermsIn(seq)
	for i, c := range pool {
		d := s.decl(c.slot)
		if sr.Phrase && i < depth {
			c.phrase(d, seq, alts, sr.Main, two(fLead, c.slot), two(fDoc, c.slot))
		}
		c.spelled = spelled(c.slot)
		c.pop = s.popularity(d.Name)
	}
	return pool, intent, nil
}

// stmtMinWords is the length from which a query without notation or a
// theorem cue is read against statements too.
const stmtMinWords = 7

// writesNotation reports whether a query writes notation: LaTeX, Lean in
// backticks or a formal guess, or Unicode symbols.
func writesNotation(text, formal string) bool {
	return strings.TrimSpace(formal) != "" || strings.ContainsAny(text, "$`\\") || len(lexical.QuerySymbols(text)) > 0
}

// stmtQuery reports whether a query is matched against what declarations
// state: it writes notation (LaTeX, Unicode symbols, Lean in backticks),
// asks for a result in more than two words (IntentTheorem) or describes one
// at some length (not a definition). A short noun phrase names a concept,
// and two words a named theorem, which the name and docstring of the
// declaration match; against statements they match every lemma that uses
// the concept or the name (measured on topics-dev and Aesop's lead-dev:
// "Cantor's theorem", "The collection of declared rule sets").
func stmtQuery(text, formal string) bool {
	if writesNotation(text, formal) {
		return true
	}
	n := len(strings.Fields(text))
	if len(uniq(lexical.Terms(text))) < 2 {
		return false // one word left ("Or there is exactly one tree"): every statement using it matches
	}
	switch DetectIntent(text) {
	case IntentTheorem:
		// "Cantor's theorem" is a name, not a statement; "The collection of
		// declared rule sets" is a noun phrase whose cue word only modifies.
		return n > 2 && asksForResult(text)
	case IntentDefinition, IntentName:
		return false
	}
	return n >= stmtMinWords
}

// statesResult reports whether a query states a result: an announced claim
// ("the fact that …", statedClaim), a statement cue after the first word
// of its text ("a compact set is bounded below", "… implies …") or a
// formula with a relation in the text or the formal guess (`a ≤ b`,
// $x \in S$). A named theorem ("Hahn–Banach theorem"), a concept in
// notation ("$p$-adic number") or a formal guess without a relation
// (`Nat.Divides a b`, whose words are names) states nothing.
func statesResult(query, formal string) bool {
	if _, ok := statedClaim(query); ok {
		return true
	}
	if strings.ContainsAny(lexical.LaTeXToUnicode(query+"\n"+formal), "=≤≥<>≠↔⇔∣⊆⊂⊇∈∉≡≃≅") {
		return true
	}
	words := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\''
	})
	for i, w := range words {
		if i > 0 && statementCues[w] {
			return true
		}
	}
	return false
}

// asksForResult reports whether a query with the theorem intent asks for a
// result: an announced claim ("a lemma stating that …"), a statement cue
// after its first word ("every group is …"), or a theorem cue that heads
// its phrase — the last word, or followed by a preposition or "that"
// ("the rule of three", "a lemma stating that") — rather than modifying a
// noun ("rule sets", "test functions").
func asksForResult(query string) bool {
	if _, ok := statedClaim(query); ok {
		return true
	}
	words := strings.FieldsFunc(strings.ToLower(query), func(r rune) bool {
		return !unicode.IsLetter(r) && r != '\''
	})
	for i, w := range words {
		if i > 0 && statementCues[w] {
			return true
		}
		if theoremCues[strings.TrimSuffix(w, "'s")] && (i == len(words)-1 || cueHeads[words[i+1]]) {
			return true
		}
	}
	return false
}

// cueHeads are the words after which a theorem cue heads its phrase.
var cueHeads = map[string]bool{
	"of": true, "for": true, "on": true, "in": true, "about": true, "that": true, "stating": true,
	"saying": true, "showing": true, "which": true, "with": true, "to": true, "from": true, "by": true,
	"under": true, "between": true, "over": true, "at": true, "and": true, "or": true,
}

// maxFormHits bounds the declarations one name form adds as candidates;
// maxFormWords is the longest query (in words) whose forms are looked up.
const (
	maxFormHits  = 8
	maxFormWords = 6
)

// nameForms returns the Lean names that runs of one to three consecutive
// words of a query spell by the naming conventions: UpperCamelCase with the
// last word singular, with and without the Is prefix of predicates
// ("compact spaces" → Compact, IsCompact, CompactSpace, IsCompactSpace,
// Space, IsSpace). Runs never cross a stop word or a symbol.
func nameForms(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, run := range lexical.WordRuns(text) {
		for i := range run {
			for j := i + 1; j <= min(i+3, len(run)); j++ {
				var b strings.Builder
				for k, w := range run[i:j] {
					if k == j-i-1 {
						w = lexical.SingularForm(w)
					}
					r := []rune(w)
					b.WriteRune(unicode.ToUpper(r[0]))
					b.WriteString(string(r[1:]))
				}
				for _, f := range []string{b.String(), "Is" + b.String()} {
					if !seen[f] {
						seen[f] = true
						out = append(out, f)
					}
				}
			}
		}
	}
	return out
}

// channelBonus is what the name channel adds to c's first-stage score.
func (c *candidate) channelBonus(w *searchWeights) float64 {
	return w.NameHit*c.nameHit + w.NameExact*c.nameExact + w.SynName*c.synName
}

// rescore is c's score under the weights w for a query of intent in: the
// first-stage score, the channel bonuses and the phrase and name features,
// times the priors of d's kind and conventions.
func (c *candidate) rescore(w *searchWeights, in Intent, sr SearchRanking, d *library.Decl, userBoost float64) float64 {
	sc := c.base + c.channelBonus(w)
	if sr.Plain {
		return sc
	}
	sc += w.Phrase*c.phr + w.ExactBold*c.exactBold + w.ExactName*c.exactName + w.NameInQuery*c.spelled + w.Dense*c.dense
	sc *= w.kindPrior(in, d.Kind)
	if ns := strings.Count(d.Name, "."); ns > 0 {
		sc /= 1 + w.Depth*float64(ns)
	}
	if sr.Main && d.Main {
		sc *= w.MainBoost
	}
	if sr.Noise {
		sc *= noise(d)
	}
	if d.Private {
		sc *= w.Private
	}
	sc *= 1 + w.Pop*c.pop
	if d.User {
		sc *= userBoost
	}
	return sc
}

// queryWeights are the idf weights of the query terms qs: the larger of
// their docstring and name idf.
func (s *snapshot) queryWeights(qs []string) []float64 {
	ws := make([]float64, len(qs))
	for i, t := range qs {
		if isSymbolTerm(t) {
			ws[i] = s.idfAll(fStmt, t)
			continue
		}
		ws[i] = max(s.idfAll(fDoc, t), s.idfAll(fName, t))
	}
	return ws
}

// spelledBy returns the feature NameInQuery of a name: when every part of
// its last component is a query term or a lexicon term of the query (exps),
// the idf-weighted share of the query terms qs that its parts (namespace
// included) stand for, a capitalised name standing for the implicit head
// nouns too (implicitHeads), squared (a name that spells a word of a long
// sentence is no concept match); otherwise 0.
func (s *snapshot) spelledBy(qs []string, exps []expansion) func(sl int32) float64 {
	ws := s.queryWeights(qs)
	total := 0.0
	bits := map[string]uint64{}
	for i, t := range qs {
		total += ws[i]
		bits[t] |= 1 << i
	}
	for _, x := range exps {
		bits[x.term] |= x.covers
	}
	var heads uint64
	for i, t := range qs {
		if implicitHeads[t] {
			heads |= 1 << i
		}
	}
	return func(sl int32) float64 {
		// The last component's distinct terms are the slot's name terms.
		p, local := s.part(sl)
		var covered uint64
		for _, ti := range p.nameT.row(int(local)) {
			b, ok := bits[p.fields[fName].terms[ti]]
			if !ok {
				return 0
			}
			covered |= b
		}
		if covered == 0 || total <= 0 {
			return 0
		}
		name := s.decl(sl).Name
		last := names.Last(name)
		if ns := name[:len(name)-len(last)]; ns != "" {
			for _, t := range lexical.Terms(ns) {
				covered |= bits[t]
			}
		}
		if r, _ := utf8.DecodeRuneInString(last); unicode.IsUpper(r) {
			covered |= heads
		}
		v := 0.0
		for i, w := range ws {
			if covered&(1<<i) != 0 {
				v += w
			}
		}
		return (v / total) * (v / total)
	}
}

// implicitHeads are the (analyzed) nouns that a predicate's capitalised
// name leaves implicit by Lean's conventions: Continuous is a continuous
// function, Injective an injective map.
var implicitHeads = map[string]bool{lexical.Stem("function"): true, lexical.Stem("map"): true, lexical.Stem("mapping"): true}

// noise is the damping of declarations that are rarely what a person
// searches for: deprecated aliases and simp lemmas.
func noise(d *library.Decl) float64 {
	f := 1.0
	for _, a := range d.Attrs {
		switch {
		case strings.HasPrefix(a, "deprecated"):
			f *= 0.3
		case a == "simp" || strings.HasPrefix(a, "simp ") || a == "norm_cast" || a == "push_cast":
			f *= 0.8
		}
	}
	return f
}

// candidate is one declaration being ranked, with its evidence.
type candidate struct {
	slot              int32
	base, score       float64
	lexRank, nameRank int
	// nameHit sums the name channel's hits (1/(1 + rank/5)), nameExact
	// counts the query being the full name, synName a synonym's target
	// being it; dense is the cosine of the query and the declaration's
	// stored vector (0 without one); pop is popularity.
	nameHit, nameExact, synName, dense, pop float64
	// phr is the best share of consecutive query terms found together;
	// exactBold and exactName are 1 when a bold term or the name's pieces
	// equal the query's terms; spelled is the share of the query the name
	// spells (see spelledBy).
	phr, exactBold, exactName, spelled float64
	// where and what say which text matched best ("bold", "first
	// sentence", "docstring", "name") and that text.
	where, what string
}

// phrase computes the proximity features of c against the query terms
// (alts are the query rewritten by synonyms, which count for exact matches
// at a lower weight). The first sentence and the other docstring sentences
// are read only when lead and doc say that two query terms occur there
// (else no run of two can).
func (c *candidate) phrase(d *library.Decl, seq []string, alts [][]string, mainDoc, lead2, doc2 bool) {
	consider := func(where, text string, tseq []string, weight float64) {
		run := longestRun(seq, tseq)
		v := 0.0
		if len(seq) > 1 {
			v = weight * float64(run-1) / float64(len(seq)-1)
		}
		if v > c.phr {
			c.phr, c.where, c.what = v, where, text
		}
	}
	// exact is 1 when ts is the query, synonymWeight when it is the query
	// rewritten by a synonym.
	exact := func(ts []string) float64 {
		if slices.Equal(ts, seq) {
			return 1
		}
		for _, a := range alts {
			if slices.Equal(ts, a) {
				return synonymWeight
			}
		}
		return 0
	}
	nameSeq := lexical.Terms(names.Last(d.Name))
	if x := exact(nameSeq); x > 0 {
		c.exactName = x
		c.where, c.what = "name", d.Name
	}
	consider("name", d.Name, nameSeq, 1)
	for _, b := range leansrc.BoldTerms(d.Doc) {
		bs := lexical.Terms(b)
		if x := exact(bs); x > c.exactBold {
			c.exactBold = x
			c.phr, c.where, c.what = 1, "bold", b
		}
		consider("bold", b, bs, 1)
	}
	for _, a := range leansrc.AlsoKnownAs(d.Doc) {
		if x := exact(lexical.Terms(a)); x > c.exactBold {
			c.exactBold = x
			c.phr, c.where, c.what = 1, "also known as", a
		}
	}
	if c.exactBold == 1 {
		return
	}
	if mainDoc && d.MainDoc != "" {
		ms := lexical.Terms(d.MainDoc)
		if x := exact(ms); x > c.exactBold {
			c.exactBold = x
			c.phr, c.where, c.what = 1, "module docstring", d.MainDoc
		}
		consider("module docstring", d.MainDoc, ms, 1)
	}
	if len(seq) < 2 || d.Doc == "" || !lead2 && !doc2 {
		return
	}
	lead := leansrc.FirstSentence(d.Doc)
	if lead2 {
		consider("first sentence", lead, lexical.Terms(lead), 1)
	}
	if !doc2 {
		return
	}
	doc := d.Doc
	if len(doc) > 1200 {
		doc = doc[:1200]
	}
	for _, sent := range sentences(doc[min(len(lead), len(doc)):]) {
		consider("docstring", sent, lexical.Terms(sent), 0.8)
	}
}

// twoTermsIn returns whether field f (the first sentence or the docstring)
// of a slot holds two distinct terms of seq, read from the postings: only
// then can a run of two consecutive query terms occur in it (always true
// when seq repeats a term consecutively).
func (s *snapshot) twoTermsIn(seq []string) func(f field, sl int32) bool {
	for i := 1; i < len(seq); i++ {
		if seq[i] == seq[i-1] {
			return func(field, int32) bool { return true }
		}
	}
	qs := uniq(seq)
	lists := map[field][][2][]posting{}
	for _, f := range []field{fLead, fDoc} {
		for _, t := range qs {
			var l [2][]posting
			for i, pt := range []*part{s.base, s.over} {
				if ti := pt.fields[f].find(t); ti >= 0 {
					l[i] = pt.fields[f].list(ti)
				}
			}
			lists[f] = append(lists[f], l)
		}
	}
	return func(f field, sl int32) bool {
		i := 0
		if sl >= s.base.n() {
			i = 1
		}
		n := 0
		for _, l := range lists[f] {
			ps := l[i]
			k := sort.Search(len(ps), func(k int) bool { return ps[k].slot >= sl })
			if k < len(ps) && ps[k].slot == sl {
				if n++; n == 2 {
					return true
				}
			}
		}
		return false
	}
}

// sentences splits text at sentence ends and blank lines.
func sentences(text string) []string {
	var out []string
	for _, para := range strings.Split(text, "\n\n") {
		for len(para) > 0 {
			i := strings.Index(para, ". ")
			if i < 0 {
				out = append(out, para)
				break
			}
			out = append(out, para[:i+1])
			para = para[i+2:]
		}
	}
	return out
}

// longestRun is the length of the longest run of consecutive query terms
// (in query order) that occurs contiguously in t.
func longestRun(q, t []string) int {
	best := 0
	if len(q) > 0 && len(t) > 0 && slices.Contains(t, q[0]) {
		best = 1
	}
	for i := range t {
		for j := range q {
			if t[i] != q[j] {
				continue
			}
			n := 0
			for i+n < len(t) && j+n < len(q) && t[i+n] == q[j+n] {
				n++
			}
			best = max(best, n)
		}
	}
	return best
}

// channels reports the ranks at which the channels found c.
func (c *candidate) channels() map[string]int {
	out := map[string]int{}
	for ch, r := range map[string]int{"lexical": c.lexRank, "names": c.nameRank} {
		if r > 0 {
			out[ch] = r
		}
	}
	return out
}

// why explains in one line why c matched.
func (c *candidate) why(in Intent) string {
	var parts []string
	switch {
	case c.exactName > 0:
		parts = append(parts, "name matches the query")
	case c.exactBold > 0:
		parts = append(parts, fmt.Sprintf("%s %q", c.where, c.what))
	case c.phr > 0:
		parts = append(parts, fmt.Sprintf("phrase in %s: %q", c.where, textcut.Line(c.what, 120)))
	}
	if c.exactName == 0 && c.spelled > 0 {
		parts = append(parts, fmt.Sprintf("name spells %.0f%% of the query", 100*c.spelled))
	}
	if c.dense != 0 {
		parts = append(parts, fmt.Sprintf("dense cosine %.2f", c.dense))
	}
	for _, ch := range []struct {
		name string
		r    int
	}{{"lexical", c.lexRank}, {"names", c.nameRank}} {
		if ch.r > 0 {
			parts = append(parts, fmt.Sprintf("%s #%d", ch.name, ch.r))
		}
	}
	if in != IntentAny {
		parts = append(parts, "intent "+in.String())
	}
	return strings.Join(parts, "; ")
}

// synonyms returns the engine's synonym table, mined from the library the
// first time search needs it (later updates reuse it: it is vocabulary, not
// results).
func (e *Engine) synonyms(s *snapshot) *synonymTable {
	e.synOnce.Do(func() {
		start := time.Now()
		decls := s.liveDecls()
		sort.Slice(decls, func(i, j int) bool { return decls[i].Name < decls[j].Name })
		e.syn = mineSynonyms(decls)
		n := 0
		for _, rs := range e.syn.byFirst {
			n += len(rs)
		}
		if e.cfg.Logf != nil {
			e.cfg.Logf("retrieval: %d synonym rules mined in %v", n, time.Since(start).Round(time.Millisecond))
		}
	})
	return e.syn
}
