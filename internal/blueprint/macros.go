package blueprint

import (
	"strconv"
	"strings"
)

// Macro is one \newcommand, \renewcommand, \providecommand, \def or
// \DeclareMathOperator.
type Macro struct {
	// Args is the number of arguments (#1 … #9).
	Args int
	// Default is the first argument's default ([…] after the count), when
	// it is optional.
	Default    string
	HasDefault bool
	// Body is the replacement text.
	Body string
}

// defineMacros reads every macro definition of text into m.
func defineMacros(text string, m map[string]Macro) {
	commands(text, func(name string, at, end int) int {
		switch name {
		case "newcommand", "renewcommand", "providecommand", "DeclareMathOperator", "def":
			return max(defineAt(text, at, m), end)
		}
		return end
	})
}

// defineAt reads the definition whose command starts at s[i] into m and
// returns the offset after it (i when it cannot be read).
func defineAt(s string, i int, m map[string]Macro) int {
	cmd, p := controlWord(s, i)
	star := p < len(s) && s[p] == '*'
	if star {
		p++
	}
	p = skipSpace(s, p)
	// The macro's name: {\name} or \name.
	var name string
	if g, e, ok := group(s, p); ok {
		g = strings.TrimSpace(g)
		if !strings.HasPrefix(g, `\`) {
			return i
		}
		name, p = g[1:], e
	} else if p < len(s) && s[p] == '\\' {
		n, e := controlWord(s, p)
		name, p = n, e
	} else {
		return i
	}
	if name == "" {
		return i
	}
	var mac Macro
	if cmd == "def" {
		// \def\name#1#2{body}
		for p < len(s) && s[p] == '#' && p+1 < len(s) && s[p+1] >= '1' && s[p+1] <= '9' {
			mac.Args++
			p += 2
		}
	} else if cmd != "DeclareMathOperator" {
		if a, e, ok := optArg(s, skipSpace(s, p)); ok {
			n, err := strconv.Atoi(strings.TrimSpace(a))
			if err != nil || n < 0 || n > 9 {
				return i
			}
			mac.Args, p = n, e
			if d, e, ok := optArg(s, skipSpace(s, p)); ok {
				mac.Default, mac.HasDefault, p = d, true, e
			}
		}
	}
	body, e, ok := group(s, skipSpace(s, p))
	if !ok {
		return i
	}
	mac.Body = body
	if cmd == "DeclareMathOperator" {
		mac.Body = `\operatorname{` + body + `}`
		if star {
			mac.Body = `\operatorname*{` + body + `}`
		}
	}
	if _, have := m[name]; !(have && cmd == "providecommand") {
		m[name] = mac
	}
	return e
}

// expandLimit bounds the work of one Expand: a recursive macro stops
// expanding there and the rest is left as written.
const (
	expandDepth = 32
	expandBytes = 1 << 20
)

// Expand replaces the macros of m in s by their bodies, arguments
// substituted; macros it does not know, and a macro whose arguments are
// missing, are left as written.
func Expand(s string, m map[string]Macro) string {
	if len(m) == 0 || !strings.Contains(s, `\`) {
		return s
	}
	return expand(s, m, 0)
}

func expand(s string, m map[string]Macro, depth int) string {
	if depth > expandDepth || len(s) > expandBytes {
		return s
	}
	var out strings.Builder
	last := 0
	commands(s, func(name string, i, end int) int {
		mac, ok := m[name]
		if !ok || !isLetter(name[0]) {
			return end
		}
		args, e, ok := macroArgs(s, end, mac)
		if !ok {
			return end
		}
		if mac.Args == 0 && strings.HasPrefix(s[e:], "{}") {
			e += 2 // \prm{}: the empty group that keeps the space after it
		}
		body := mac.Body
		for k := len(args); k >= 1; k-- {
			body = strings.ReplaceAll(body, "#"+strconv.Itoa(k), args[k-1])
		}
		out.WriteString(s[last:i])
		out.WriteString(expand(body, m, depth+1))
		last = e
		return e
	})
	out.WriteString(s[last:])
	return out.String()
}

// macroArgs reads mac's arguments after s[i]: brace groups or single
// tokens, the first one optional ([…]) when mac has a default.
func macroArgs(s string, i int, mac Macro) ([]string, int, bool) {
	var args []string
	p := i
	for k := 0; k < mac.Args; k++ {
		if k == 0 && mac.HasDefault {
			if a, e, ok := optArg(s, p); ok {
				args, p = append(args, a), e
			} else {
				args = append(args, mac.Default)
			}
			continue
		}
		q := skipSpace(s, p)
		if g, e, ok := group(s, q); ok {
			args, p = append(args, g), e
			continue
		}
		switch {
		case q >= len(s) || s[q] == '}':
			return nil, i, false
		case s[q] == '\\':
			_, e := controlWord(s, q)
			args, p = append(args, s[q:e]), e
		default:
			args, p = append(args, s[q:q+1]), q+1
		}
	}
	return args, p, true
}
