package lexical

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// StripAccents removes combining marks from a word (Bézout → Bezout, Hölder
// → Holder, Erdős → Erdos), so that names written with or without accents
// meet; golang.org/x/text's canonical decomposition does the work.
func StripAccents(w string) string {
	ascii := true
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return w
	}
	d := norm.NFD.String(w)
	var b strings.Builder
	for _, r := range d {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return norm.NFC.String(b.String())
}

// britishWords maps British spellings that suffix rules do not cover to the
// American ones Mathlib uses.
var britishWords = map[string]string{
	"centre": "center", "centres": "centers", "centred": "centered", "fibre": "fiber", "fibres": "fibers",
	"fibred": "fibered", "fibrewise": "fiberwise", "metre": "meter", "analyse": "analyze", "analysed": "analyzed",
	"catalyse": "catalyze", "paralyse": "paralyze", "modelling": "modeling", "modelled": "modeled",
	"labelled": "labeled", "labelling": "labeling", "travelled": "traveled", "levelled": "leveled",
	"signalling": "signaling", "defence": "defense", "licence": "license", "analogue": "analog",
	"catalogue": "catalog", "grey": "gray", "programme": "program", "artefact": "artifact",
}

// ourWords are the stems in which British "our" is American "or".
var ourWords = []string{"neighbour", "colour", "behaviour", "favour", "flavour", "labour", "honour", "harbour", "rumour", "vapour"}

// iseStems end the word stems before which British "-ise" is American
// "-ize" (normalise, factorisation, minimiser); other "-ise" words
// (otherwise, precise, exercise, premise) keep their spelling.
var iseStems = []string{"al", "ar", "or", "im", "etr", "gn", "an", "il", "at", "iv", "ol", "on", "er"}

// iseSuffixes are the British endings rewritten after an iseStems stem,
// longest first.
var iseSuffixes = [][2]string{
	{"isations", "izations"}, {"isation", "ization"}, {"isers", "izers"}, {"iser", "izer"},
	{"ising", "izing"}, {"ised", "ized"}, {"ises", "izes"}, {"ise", "ize"},
}

// American returns the American spelling of a lower-case British word
// (normalise → normalize, neighbourhood → neighborhood, centre → center),
// so that a query and a docstring in either spelling meet; other words are
// returned unchanged.
func American(w string) string {
	if a, ok := britishWords[w]; ok {
		return a
	}
	if strings.Contains(w, "our") {
		for _, s := range ourWords {
			if strings.HasPrefix(w, s) {
				return s[:len(s)-2] + "r" + w[len(s):]
			}
		}
	}
	if !strings.Contains(w, "is") {
		return w
	}
	for _, sf := range iseSuffixes {
		stem, ok := strings.CutSuffix(w, sf[0])
		if !ok {
			continue
		}
		if len(stem) < 4 {
			return w
		}
		for _, e := range iseStems {
			if strings.HasSuffix(stem, e) {
				return stem + sf[1]
			}
		}
		return w
	}
	return w
}

// irregularPlurals maps the Latin and Greek plurals of mathematical nouns to
// their singulars: the stemmer, a suffix stripper, leaves matrices →
// matric beside matrix → matrix. Regular plurals are the stemmer's.
var irregularPlurals = map[string]string{
	"matrices": "matrix", "vertices": "vertex", "indices": "index", "simplices": "simplex",
	"apices": "apex", "bases": "basis", "criteria": "criterion", "spectra": "spectrum",
	"suprema": "supremum", "infima": "infimum", "maxima": "maximum", "minima": "minimum",
	"extrema": "extremum", "optima": "optimum", "radii": "radius", "foci": "focus", "loci": "locus",
	"tori": "torus", "nuclei": "nucleus", "axes": "axis", "hypotheses": "hypothesis",
	"theses": "thesis", "analyses": "analysis", "syntheses": "synthesis", "parentheses": "parenthesis",
	"formulae": "formula", "lemmata": "lemma", "polyhedra": "polyhedron", "polytopa": "polytope",
	"automata": "automaton", "phenomena": "phenomenon", "series": "series", "species": "species",
}

// Singular returns the singular of a lower-case irregular plural
// (matrices → matrix, suprema → supremum, radii → radius) and other words
// unchanged.
func Singular(w string) string {
	if s, ok := irregularPlurals[w]; ok {
		return s
	}
	return w
}

// SingularForm returns the singular of a lower-case English noun as written
// (not stemmed): irregular plurals by the table, then the regular endings
// (groups → group, boundaries → boundary, matrices → matrix); words that do
// not end like a plural are returned unchanged.
func SingularForm(w string) string {
	if s, ok := irregularPlurals[w]; ok {
		return s
	}
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}
