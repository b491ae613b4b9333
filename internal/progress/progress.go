// Package progress holds the one progress-event type that the pipeline
// (drift), the checker (leanrepl) and the language server (lsp) share, from
// the stage that reports to the editor that shows it.
package progress

// Event is one progress report of a long-running stage: Stage is a short
// word ("retrieve", "check"), Message a short sentence ("Formalizing:
// candidate 3/5"), Done of Total work units when Total > 0.
type Event struct {
	Stage   string
	Message string
	Done    int
	Total   int
}

// Func receives progress events; a nil Func discards them.
type Func func(Event)

// Report calls f with ev; it does nothing when f is nil.
func (f Func) Report(ev Event) {
	if f != nil {
		f(ev)
	}
}

// Percent is Done of Total in percent, or -1 when Total is not positive.
func (ev Event) Percent() int { return Percent(ev.Done, ev.Total) }

// Percent is the one progress formula: done of total in percent, clamped
// to 0…100, or -1 when total is not positive (no percentage known).
func Percent(done, total int) int {
	if total <= 0 {
		return -1
	}
	return min(max(done*100/total, 0), 100)
}
