package retrieval

// fileUpdate is a pending change to one file: new buffer text, or nil to
// re-read it from disk.
type fileUpdate struct {
	path    string
	content []byte
}

// serveUpdates applies file updates until the engine closes.
func (e *Engine) serveUpdates() {
	for {
		select {
		case <-e.ctx.Done():
			return
		case u := <-e.updates:
			e.applyUpdate(u)
		}
	}
}

func (e *Engine) applyUpdate(u fileUpdate) {}
func (e *Engine) startWatcher()            {}
func (e *Engine) embedAll()                {}
