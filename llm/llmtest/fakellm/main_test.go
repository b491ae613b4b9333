package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/drift-lsp/drift-lsp/llm"
)

func TestServes(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "rules.json")
	os.WriteFile(script, []byte(`[{"stage": "", "match": "scripted please", "reply": "scripted answer", "times": 1}]`), 0o600)
	logPath := filepath.Join(dir, "log.jsonl")
	pr, pw := io.Pipe()
	stop := make(chan struct{})
	done := make(chan int)
	go func() { done <- run([]string{"--script", script, "--log", logPath}, pw, io.Discard, stop); pw.Close() }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(strings.TrimPrefix(line, "fakellm: listening on "))
	go io.Copy(io.Discard, pr)
	c, err := llm.New(llm.Config{BaseURL: url, Model: "fake", APIKeyEnv: "DRIFT_TEST_NO_KEY", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	act := c.NewAction(10)
	ask := func(text string) string {
		r, err := act.Complete(context.Background(), llm.Request{Stage: "x", Messages: []llm.Message{{Role: "user", Content: text}}})
		if err != nil {
			return "error: " + err.Error()
		}
		return r.Text
	}
	if got := ask("scripted please"); got != "scripted answer" {
		t.Fatalf("scripted rule: %q", got)
	}
	if got := ask("scripted please"); !strings.Contains(got, "unrecognised prompt") {
		t.Fatalf("rule used past its times, or built-in answered an unknown prompt: %q", got)
	}
	if got := ask("Decompose this statement into \\boxed{} queries for formalization.\n\nStatement: Every prime number greater than 2 is odd."); !strings.Contains(got, "`Mm.Prime p`") || !strings.Contains(got, "`Mm.Odd n`") {
		t.Fatalf("decompose: %q", got)
	}
	close(stop)
	if rc := <-done; rc != 0 {
		t.Fatalf("exit %d", rc)
	}
	b, _ := os.ReadFile(logPath)
	if n := strings.Count(string(b), "\n"); n != 3 || !strings.Contains(string(b), `"stage":"decompose"`) {
		t.Fatalf("log %s", b)
	}
}

func TestRejectsNonLoopback(t *testing.T) {
	if rc := run([]string{"--addr", "0.0.0.0:0"}, io.Discard, io.Discard, nil); rc != 2 {
		t.Fatalf("exit %d", rc)
	}
}
