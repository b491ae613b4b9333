package drift

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealModelAnswers runs the parsers over answers the local models
// (Qwen2.5-Coder-0.5B- and 1.5B-Instruct through llama.cpp's server) really
// gave on ProofNet statements, recorded by `drift-lsp bench formalize
// --answers` (statements and answers only), one file per model in
// testdata/answers, and pins what each parser made of every answer in the
// file's .golden twin (-update to accept changes).
func TestRealModelAnswers(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "answers", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded answers: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { realModelAnswers(t, file) })
	}
}

func realModelAnswers(t *testing.T, file string) {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var a struct {
			Stage, Statement, Answer string
			Structured               bool
		}
		if err := json.Unmarshal(sc.Bytes(), &a); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		var out string
		switch a.Stage {
		case "decompose":
			subs, dropped, err := ParseDecomposition(a.Answer)
			out = fmt.Sprintf("%d sub-queries, %d dropped", len(subs), dropped)
			if err != nil {
				out += ", " + err.Error()
			}
			if len(subs) > 0 {
				out += fmt.Sprintf("; first %q / %q", subs[0].Informal, subs[0].Formal)
			}
		case "propose":
			names, err := ParseDependencies(a.Answer)
			out = fmt.Sprintf("%q", names)
			if err != nil {
				out += " " + err.Error()
			}
		case "formalize", "repair":
			st, err := ParseFormalizeAnswer(a.Answer, "")
			if err != nil {
				out = "error: " + err.Error()
				counts[a.Stage+" unusable"]++
			} else {
				out = st.Text
				counts[a.Stage+" stub"]++
			}
		default:
			t.Fatalf("line %d: stage %q", n, a.Stage)
		}
		counts[a.Stage]++
		fmt.Fprintf(&b, "%d %s structured=%v: %s\n", n, a.Stage, a.Structured, out)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%v", counts)
	got := b.String()
	path := strings.TrimSuffix(file, ".jsonl") + ".golden"
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./drift -run RealModel -update)", err)
	}
	if got != string(want) {
		t.Fatalf("parser outcomes changed; run with -update if intended.\ngot:\n%s", got)
	}
}
