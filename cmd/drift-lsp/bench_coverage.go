package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/drift-lsp/drift-lsp/internal/coverage"
	"github.com/drift-lsp/drift-lsp/internal/falsify"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/textcut"
	"github.com/drift-lsp/drift-lsp/leanrepl"
)

func init() {
	registerBench("coverage", "coverage-check flag rate of reference statements and recall on false variants", runBenchCoverage)
}

// coverageProblem is one informal statement with its reference stub and
// the header (imports, opens) the stub is stated under.
type coverageProblem struct {
	ID, Informal, Formal, Header string
}

func runBenchCoverage(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench coverage", stderr, "usage: drift-lsp bench coverage [--proofnet FILE.jsonl] [--minif2f INFORMAL_DIR,LEAN_DIR] [-v] [--misses N]",
		"Checks every reference formal statement against its own informal statement and prints the flag",
		"rate (the references are correct: a flag is a false alarm), then the fraction of false variants",
		"made from the references (a numeral hypothesis dropped, a constant changed, a strict bound dropped,",
		"a strict numeral bound weakened or flipped)",
		"that are flagged, and those whose hypotheses the falsifier proves contradictory (a reference whose",
		"hypotheses contradict is flagged: it states nothing). Every flagged reference is printed with its findings. miniF2F pairs",
		"INFORMAL_DIR/NAME.json (informal_statement) with LEAN_DIR/NAME.lean.")
	proofnet := fs.String("proofnet", "", "ProofNet-format JSONL (informal_stmt, formal_stmt)")
	minif2f := fs.String("minif2f", "", "miniF2F informal and Lean 4 statement directories, comma-separated")
	verbose := fs.Bool("v", false, "print the informal and formal statements of every flagged problem too")
	misses := fs.Int("misses", 0, "print up to this many false variants that were not flagged")
	words := fs.Bool("word-concepts", false, "also check as concepts the statement's words a sub-query would name ("+strings.Join(conceptWordList, ", ")+"), with no premise names, as the pipeline's retrieval would give them")
	if err := parseNoArgs(fs, args); err != nil {
		return flagExit(err)
	}
	if *proofnet == "" && *minif2f == "" {
		fs.Usage()
		return 2
	}
	type set struct {
		name     string
		problems []coverageProblem
	}
	var sets []set
	if *proofnet != "" {
		ps, err := readProofNetPairs(*proofnet)
		if err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench coverage:", err)
			return 2
		}
		sets = append(sets, set{"proofnet", ps})
	}
	if *minif2f != "" {
		dirs := strings.Split(*minif2f, ",")
		if len(dirs) != 2 {
			fmt.Fprintln(stderr, "drift-lsp bench coverage: --minif2f wants INFORMAL_DIR,LEAN_DIR")
			return 2
		}
		ps, err := readMiniF2FPairs(dirs[0], dirs[1])
		if err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench coverage:", err)
			return 2
		}
		sets = append(sets, set{"minif2f", ps})
	}
	for _, s := range sets {
		benchCoverageSet(stdout, s.name, s.problems, *verbose, *misses, *words)
	}
	return 0
}

// conceptWordList are the words of a statement --word-concepts checks as
// concepts: those of the rules that a type ascription (natural, integer,
// real, rational), x * x or x ^ 2 (square) and ∣ (divides) cover.
var conceptWordList = []string{"square", "divides", "divisible", "natural", "integer", "real", "rational"}

// wordConcepts are the concepts of statement by --word-concepts: each word
// of conceptWordList it writes (or its plural), once, with no names.
func wordConcepts(statement string) []coverage.Concept {
	want := map[string]bool{}
	for _, w := range conceptWordList {
		want[w], want[w+"s"] = true, true
	}
	var out []coverage.Concept
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(statement, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if lw := strings.ToLower(w); want[lw] && !seen[strings.TrimSuffix(lw, "s")] {
			seen[strings.TrimSuffix(lw, "s")] = true
			out = append(out, coverage.Concept{Phrase: lw})
		}
	}
	return out
}

// benchCoverageSet checks one set's references and variants and prints
// the figures.
func benchCoverageSet(w io.Writer, name string, problems []coverageProblem, verbose bool, misses int, words bool) {
	flagged, skipped, conds, covered := 0, 0, 0, 0
	byKind := map[coverage.Kind]int{}
	variants := map[string][2]int{} // kind → flagged, total
	vacuous := 0                    // false variants whose hypotheses the falsifier proves contradictory
	for _, p := range problems {
		parsed, err := leanrepl.Gate(p.Formal)
		if err != nil {
			skipped++
			if verbose {
				fmt.Fprintf(w, "%s: skipped: %v\n", p.ID, err)
			}
			continue
		}
		stmt := strings.TrimSpace(parsed.Text[parsed.NameEnd:parsed.ProofStart])
		var concepts []coverage.Concept
		if words {
			concepts = wordConcepts(p.Informal)
		}
		// as the checker does; the falsifier without a library takes names
		// as written
		falsified := falsify.Falsify(context.Background(), leanrepl.StatementOf(parsed), nil, falsify.Options{})
		res := leanrepl.Coverage(parsed, p.Informal, concepts, &falsified)
		conds += len(res.Conditions)
		covered += res.Covered()
		if fs := res.Findings(); len(fs) > 0 {
			flagged++
			for _, f := range fs {
				byKind[f.Kind]++
			}
			msgs := make([]string, len(fs))
			for i, f := range fs {
				msgs[i] = f.Message
			}
			fmt.Fprintf(w, "FLAG %s: %s\n", p.ID, strings.Join(msgs, "; "))
			if verbose {
				fmt.Fprintf(w, "  informal: %s\n  formal:   %s\n", textcut.Line(p.Informal, 400), textcut.Line(stmt, 400))
			}
			continue
		}
		for _, v := range falseVariants(stmt) {
			r := coverage.Check(p.Informal, v.stmt, concepts)
			if vs, err := leanrepl.Gate("theorem variant " + v.stmt + " := by sorry"); err == nil {
				if f := falsify.Falsify(context.Background(), leanrepl.StatementOf(vs), nil, falsify.Options{}); f.Contradiction != "" {
					vacuous++
				}
			}
			c := variants[v.kind]
			c[1]++
			if !r.Complete() {
				c[0]++
			} else if misses > 0 {
				misses--
				fmt.Fprintf(w, "MISS %s (%s):\n  informal: %s\n  variant:  %s\n", p.ID, v.kind, textcut.Line(p.Informal, 400), textcut.Line(v.stmt, 400))
			}
			variants[v.kind] = c
		}
	}
	n := len(problems) - skipped
	fmt.Fprintf(w, "%s: %d problems (%d skipped: no parsable reference), %d conditions (%d covered)\n", name, n, skipped, conds, covered)
	fmt.Fprintf(w, "%s: references flagged: %d/%d (%s)", name, flagged, n, pct(flagged, n))
	kinds := make([]string, 0, len(byKind))
	for k, c := range byKind {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, c))
	}
	sort.Strings(kinds)
	if len(kinds) > 0 {
		fmt.Fprintf(w, "; findings by kind: %s", strings.Join(kinds, ", "))
	}
	fmt.Fprintln(w)
	names := make([]string, 0, len(variants))
	for k := range variants {
		names = append(names, k)
	}
	sort.Strings(names)
	all := [2]int{}
	for _, k := range names {
		c := variants[k]
		all[0] += c[0]
		all[1] += c[1]
		fmt.Fprintf(w, "%s: false variants (%s) flagged: %d/%d (%s)\n", name, k, c[0], c[1], pct(c[0], c[1]))
	}
	fmt.Fprintf(w, "%s: false variants (all) flagged: %d/%d (%s), of the references not flagged\n", name, all[0], all[1], pct(all[0], all[1]))
	fmt.Fprintf(w, "%s: false variants whose hypotheses contradict (states nothing): %d/%d (%s)\n", name, vacuous, all[1], pct(vacuous, all[1]))
}

func pct(a, b int) string {
	if b == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(a)/float64(b), 'f', 1, 64) + " %"
}

// variant is a false statement made from a reference one.
type variant struct {
	kind, stmt string
}

// falseVariants makes the false variants of a statement: each hypothesis
// binder that mentions a numeral dropped, each numeral changed (n → n+1),
// each hypothesis with a strict numeral comparison dropped, each strict
// comparison with a numeral weakened (< → ≤) or flipped (< → >).
func falseVariants(stmt string) []variant {
	toks, _ := leansrc.Scan([]byte(stmt))
	var out []variant
	depth, open := 0, -1
	colonSeen := false
	for i, t := range toks {
		text := stmt[t.Start:t.End]
		numeralNext := i+1 < len(toks) && toks[i+1].Kind == leansrc.TokNumber || i > 0 && toks[i-1].Kind == leansrc.TokNumber
		switch {
		case t.Kind == leansrc.TokNumber:
			if n, err := strconv.ParseUint(text, 10, 63); err == nil {
				out = append(out, variant{"change a constant", stmt[:t.Start] + strconv.FormatUint(n+1, 10) + stmt[t.End:]})
			}
		case numeralNext && (text == "<" || text == ">"):
			weak := map[string]string{"<": "≤", ">": "≥"}[text]
			out = append(out, variant{"weaken a strict numeral bound", stmt[:t.Start] + weak + stmt[t.End:]})
			flip := map[string]string{"<": ">", ">": "<"}[text]
			out = append(out, variant{"flip a numeral comparison", stmt[:t.Start] + flip + stmt[t.End:]})
		case colonSeen:
		case text == "(":
			if depth == 0 {
				open = i
			}
			depth++
		case text == ")":
			depth--
			if depth == 0 && open >= 0 {
				binder := toks[open : i+1]
				numeral, strict, hyp := false, false, false
				for _, b := range binder {
					bt := stmt[b.Start:b.End]
					numeral = numeral || b.Kind == leansrc.TokNumber
					strict = strict || bt == "<" || bt == ">"
					hyp = hyp || bt == "<" || bt == ">" || bt == "≤" || bt == "≥" || bt == "=" || bt == "≠" || bt == "∣"
				}
				drop := stmt[:toks[open].Start] + stmt[t.End:]
				if numeral && hyp {
					out = append(out, variant{"drop a numeral hypothesis", drop})
				}
				if numeral && strict {
					out = append(out, variant{"drop a strict bound", drop})
				}
			}
		case text == ":" && depth == 0:
			colonSeen = true
		case text == "[" || text == "{" || text == "⦃":
			depth++
		case text == "]" || text == "}" || text == "⦄":
			depth--
		}
	}
	return out
}

// readProofNetPairs reads informal_stmt and formal_stmt of every line.
func readProofNetPairs(path string) ([]coverageProblem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []coverageProblem
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for line := 1; sc.Scan(); line++ {
		var r struct {
			Informal string `json:"informal_stmt"`
			Formal   string `json:"formal_stmt"`
			Header   string `json:"header"`
			Name     string `json:"full_name"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if r.Name == "" {
			r.Name = strconv.Itoa(line)
		}
		out = append(out, coverageProblem{ID: r.Name, Informal: r.Informal, Formal: r.Formal, Header: r.Header})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New(path + ": no problems")
	}
	return out, nil
}

// readMiniF2FPairs pairs informalDir/NAME.json with leanDir/NAME.lean; the
// Lean file's statement starts at its first `theorem`.
func readMiniF2FPairs(informalDir, leanDir string) ([]coverageProblem, error) {
	files, err := filepath.Glob(filepath.Join(informalDir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []coverageProblem
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var r struct {
			Informal string `json:"informal_statement"`
		}
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		lean, err := os.ReadFile(filepath.Join(leanDir, name+".lean"))
		if err != nil {
			continue // unpaired
		}
		src, header := string(lean), ""
		if i := strings.Index(src, "theorem "); i >= 0 {
			src, header = src[i:], strings.TrimSpace(src[:i])
		}
		out = append(out, coverageProblem{ID: name, Informal: r.Informal, Formal: src, Header: header})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no pairs of %s/*.json and %s/*.lean", informalDir, leanDir)
	}
	return out, nil
}
