package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one MCP session over r and w (newline-delimited
// JSON-RPC) until r ends, the client closes the session or ctx is
// cancelled.
func ServeStdio(ctx context.Context, s *mcp.Server, r io.ReadCloser, w io.WriteCloser) error {
	err := s.Run(ctx, &mcp.IOTransport{Reader: r, Writer: w})
	if ctx.Err() != nil || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// maxBody bounds the body of one HTTP request.
const maxBody = 4 << 20

// Listen opens the streamable HTTP listener at addr ("host:port"; an empty
// host means 127.0.0.1). It refuses an address that is not loopback unless
// allowRemote: the tools read the workspace and run Lean.
func Listen(addr string, allowRemote bool) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--http %q: %w (want host:port, e.g. 127.0.0.1:8765)", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !allowRemote && !loopback(host) {
		return nil, fmt.Errorf("--http %s is not a loopback address: anyone who reaches it can read the workspace and run Lean; use 127.0.0.1, or pass --allow-remote", addr)
	}
	return net.Listen("tcp", net.JoinHostPort(host, port))
}

// loopback reports whether host is localhost or a loopback IP.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ServeHTTP serves MCP's streamable HTTP transport on l until ctx is
// cancelled; the SDK's localhost protection (against DNS rebinding) stays
// on.
func ServeHTTP(ctx context.Context, s *mcp.Server, l net.Listener) error {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{MaxRequestBodyBytes: maxBody})
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	err := srv.Serve(l)
	cancel()
	<-done
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
