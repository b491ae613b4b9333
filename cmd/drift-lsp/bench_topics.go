package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/drift-lsp/drift-lsp/internal/library"
)

// topicSet turns the topic lists a library keeps under docs/ in YAML into
// queries shaped like a person's: a human-written topic name ("solvable
// group", "Burnside lemma") with the declarations it names as gold. Two
// shapes are read, whatever the file is called: a mapping "topic: Decl.name"
// at any depth (Mathlib's overview and undergraduate lists) and a record
// with a title and decl / decls / statement fields (the 100 and 1000
// theorem lists). Names that resolve to no declaration (URLs, renamed
// declarations) are dropped, and a topic with none left is skipped.
func topicSet(lib *library.Library) ([]setItem, error) {
	var files []string
	for _, r := range lib.Workspace().Roots {
		fs, _ := filepath.Glob(filepath.Join(r.Dir, "docs", "*.yaml"))
		files = append(files, fs...)
	}
	sort.Strings(files)
	golds := map[string][]string{}
	text := map[string]string{}
	var order []string
	add := func(topic string, cands []string) {
		topic = strings.Join(strings.Fields(strings.TrimSpace(topic)), " ")
		if topic == "" {
			return
		}
		key := strings.ToLower(topic)
		for _, c := range cands {
			d, ok := lib.Lookup(strings.TrimSpace(c))
			if !ok {
				continue
			}
			if _, seen := text[key]; !seen {
				text[key] = topic
				order = append(order, key)
			}
			if !slices.Contains(golds[key], d.Name) {
				golds[key] = append(golds[key], d.Name)
			}
		}
	}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		walkTopics(&doc, add)
	}
	out := make([]setItem, 0, len(order))
	for _, k := range order {
		if len(golds[k]) <= maxBoldGold {
			out = append(out, setItem{ID: "topic:" + k, Query: text[k], Gold: golds[k]})
		}
	}
	return out, nil
}

// walkTopics calls add for every topic of a YAML tree: a record's title
// with its decl, decls and statement names, and every "key: scalar" pair of
// other mappings (the scalar a candidate name).
func walkTopics(n *yaml.Node, add func(topic string, names []string)) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			walkTopics(c, add)
		}
	case yaml.MappingNode:
		title := ""
		var names []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			switch {
			case k.Value == "title" && v.Kind == yaml.ScalarNode:
				title = v.Value
			case (k.Value == "decl" || k.Value == "statement") && v.Kind == yaml.ScalarNode:
				names = append(names, v.Value)
			case k.Value == "decls" && v.Kind == yaml.SequenceNode:
				for _, x := range v.Content {
					if x.Kind == yaml.ScalarNode {
						names = append(names, x.Value)
					}
				}
			}
		}
		if title != "" {
			add(title, names)
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind == yaml.ScalarNode {
				add(k.Value, []string{v.Value})
			} else {
				walkTopics(v, add)
			}
		}
	}
}
