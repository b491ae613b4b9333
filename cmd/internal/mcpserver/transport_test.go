package mcpserver_test

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/drift-lsp/drift-lsp/cmd/internal/app"
	"github.com/drift-lsp/drift-lsp/cmd/internal/mcpserver"
	"github.com/drift-lsp/drift-lsp/internal/settings"
)

// TestListen: --http binds loopback by default and refuses other
// addresses unless allowed.
func TestListen(t *testing.T) {
	cases := []struct {
		addr        string
		allowRemote bool
		want        string // the bound host, or the error's text
		ok          bool
	}{
		{":0", false, "127.0.0.1", true},
		{"127.0.0.1:0", false, "127.0.0.1", true},
		{"localhost:0", false, "127.0.0.1", true},
		{"0.0.0.0:0", false, "is not a loopback address", false},
		{"192.0.2.1:0", false, "--allow-remote", false},
		{"example.com:0", false, "is not a loopback address", false},
		{"0.0.0.0:0", true, "0.0.0.0", true},
		{"8765", false, "want host:port", false},
	}
	for _, c := range cases {
		l, err := mcpserver.Listen(c.addr, c.allowRemote)
		if !c.ok {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Listen(%q, %v) = %v, want an error containing %q", c.addr, c.allowRemote, err, c.want)
			}
			if l != nil {
				l.Close()
			}
			continue
		}
		if err != nil {
			t.Errorf("Listen(%q, %v): %v", c.addr, c.allowRemote, err)
			continue
		}
		host, _, _ := net.SplitHostPort(l.Addr().String())
		if host != c.want && !(c.want == "0.0.0.0" && host == "::") {
			t.Errorf("Listen(%q) bound %s, want %s", c.addr, l.Addr(), c.want)
		}
		l.Close()
	}
}

// TestHTTP: a client over streamable HTTP calls a tool; cancelling the
// context stops the server.
func TestHTTP(t *testing.T) {
	getenv := env(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := app.Open(ctx, settings.FromEnv(getenv), mustAbs(t, workspaceDir), func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	l, err := mcpserver.Listen("127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- mcpserver.ServeHTTP(ctx, mcpserver.New(app.MCP(w), mcpserver.Options{}), l) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + l.Addr().String()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := call(t, cs, "check_names", `{"names":["Mm.Prime"]}`)
	if res.IsError || !strings.Contains(textOf(res), "Mm.Prime: known (def)") {
		t.Errorf("over HTTP: isError %v, %q", res.IsError, textOf(res))
	}
	cs.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("ServeHTTP: %v", err)
	}
}

// TestStdioEOF: the stdio session ends when its input does.
func TestStdioEOF(t *testing.T) {
	getenv := env(t, "")
	w, err := app.Open(context.Background(), settings.FromEnv(getenv), mustAbs(t, workspaceDir), func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go io.Copy(io.Discard, outR)
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.ServeStdio(context.Background(), mcpserver.New(app.MCP(w), mcpserver.Options{}), inR, outW)
	}()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("ServeStdio after EOF: %v", err)
	}
}
