package retrieval

// searchWeights are the weights of the search ranking's signals. The
// defaults (defaultWeights) were fitted by coordinate ascent on the dev
// halves of the sets mined from Mathlib and from Aesop, a library that is
// not Mathlib, each library counting once and no dev set more than a
// point of MRR down (TestSearchTune; docs/retrieval.md, "Tuning on a third
// library").
type searchWeights struct {
	// Name, NS, Doc, Lead, Bold, Main and Stmt weigh the first stage's
	// fields. Doc is the search ranking's docstring weight; the premise
	// ranking has its own, Ranking.DocField (0.5): two rankings, two rules
	// (this one splits a docstring into lead, bold and main parts), each
	// tuned on its own task (docs/retrieval.md). Stmt was chosen on the dev
	// halves among 0.3, 0.45, 0.6, 0.8 and 1.0: the largest that keeps
	// topics-dev's R@10 at 70 (docs/retrieval.md, issue 29).
	Name, NS, Doc, Lead, Bold, Main, Stmt float64
	// StmtNotation multiplies Stmt for a query that writes notation (LaTeX,
	// Lean, symbols): chosen on the dev halves among 1, 1.67, 2, 2.5 and 4,
	// the largest keeping topics-dev's R@10 at 70 (docs/retrieval.md).
	StmtNotation float64
	// StmtUndoc multiplies Stmt for a declaration without a docstring
	// (only its name and statement can match it) under a query that states
	// a result (statesResult): chosen on the dev halves among 1, 1.5, 2 and
	// 3 with the undocumented-theorem set (docs/retrieval.md): the largest
	// that keeps topics-dev and the other libraries' lead sets (one Con-NF
	// query lower at rank 1).
	StmtUndoc float64
	// Synonym weighs a synonym's or the lexicon's term against a query word.
	Synonym float64
	// NameHit is the name channel's bonus for its first hit, NameExact the
	// bonus for the query being a full name, SynName for a synonym's target
	// being a name.
	NameHit, NameExact, SynName float64
	// Phrase weighs the longest run of query words found together,
	// ExactBold and ExactName a bold term or name equal to the query.
	Phrase, ExactBold, ExactName float64
	// NameInQuery weighs the share of the query a declaration's name spells
	// when every part of its last component is a query word (directly or
	// through the lexicon): "continuous function" → Continuous.
	NameInQuery float64
	// Depth damps each namespace component: ×1/(1 + Depth·components)
	// (Mathlib keeps its concepts near the root namespace).
	Depth float64
	// Pop weighs popularity (log of one plus the statements using a name).
	Pop float64
	// MainBoost multiplies the main declarations of a module docstring.
	MainBoost float64
	// DefInTheorem, TheoremInDef and TheoremInAny are the kind priors of
	// a definition under a theorem intent and of a theorem under a
	// definition or no intent.
	DefInTheorem, TheoremInDef, TheoremInAny float64
	// Instance, Notation, FieldCtor and Private multiply those kinds of
	// declarations whatever the intent.
	Instance, Notation, FieldCtor, Private float64
	// Dense weighs the sentence encoder's cosine (when on).
	Dense float64
}

// defaultWeights are the weights every search uses.
var defaultWeights = searchWeights{
	Name: 1, NS: 0.2, Doc: 0.35, Lead: 0.5, Bold: 0.9, Main: 0.5, Stmt: 0.6, StmtNotation: 2.5, StmtUndoc: 1.5,
	Synonym: 0.7,
	NameHit: 0, NameExact: 1.5, SynName: 0.2,
	Phrase: 0.788, ExactBold: 2.4, ExactName: 0.6,
	NameInQuery: 0.51, Depth: 0.15,
	Pop:          0.072,
	MainBoost:    1.2,
	DefInTheorem: 0.63, TheoremInDef: 0.55, TheoremInAny: 0.8,
	Instance: 0.8, Notation: 0.5, FieldCtor: 0.84, Private: 0.7,
	Dense: 0.2,
}

// params lists the weights by name for the tuner.
func (w *searchWeights) params() map[string]*float64 {
	return map[string]*float64{
		"Name": &w.Name, "NS": &w.NS, "Doc": &w.Doc, "Lead": &w.Lead, "Bold": &w.Bold, "Main": &w.Main, "Stmt": &w.Stmt, "StmtNotation": &w.StmtNotation, "StmtUndoc": &w.StmtUndoc,
		"Synonym": &w.Synonym, "NameHit": &w.NameHit, "NameExact": &w.NameExact, "SynName": &w.SynName,
		"Phrase": &w.Phrase, "ExactBold": &w.ExactBold, "ExactName": &w.ExactName,
		"NameInQuery": &w.NameInQuery, "Depth": &w.Depth, "Pop": &w.Pop,
		"MainBoost": &w.MainBoost, "DefInTheorem": &w.DefInTheorem, "TheoremInDef": &w.TheoremInDef,
		"TheoremInAny": &w.TheoremInAny, "Instance": &w.Instance, "Notation": &w.Notation,
		"FieldCtor": &w.FieldCtor, "Private": &w.Private, "Dense": &w.Dense,
	}
}
