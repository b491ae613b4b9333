package lexical

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestIndex(t *testing.T) {
	dir := t.TempDir()
	x, fresh, err := Open(dir)
	if err != nil || !fresh {
		t.Fatalf("Open = %v, fresh %v", err, fresh)
	}
	ctx := context.Background()
	docs := map[string]Doc{
		"a": {Name: "Prime", Namespace: "Nat", Doc: "A natural number with two divisors.", Kind: "def", File: "f1"},
		"b": {Name: "prime_two", Namespace: "Nat", Doc: "Two is prime.", Kind: "theorem", File: "f1"},
		"c": {Name: "IsOpen", Doc: "An open set.", Kind: "def", File: "f2"},
	}
	if err := x.Apply(nil, docs); err != nil {
		t.Fatal(err)
	}
	res, err := x.Search(ctx, Terms("prime natural number divisors"), DefaultBoosts, nil, 10)
	if err != nil || len(res) != 2 || res[0].ID != "a" {
		t.Fatalf("search = %v %v", res, err)
	}
	res, _ = x.Search(ctx, Terms("prime"), DefaultBoosts, []string{"theorem"}, 10)
	if len(res) != 1 || res[0].ID != "b" {
		t.Errorf("kind filter = %v", res)
	}
	ids, err := x.IDsOfFile(ctx, "f1")
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 2 {
		t.Errorf("IDsOfFile = %v", ids)
	}
	if err := x.Apply(ids, nil); err != nil {
		t.Fatal(err)
	}
	if n, _ := x.Count(); n != 1 {
		t.Errorf("count after delete = %d", n)
	}
	if res, _ := x.Search(ctx, nil, DefaultBoosts, nil, 10); res != nil {
		t.Errorf("empty query = %v", res)
	}
	x.Close()
	// Reopen keeps the data; a corrupt directory is rebuilt empty.
	x, fresh, err = Open(dir)
	if err != nil || fresh {
		t.Fatalf("reopen = %v fresh %v", err, fresh)
	}
	if n, _ := x.Count(); n != 1 {
		t.Errorf("count after reopen = %d", n)
	}
	x.Close()
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			os.WriteFile(p, []byte("not an index"), 0o644)
		}
		return nil
	})
	x, fresh, err = Open(dir)
	if err != nil || !fresh {
		t.Fatalf("corrupt reopen = %v fresh %v", err, fresh)
	}
	defer x.Close()
	if n, _ := x.Count(); n != 0 {
		t.Errorf("rebuilt index has %d docs", n)
	}
}

func TestAnalyzerRegistered(t *testing.T) {
	ts := leanAnalyzer{}.Analyze([]byte("Nat.Prime ∣"))
	var got []string
	for _, tok := range ts {
		got = append(got, string(tok.Term))
	}
	if !reflect.DeepEqual(got, []string{"nat", "prime", "dvd"}) {
		t.Errorf("analyzer = %q", got)
	}
}
