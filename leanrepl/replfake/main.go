// Command replfake is a test double of the Lean REPL (leanprover-community/repl)
// that speaks its real protocol over stdin/stdout. It replays a recorded
// transcript (-transcript), or answers theorem stubs with Lean's real message
// formats driven by a rules file (-rules), and can misbehave on purpose
// (-fault) so that the client's failure handling can be tested.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

var (
	transcript = flag.String("transcript", "", "replay NAME.in / NAME.expected.out (give the .in path)")
	rulesFile  = flag.String("rules", "", "JSON rules for stub mode")
	fault      = flag.String("fault", "", "misbehave: exit-at-start, crash-mid-response, hang, garbage, message, slow-import, oom, noise-flood")
	faultAt    = flag.Int("at", 1, "request number (1-based) at which the fault happens")
	stateFile  = flag.String("once", "", "fault only if this file does not exist yet (it is created)")
	delay      = flag.Duration("delay", 0, "how long slow-import sleeps")
	noise      = flag.Bool("noise", false, "print non-JSON lines before each response")
	crlf       = flag.Bool("crlf", false, "end output lines with CRLF")
	split      = flag.Bool("split", false, "write output in tiny pieces")
	reqLog     = flag.String("log", "", "append every request received to this file")
	slow       = flag.Duration("slow", 0, "sleep this long before every answer to a request with an env")
)

// hog keeps the memory the "oom" script allocates reachable.
var hog [][]byte

func main() {
	flag.Parse()
	active := *fault != ""
	if active && *stateFile != "" {
		if _, err := os.Stat(*stateFile); err == nil {
			active = false
		} else {
			_ = os.WriteFile(*stateFile, []byte("x"), 0o644)
		}
	}
	if active && *fault == "exit-at-start" {
		fmt.Fprintln(os.Stderr, "error: unknown package 'REPL'")
		os.Exit(1)
	}
	var answer func(n int, req map[string]any, raw string) string
	switch {
	case *transcript != "":
		answer = replayer(*transcript)
	default:
		answer = stubAnswerer(*rulesFile)
	}
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for n := 1; ; n++ {
		raw, ok := readRequest(in)
		if !ok {
			return
		}
		if *reqLog != "" {
			if f, err := os.OpenFile(*reqLog, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintf(f, "%s\n\n", raw)
				f.Close()
			}
		}
		var req map[string]any
		var resp string
		if err := json.Unmarshal([]byte(raw), &req); err != nil {
			resp = jsonMsg("Could not parse JSON:\n" + err.Error())
		} else {
			resp = answer(n, req, raw)
		}
		if active && n == *faultAt {
			switch *fault {
			case "crash-mid-response":
				write(out, resp[:len(resp)/2])
				out.Flush()
				fmt.Fprintln(os.Stderr, "INTERNAL PANIC: unreachable code has been reached")
				os.Exit(3)
			case "hang":
				time.Sleep(time.Hour)
			case "garbage":
				resp = "{this is not JSON at all"
			case "noise-flood":
				for i := 0; i < 100000; i++ {
					write(out, "warning: something unrelated happened\n")
				}
				out.Flush()
				time.Sleep(time.Hour)
			case "message":
				resp = jsonMsg("Unknown environment.")
			case "slow-import":
				time.Sleep(*delay)
			case "oom":
				for {
					hog = append(hog, make([]byte, 256<<20))
				}
			}
		}
		if _, hasEnv := req["env"]; hasEnv && *slow > 0 {
			time.Sleep(*slow)
		}
		if *noise {
			write(out, "warning: manifest out of date: git revision of dependency 'mathlib' changed\n")
		}
		write(out, resp+"\n\n")
		out.Flush()
	}
}

// write sends s, converting line endings and splitting writes as flagged.
func write(out *bufio.Writer, s string) {
	if *crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	if !*split {
		out.WriteString(s)
		return
	}
	for len(s) > 0 {
		n := 3
		if n > len(s) {
			n = len(s)
		}
		out.WriteString(s[:n])
		out.Flush()
		s = s[n:]
	}
}

// readRequest reads lines up to a blank line, as the REPL does. Raw line
// breaks inside the request are dropped, which is what the real REPL's
// reader amounts to (see transcripts invalid_line_break and line_breaks).
func readRequest(in *bufio.Reader) (string, bool) {
	var b strings.Builder
	for {
		line, err := in.ReadString('\n')
		trimmed := strings.TrimRight(line, "\r\n")
		if strings.TrimSpace(trimmed) == "" {
			if b.Len() > 0 {
				return b.String(), true
			}
			if err != nil {
				return "", false
			}
			continue
		}
		b.WriteString(trimmed)
		if err != nil {
			return b.String(), true
		}
	}
}

func jsonMsg(s string) string {
	b, _ := json.Marshal(map[string]string{"message": s})
	return string(b)
}

// replayer answers request n with the n-th recorded response, after checking
// that the request equals the recorded one.
func replayer(inPath string) func(int, map[string]any, string) string {
	inText, err := os.ReadFile(inPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	outText, err := os.ReadFile(strings.TrimSuffix(inPath, ".in") + ".expected.out")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var recorded []string
	r := bufio.NewReader(bytes.NewReader(inText))
	for {
		raw, ok := readRequest(r)
		if !ok {
			break
		}
		recorded = append(recorded, raw)
	}
	var responses []string
	for _, block := range strings.Split(string(outText), "\n\n") {
		if strings.TrimSpace(block) != "" {
			responses = append(responses, strings.Trim(block, "\n"))
		}
	}
	return func(n int, req map[string]any, raw string) string {
		if n > len(recorded) || n > len(responses) {
			return jsonMsg(fmt.Sprintf("replfake: request %d is beyond the transcript", n))
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(recorded[n-1]), &want); err != nil {
			return jsonMsg(fmt.Sprintf("replfake: recorded request %d does not parse: %v", n, err))
		}
		if !jsonEqual(want, req) {
			return jsonMsg(fmt.Sprintf("replfake: request %d differs from the transcript: got %s want %s", n, raw, recorded[n-1]))
		}
		return responses[n-1]
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// Rule makes the stub answerer report a message wherever Match matches a
// command: Data is the message text, with $0/$1… replaced by the match and
// its groups.
type Rule struct {
	Match    string `json:"match"`
	Severity string `json:"severity"`
	Data     string `json:"data"`
	re       *regexp.Regexp
}

// Rules configures the stub answerer.
type Rules struct {
	// Known lists the constants the fake environment has; a dotted name not
	// in it is reported as Lean reports an unknown identifier.
	Known []string `json:"known"`
	// OldFormat reports "unknown identifier 'X'" (Lean before v4.22) instead
	// of "Unknown identifier `X`".
	OldFormat bool   `json:"oldFormat"`
	Rules     []Rule `json:"rules"`
}

var identRe = regexp.MustCompile(`@?[A-Za-z_\p{Greek}][A-Za-z0-9_'!?\p{Greek}₀-₉]*(?:\.[A-Za-z_\p{Greek}][A-Za-z0-9_'!?\p{Greek}₀-₉]*)+`)
var declRe = regexp.MustCompile(`(?m)^(?:@\[[^\]]*\]\s*)?(theorem|lemma|example)\s*([^\s(:{\[⦃]*)`)

// stubAnswerer elaborates nothing: it answers headers with a new
// environment, reports unknown dotted names and rule matches as errors, and
// otherwise reports the `sorry` warning and goal that Lean prints for a stub.
func stubAnswerer(path string) func(int, map[string]any, string) string {
	var rules Rules
	if path != "" {
		b, err := os.ReadFile(path)
		if err == nil {
			err = json.Unmarshal(b, &rules)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "replfake:", err)
			os.Exit(2)
		}
	}
	for i := range rules.Rules {
		rules.Rules[i].re = regexp.MustCompile(rules.Rules[i].Match)
	}
	known := map[string]bool{}
	for _, k := range rules.Known {
		known[k] = true
	}
	env := 0
	proofState := 0
	return func(n int, req map[string]any, raw string) string {
		if p, ok := req["unpickleEnvFrom"].(string); ok {
			if b, err := os.ReadFile(p); err != nil || string(b) != "pickle" {
				return jsonMsg("unpickle: not a pickle written by this REPL: " + p)
			}
			env++
			return fmt.Sprintf(`{"env": %d}`, env-1)
		}
		if p, ok := req["pickleTo"].(string); ok {
			_ = os.MkdirAll(filepath.Dir(p), 0o755)
			_ = os.WriteFile(p, []byte("pickle"), 0o644)
			env++
			return fmt.Sprintf(`{"env": %d}`, env-1)
		}
		cmd, ok := req["cmd"].(string)
		if !ok {
			return jsonMsg("replfake: only cmd, pickleTo and unpickleEnvFrom are supported")
		}
		if e, ok := req["env"].(float64); ok && int(e) >= env {
			return jsonMsg("Unknown environment.")
		}
		type msg struct {
			Severity string         `json:"severity"`
			Pos      map[string]int `json:"pos"`
			EndPos   map[string]int `json:"endPos"`
			Data     string         `json:"data"`
		}
		var msgs []msg
		add := func(sev string, start, end int, data string) {
			sl, sc := lineCol(cmd, start)
			el, ec := lineCol(cmd, end)
			msgs = append(msgs, msg{sev, map[string]int{"line": sl, "column": sc}, map[string]int{"line": el, "column": ec}, data})
		}
		if _, hasEnv := req["env"]; hasEnv {
			for _, m := range identRe.FindAllStringIndex(cmd, -1) {
				name := strings.TrimPrefix(cmd[m[0]:m[1]], "@")
				if known[name] || m[0] > 0 && (cmd[m[0]-1] == '.' || cmd[m[0]-1] == '`') {
					continue
				}
				if rules.OldFormat {
					add("error", m[0], m[1], fmt.Sprintf("unknown identifier '%s'", name))
				} else {
					add("error", m[0], m[1], fmt.Sprintf("Unknown identifier `%s`", name))
				}
			}
			for _, r := range rules.Rules {
				for _, m := range r.re.FindAllStringSubmatchIndex(cmd, -1) {
					data := string(r.re.ExpandString(nil, r.Data, cmd, m))
					sev := r.Severity
					if sev == "" {
						sev = "error"
					}
					add(sev, m[0], m[1], data)
				}
			}
		}
		resp := map[string]any{"env": env}
		env++
		hasErr := false
		for _, m := range msgs {
			hasErr = hasErr || m.Severity == "error"
		}
		if d := declRe.FindStringSubmatchIndex(cmd); d != nil && !hasErr && strings.Contains(cmd, "sorry") {
			start, end := d[2], d[3]
			if d[5] > d[4] {
				start, end = d[4], d[5]
			}
			s := strings.LastIndex(cmd, "sorry")
			sl, sc := lineCol(cmd, s)
			el, ec := lineCol(cmd, s+5)
			resp["sorries"] = []map[string]any{{
				"proofState": proofState, "goal": "⊢ " + goalOf(cmd),
				"pos": map[string]int{"line": sl, "column": sc}, "endPos": map[string]int{"line": el, "column": ec}}}
			proofState++
			add("warning", start, end, "declaration uses `sorry`")
		}
		if len(msgs) > 0 {
			resp["messages"] = msgs
		}
		b, _ := json.MarshalIndent(resp, "", " ")
		return string(b)
	}
}

// goalOf returns the text between the last top-level " : " of the signature
// and ":=", a rough stand-in for the goal Lean would print.
func goalOf(cmd string) string {
	end := strings.LastIndex(cmd, ":=")
	if end < 0 {
		end = len(cmd)
	}
	sig := cmd[:end]
	depth, colon := 0, -1
	for i, r := range sig {
		switch r {
		case '(', '[', '{', '⦃':
			depth++
		case ')', ']', '}', '⦄':
			depth--
		case ':':
			if depth == 0 {
				colon = i
			}
		}
	}
	return strings.TrimSpace(sig[colon+1:])
}

// lineCol converts a byte offset to the REPL's 1-based line and 0-based
// code-point column.
func lineCol(s string, off int) (int, int) {
	line, start := 1, 0
	for i := 0; i < off && i < len(s); i++ {
		if s[i] == '\n' {
			line, start = line+1, i+1
		}
	}
	return line, utf8.RuneCountInString(s[start:off])
}
