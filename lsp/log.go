package lsp

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// level orders log levels.
type level int

const (
	levelError level = iota + 1
	levelWarn
	levelInfo
	levelDebug
)

func parseLevel(s string) level {
	switch s {
	case "error":
		return levelError
	case "warn":
		return levelWarn
	case "debug":
		return levelDebug
	}
	return levelInfo
}

// logger sends log lines to the client (window/logMessage) and, optionally,
// to a file. Every line passes through redact first, so that a secret that
// slipped into an error message never leaves the process.
type logger struct {
	mu      sync.Mutex
	level   level
	file    io.WriteCloser
	path    string
	send    func(lvl level, msg string)
	secrets []string
}

func newLogger(send func(level, string)) *logger {
	return &logger{level: levelInfo, send: send}
}

// configure applies log settings and the secrets (Options.Secrets) of s.
func (l *logger) configure(s Settings, secrets func(Settings) []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.level = parseLevel(s.Log.Level)
	l.secrets = l.secrets[:0]
	if secrets != nil {
		for _, v := range secrets(s) {
			if len(v) >= 4 {
				l.secrets = append(l.secrets, v)
			}
		}
	}
	if s.Log.File != l.path {
		if l.file != nil {
			_ = l.file.Close()
			l.file = nil
		}
		l.path = s.Log.File
		if l.path != "" {
			f, err := os.OpenFile(l.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
			if err == nil {
				l.file = f
			} else if l.send != nil {
				l.send(levelWarn, "drift: cannot open log file: "+err.Error())
			}
		}
	}
}

func (l *logger) redact(msg string) string {
	for _, s := range l.secrets {
		msg = strings.ReplaceAll(msg, s, "[redacted]")
	}
	return msg
}

func (l *logger) logf(lvl level, format string, args ...any) {
	l.mu.Lock()
	if lvl > l.level {
		l.mu.Unlock()
		return
	}
	msg := l.redact(fmt.Sprintf(format, args...))
	if l.file != nil {
		fmt.Fprintf(l.file, "%s %s %s\n", time.Now().UTC().Format(time.RFC3339Nano), levelName(lvl), msg)
	}
	send := l.send
	l.mu.Unlock()
	if send != nil {
		send(lvl, msg)
	}
}

func levelName(l level) string {
	switch l {
	case levelError:
		return "ERROR"
	case levelWarn:
		return "WARN"
	case levelDebug:
		return "DEBUG"
	}
	return "INFO"
}

// Errorf logs at error level.
func (l *logger) Errorf(format string, args ...any) { l.logf(levelError, format, args...) }

// Warnf logs at warning level.
func (l *logger) Warnf(format string, args ...any) { l.logf(levelWarn, format, args...) }

// Infof logs at info level.
func (l *logger) Infof(format string, args ...any) { l.logf(levelInfo, format, args...) }

// Debugf logs at debug level.
func (l *logger) Debugf(format string, args ...any) { l.logf(levelDebug, format, args...) }

func (l *logger) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		_ = l.file.Close()
		l.file = nil
	}
}
