package lsp

import (
	"context"
	"time"

	"github.com/drift-lsp/drift-lsp/internal/settings"
	"go.lsp.dev/protocol"
)

// Settings are the server's settings (section "drift"): internal/settings'
// one type. They come from Options.Base (the defaults, then the
// environment, resolved by cmd/ and cmd/internal/app), then
// initializationOptions, then workspace/configuration; each later source
// overrides the fields it sets.
type Settings = settings.Settings

// DefaultSettings returns the built-in defaults.
func DefaultSettings() Settings { return settings.Default() }

// DidChangeConfiguration implements protocol.Server: with pull support the
// server asks for section "drift" again; otherwise the pushed settings
// apply. Either way the owner applies them.
func (s *server) DidChangeConfiguration(ctx context.Context, p *protocol.DidChangeConfigurationParams) error {
	s.mu.Lock()
	pull := s.caps.configuration
	s.mu.Unlock()
	if pull {
		s.spawn(s.pullConfiguration)
		return nil
	}
	s.setSettings(p.Settings)
	return nil
}

// pullConfiguration asks the client for section "drift" and applies it.
func (s *server) pullConfiguration() {
	ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
	defer cancel()
	section := "drift"
	res, err := s.client.Configuration(ctx, &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: &section}}})
	if err != nil {
		s.log.Debugf("drift: workspace/configuration: %v", err)
		return
	}
	if len(res) == 0 {
		return
	}
	s.setSettings(res[0])
}

// setSettings resolves the settings once, in order (Options.Base: defaults
// and environment, initializationOptions, then raw from the client), and hands them to the
// logger, the job manager and the backend's owner.
func (s *server) setSettings(raw []byte) {
	s.mu.Lock()
	settings, err := s.opts.Base.Overlay(s.initOpts)
	if err == nil {
		settings, err = settings.Overlay(raw)
	}
	if err == nil {
		s.settings = settings
	}
	s.mu.Unlock()
	if err != nil {
		s.log.Warnf("drift: ignoring settings: %v", err)
		return
	}
	s.log.configure(settings, s.opts.Secrets)
	// The environment's warnings were logged when the workspace opened;
	// the editor's follow them.
	for _, w := range settings.Warnings[min(len(s.opts.Base.Warnings), len(settings.Warnings)):] {
		s.log.Warnf("drift: settings: %s", w)
	}
	s.jobs.setLimit(settings.MaxJobs)
	s.log.Debugf("drift: settings %s", settings)
	s.owner.request(ownerSettings)
	// comments.enable and comments.severity apply to open documents now.
	s.spawn(s.refreshOpenComments)
}
