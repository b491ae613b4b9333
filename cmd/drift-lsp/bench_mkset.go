package main

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/drift-lsp/drift-lsp/internal/blueprint"
	"github.com/drift-lsp/drift-lsp/internal/leansrc"
	"github.com/drift-lsp/drift-lsp/internal/library"
)

func init() {
	registerBench("mkset", "write search dev/test sets mined from the library's own docstrings", runBenchMkset)
}

// setItem is one line of a generated set, in the bench JSONL format.
type setItem struct {
	ID    string   `json:"full_name"`
	Query string   `json:"informal_stmt"`
	Gold  []string `json:"mathlib_dependencies"`
	// Style and Kind (the gold's kind) break `bench search` down.
	Style string `json:"style,omitempty"`
	Kind  string `json:"kind,omitempty"`
	// split, when set, is what the dev/test split hashes instead of the
	// query (a set asking for one declaration twice keeps both in one half).
	split string
}

// maxBoldGold drops bold terms shared by more declarations (ambiguous).
const maxBoldGold = 5

func runBenchMkset(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("bench mkset", stderr, "usage: drift-lsp bench mkset [--root DIR]... [--cache DIR] [--lead N] [--stmt N] [--undoc N] [--exclude NAMES] [--uses] [--blueprint DIR] --out DIR",
		"Writes main-{dev,test}.jsonl (query: a module docstring's \"Main definitions/results\" bullet text,",
		"gold: the names it lists) and bold-{dev,test}.jsonl (query: a bold docstring term, gold: the",
		"declarations that bold it), with --lead N lead-{dev,test}.jsonl (query: the first sentence of one in",
		"N docstrings without code, gold: its declaration), with --stmt N stmt-{dev,test}.jsonl (one in N declarations",
		"asked for by its statement in LaTeX or Lean, or its docstring; field style), with --uses uses-{dev,test}.jsonl",
		"(query: a theorem docstring's first sentence, gold: the premises its statement uses; for",
		"`bench retrieval --leave-one-out`), with --undoc N undoc-{dev,test}.jsonl and undoc-corpus.jsonl (query: the",
		"first sentence of one in N theorem docstrings, gold: its theorem, asked against the corpus without those",
		"docstrings: `bench search --corpus DIR/undoc-corpus.jsonl --toggle main`), and topics-{dev,test}.jsonl when the library lists",
		"topics under docs/*.yaml (query: a topic name, gold: the declarations it names), and with --blueprint DIR",
		"blueprint-{dev,test}.jsonl (query: a leanblueprint node's statement as written, gold: its \\lean names; split by",
		"the first gold name); the split is by a hash of the query text.")
	f := addIndexFlags(fs)
	outDir := fs.String("out", "", "directory for the sets (keep it outside the repository: the sets quote the library)")
	leadEvery := fs.Int("lead", 0, "also write lead-{dev,test}.jsonl from one in N docstring first sentences (0: none)")
	stmtEvery := fs.Int("stmt", 0, "also write stmt-{dev,test}.jsonl from one in N declarations, in the styles latex, lean, stating and doc (0: none)")
	uses := fs.Bool("uses", false, "also write uses-{dev,test}.jsonl: each theorem's docstring first sentence, gold the premises its statement uses")
	undocEvery := fs.Int("undoc", 0, "also write undoc-{dev,test}.jsonl and undoc-corpus.jsonl from one in N documented theorems (0: none)")
	exclude := fs.String("exclude", "", "file of declaration names (one a line) that no query of --stmt, --undoc or --blueprint may have as gold (a held-out benchmark's)")
	bpDir := fs.String("blueprint", "", "also write blueprint-{dev,test}.jsonl from the leanblueprint sources in DIR (its blueprint/src)")
	if err := parseNoArgs(fs, args); err != nil {
		return flagExit(err)
	}
	if *outDir == "" {
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	lib, err := f.load(ctx, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench mkset:", err)
		return 1
	}
	sets := map[string][]setItem{"main": mainSet(lib), "bold": boldSet(lib)}
	kinds := []string{"main", "bold"}
	if topics, err := topicSet(lib); err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench mkset:", err)
		return 1
	} else if len(topics) > 0 {
		sets["topics"] = topics
		kinds = append(kinds, "topics")
	}
	if *leadEvery > 0 {
		sets["lead"] = leadSet(lib, *leadEvery)
		kinds = append(kinds, "lead")
	}
	if *uses {
		sets["uses"] = usesSet(lib)
		kinds = append(kinds, "uses")
	}
	ex := map[string]bool{}
	if *exclude != "" {
		if ex, err = readNames(*exclude); err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench mkset:", err)
			return 1
		}
	}
	if *stmtEvery > 0 {
		sets["stmt"] = stmtSet(lib, *stmtEvery, ex)
		kinds = append(kinds, "stmt")
	}
	if *bpDir != "" {
		bp, err := blueprint.Load(*bpDir)
		if err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench mkset:", err)
			return 1
		}
		sets["blueprint"] = blueprintSet(lib, bp, ex)
		kinds = append(kinds, "blueprint")
	}
	if err := os.MkdirAll(*outDir, 0o755); err != nil {
		fmt.Fprintln(stderr, "drift-lsp bench mkset:", err)
		return 1
	}
	if *undocEvery > 0 {
		sets["undoc"] = undocSet(lib, *undocEvery, ex)
		kinds = append(kinds, "undoc")
		path := filepath.Join(*outDir, "undoc-corpus.jsonl")
		if err := writeUndocCorpus(path, lib, sets["undoc"]); err != nil {
			fmt.Fprintln(stderr, "drift-lsp bench mkset:", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\t%d declarations\n", path, len(lib.Decls()))
	}
	for _, name := range kinds {
		var halves [2][]setItem
		for _, it := range sets[name] {
			key := it.split
			if key == "" {
				key = strings.ToLower(it.Query)
			}
			h := fnv.New32a()
			h.Write([]byte(key))
			halves[h.Sum32()%2] = append(halves[h.Sum32()%2], it)
		}
		for i, half := range []string{"dev", "test"} {
			path := filepath.Join(*outDir, name+"-"+half+".jsonl")
			if err := writeSet(path, halves[i]); err != nil {
				fmt.Fprintln(stderr, "drift-lsp bench mkset:", err)
				return 1
			}
			fmt.Fprintf(stdout, "%s\t%d queries\n", path, len(halves[i]))
		}
	}
	return 0
}

func writeSet(path string, items []setItem) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for _, it := range items {
		if err := enc.Encode(it); err != nil {
			out.Close()
			return err
		}
	}
	return out.Close()
}

// mainSet turns the main-declaration bullets of every file's module
// docstrings into queries: the bullet's description, with the names it lists
// (resolved in that file, else in the library) as gold. Bullets whose text
// quotes code or is shorter than two words are skipped.
func mainSet(lib *library.Library) []setItem {
	files := lib.Files()
	results := make([][]setItem, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = mainItems(lib, files[i])
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	var out []setItem
	seen := map[string]bool{}
	for _, r := range results {
		for _, it := range r {
			if key := strings.ToLower(it.Query); !seen[key] {
				seen[key] = true
				out = append(out, it)
			}
		}
	}
	return out
}

func mainItems(lib *library.Library, abs string) []setItem {
	src, err := os.ReadFile(abs)
	if err != nil {
		return nil
	}
	content, _ := leansrc.Prepare(src)
	pf := leansrc.Parse(content)
	own := lib.FileDecls(abs)
	var out []setItem
	for i, e := range leansrc.MainEntries(pf.ModuleDocs) {
		text := e.Text
		if strings.ContainsAny(text, "`$") || len(strings.Fields(text)) < 2 || len(strings.Fields(text)) > 30 {
			continue
		}
		var gold []string
		for _, n := range e.Names {
			if g := resolveListed(lib, own, n); g != "" {
				gold = append(gold, g)
			}
		}
		if len(gold) == 0 {
			continue
		}
		mod := ""
		if len(own) > 0 {
			mod = own[0].Module
		}
		out = append(out, setItem{ID: fmt.Sprintf("main:%s:%d", mod, i), Query: text, Gold: gold})
	}
	return out
}

// resolveListed resolves a name listed in a module docstring: a declaration
// of the file whose full name is it or ends with it, else the library's
// declaration of that exact name.
func resolveListed(lib *library.Library, own []*library.Decl, n string) string {
	for _, d := range own {
		if !d.Generated && (d.Name == n || strings.HasSuffix(d.Name, "."+n)) {
			return d.Name
		}
	}
	if d, ok := lib.Lookup(n); ok {
		return d.Name
	}
	return ""
}

// boldSet turns the bold docstring terms into queries whose gold is every
// declaration that bolds the same term (terms bolded by more than
// maxBoldGold declarations, or quoting code or math, are skipped).
func boldSet(lib *library.Library) []setItem {
	golds := map[string][]string{}
	text := map[string]string{}
	for _, d := range lib.Decls() {
		if d.Generated || d.Doc == "" {
			continue
		}
		for _, b := range leansrc.BoldTerms(d.Doc) {
			if strings.ContainsAny(b, "`$\\") || len(b) < 4 || len(strings.Fields(b)) > 8 {
				continue
			}
			key := strings.ToLower(strings.TrimRight(b, ".:,"))
			if !slices.Contains(golds[key], d.Name) {
				golds[key] = append(golds[key], d.Name)
			}
			if _, ok := text[key]; !ok {
				text[key] = strings.TrimRight(b, ".:,")
			}
		}
	}
	keys := make([]string, 0, len(golds))
	for k := range golds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []setItem
	for _, k := range keys {
		if len(golds[k]) > maxBoldGold {
			continue
		}
		out = append(out, setItem{ID: "bold:" + k, Query: text[k], Gold: golds[k]})
	}
	return out
}

// docLead is the first sentence of a docstring as a query, and whether it
// can be one: 3 to 30 words, quoting no code or math.
func docLead(doc string) (string, bool) {
	lead := strings.TrimRight(leansrc.FirstSentence(doc), ".")
	n := len(strings.Fields(lead))
	return lead, n >= 3 && n <= 30 && !strings.ContainsAny(lead, "`$\\*")
}

// leadSet turns the first sentence of one in every n docstrings (chosen by
// a hash of the name; sentences quoting code or math skipped) into a query
// whose gold is every declaration with that first sentence.
func leadSet(lib *library.Library, every int) []setItem {
	golds := map[string][]string{}
	var order []string
	for _, d := range lib.Decls() {
		if d.Generated || d.Doc == "" {
			continue
		}
		if !sampled(d.Name, every) {
			continue
		}
		lead, ok := docLead(d.Doc)
		if !ok {
			continue
		}
		if _, ok := golds[lead]; !ok {
			order = append(order, lead)
		}
		golds[lead] = append(golds[lead], d.Name)
	}
	out := make([]setItem, 0, len(order))
	for _, q := range order {
		if len(golds[q]) <= maxBoldGold {
			out = append(out, setItem{ID: "lead:" + golds[q][0], Query: q, Gold: golds[q]})
		}
	}
	return out
}

// sampled reports whether key falls in the one in every that a set takes:
// by a hash, so that a set is the same on every run and machine.
func sampled(key string, every int) bool {
	h := fnv.New32a()
	h.Write([]byte(key))
	return h.Sum32()%uint32(every) == 0
}
