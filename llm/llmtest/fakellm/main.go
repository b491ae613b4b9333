// Command fakellm serves a scripted, rule-based OpenAI-compatible model on
// 127.0.0.1 for end-to-end tests of drift-lsp in real editors. It answers
// drift's Decompose, Propose, Formalize and Informalize prompts about
// testdata/workspace realistically (see llmtest.Workspace), optionally
// preceded by scripted rules, and prints "fakellm: listening on URL" once it
// accepts connections.
//
//	fakellm [--addr 127.0.0.1:0] [--script RULES.json] [--log REQUESTS.jsonl]
//
// RULES.json is a list of {"stage": "formalize", "match": "regexp", "reply":
// "text", "status": 0, "delay_ms": 0, "times": 0}: the first rule whose stage
// (empty: any) and regexp (over the whole prompt; empty: any) match answers,
// at most times times (0: always). --log appends one JSON object per request.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"regexp"
	"sync"
	"syscall"
	"time"

	"github.com/drift-lsp/drift-lsp/llm/llmtest"
)

// rule is one scripted answer.
type rule struct {
	Stage   string `json:"stage"`
	Match   string `json:"match"`
	Reply   string `json:"reply"`
	Status  int    `json:"status"`
	DelayMS int    `json:"delay_ms"`
	Times   int    `json:"times"`
	re      *regexp.Regexp
	used    int
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, nil))
}

// run serves until SIGINT/SIGTERM or until stop is closed.
func run(args []string, stdout, stderr io.Writer, stop <-chan struct{}) int {
	fs := flag.NewFlagSet("fakellm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on (loopback only)")
	script := fs.String("script", "", "JSON file of scripted rules tried before the built-in ones")
	logPath := fs.String("log", "", "append one JSON line per request to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil || !(host == "127.0.0.1" || host == "localhost" || host == "::1") {
		fmt.Fprintf(stderr, "fakellm: --addr %q must be a loopback host:port\n", *addr)
		return 2
	}
	rules, err := loadRules(*script)
	if err != nil {
		fmt.Fprintf(stderr, "fakellm: %v\n", err)
		return 2
	}
	var logMu sync.Mutex
	var logFile *os.File
	if *logPath != "" {
		logFile, err = os.OpenFile(*logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "fakellm: %v\n", err)
			return 2
		}
		defer logFile.Close()
	}
	builtin := llmtest.Workspace()
	var mu sync.Mutex
	resp := func(n int, req llmtest.Request) llmtest.Reply {
		stage := llmtest.StageOf(req)
		if logFile != nil {
			b, _ := json.Marshal(map[string]any{"n": n, "stage": stage, "model": req.Model, "stream": req.Stream, "messages": req.Messages})
			logMu.Lock()
			logFile.Write(append(b, '\n'))
			logMu.Unlock()
		}
		mu.Lock()
		for i := range rules {
			r := &rules[i]
			if (r.Stage == "" || r.Stage == stage) && (r.re == nil || r.re.MatchString(req.Prompt())) && (r.Times == 0 || r.used < r.Times) {
				r.used++
				mu.Unlock()
				return llmtest.Reply{Text: r.Reply, Status: r.Status, Delay: time.Duration(r.DelayMS) * time.Millisecond}
			}
		}
		mu.Unlock()
		return builtin(n, req)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "fakellm: %v\n", err)
		return 1
	}
	srv, hs := llmtest.NewUnstarted(nil, resp)
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	srv.Started()
	defer srv.Close()
	fmt.Fprintf(stdout, "fakellm: listening on %s\n", srv.URL)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	select {
	case <-sig:
	case <-stop:
	}
	return 0
}

func loadRules(path string) ([]rule, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rules []rule
	if err := json.Unmarshal(b, &rules); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	for i := range rules {
		if rules[i].Match != "" {
			re, err := regexp.Compile(rules[i].Match)
			if err != nil {
				return nil, fmt.Errorf("%s: rule %d: %v", path, i+1, err)
			}
			rules[i].re = re
		}
	}
	return rules, nil
}
