package llm

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// transport retries 429, 5xx and transport errors with exponential backoff,
// honouring Retry-After, and caps the size of response bodies.
type transport struct {
	base     http.RoundTripper
	retries  int
	maxWait  time.Duration
	maxBytes int64
	logf     func(string, ...any)
	// endpoint, when set, gives the address of every request.
	endpoint Endpoint
}

type attemptKey struct{}

func withAttemptCounter(ctx context.Context, n *int) context.Context {
	return context.WithValue(ctx, attemptKey{}, n)
}

// baseBackoff is the first retry's wait when the server gives no Retry-After.
var baseBackoff = 500 * time.Millisecond

// RoundTrip sends req, retrying as described on transport.
func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	counter, _ := ctx.Value(attemptKey{}).(*int)
	req, err := mergeExtraBody(req)
	if err != nil {
		return nil, err
	}

	for attempt := 0; ; attempt++ {
		r := req
		if attempt > 0 {
			r = req.Clone(ctx)
			if req.GetBody != nil {
				body, err := req.GetBody()
				if err != nil {
					return nil, err
				}
				r.Body = body
			}
		}
		if t.endpoint != nil {
			// Ask on every attempt: a crashed local server is started again.
			base, err := t.endpoint.BaseURL(ctx)
			if err != nil {
				return nil, err
			}
			u, err := url.Parse(base)
			if err != nil {
				return nil, fmt.Errorf("llm: endpoint address %q: %v", base, err)
			}
			if r == req {
				r = req.Clone(ctx)
			}
			r.URL.Scheme, r.URL.Host, r.Host = u.Scheme, u.Host, ""
		}
		if counter != nil {
			*counter++
		}
		resp, err := t.base.RoundTrip(r)
		retryable := err != nil && ctx.Err() == nil
		var wait time.Duration
		if err == nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500) {
			retryable = true
			wait = retryAfter(resp.Header.Get("Retry-After"), time.Now())
			if resp.StatusCode == http.StatusInternalServerError {
				// Peek: the same request would only reproduce a model output
				// the server could not parse (the client asks again
				// differently instead).
				body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
				resp.Body.Close()
				resp.Body = io.NopCloser(bytes.NewReader(body))
				retryable = !outputUnparsed(string(body))
			}
		}
		if !retryable || attempt >= t.retries || (attempt > 0 && req.GetBody == nil) {
			if err != nil {
				return nil, err
			}
			resp.Body = &limitedBody{rc: resp.Body, left: t.maxBytes, max: t.maxBytes}
			return resp, nil
		}
		if resp != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		if wait <= 0 {
			wait = baseBackoff << attempt
		}
		if wait > t.maxWait {
			wait = t.maxWait
		}
		if t.logf != nil {
			what := "transport error"
			if resp != nil {
				what = resp.Status
			}
			t.logf("llm: %s, retry %d/%d in %s", what, attempt+1, t.retries, wait)
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		case <-timer.C:
		}
	}
}

// outputUnparsed reports whether a server's error message says that it
// could not parse the model's own output. llama.cpp's server answers a
// structured (response_format) request so — HTTP 500, "The model produced
// output that does not match the expected peg-native format" — when its
// output parser rejects what the grammar let through (ggml-org/llama.cpp
// issues 26381, 27733); the 0.5B model meets it on LaTeX copied into a JSON
// string. With a seed, the same request reproduces the same output.
func outputUnparsed(msg string) bool {
	return strings.Contains(msg, "produced output that does not match the expected")
}

// retryAfter parses a Retry-After header (seconds or an HTTP date).
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// limitedBody fails reads past max bytes with ErrTooLarge.
type limitedBody struct {
	rc        io.ReadCloser
	left, max int64
}

// Read reads at most max bytes in total, then fails with ErrTooLarge.
func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// Probe one byte to distinguish "exactly max" from "more than max".
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, fmt.Errorf("%w of %d bytes", ErrTooLarge, b.max)
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

// Close closes the underlying body.
func (b *limitedBody) Close() error { return b.rc.Close() }
