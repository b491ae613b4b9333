package retrieval

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// debounce is how long the watcher waits after the last event on a file
// before re-indexing it (editors write a file in several steps).
const debounce = 50 * time.Millisecond

// skipDir reports whether a directory is never indexed (build outputs,
// version control, hidden directories) and so not watched.
func skipDir(name string) bool {
	return name == "build" || name == ".git" || name == "node_modules" || (strings.HasPrefix(name, ".") && name != "." && name != ".lake")
}

// startWatcher watches every directory the source reads files from (links
// followed) and feeds changed .lean files to the update loop, which takes
// them once the index is ready. It returns when the watches are in place.
func (e *Engine) startWatcher(src source) {
	dirs, err := src.dirs()
	if err == nil && len(dirs) == 0 {
		return
	}
	var w *fsnotify.Watcher
	if err == nil {
		w, err = fsnotify.NewWatcher()
	}
	if err != nil {
		e.cfg.Logf("retrieval: file watching off: %v", err)
		e.setStatus(func(s *Status) { s.Warning = "file watching off: " + err.Error() })
		return
	}
	for _, d := range dirs {
		if err := w.Add(d); err != nil {
			e.cfg.Logf("retrieval: watching %s: %v", d, err)
		}
	}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		defer w.Close()
		e.watchLoop(w, src)
	}()
}

// watchTree adds watches for dir, a directory that appeared, and its
// subdirectories; found receives the .lean files inside.
func (e *Engine) watchTree(w *fsnotify.Watcher, dir string, found func(string)) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			if err := w.Add(p); err != nil {
				e.cfg.Logf("retrieval: watching %s: %v", p, err)
			}
			return nil
		}
		if strings.HasSuffix(p, ".lean") {
			found(p)
		}
		return nil
	})
}

func (e *Engine) watchLoop(w *fsnotify.Watcher, src source) {
	pending := map[string]time.Time{}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	mark := func(p string) {
		pending[p] = time.Now()
		timer.Reset(debounce)
	}
	for {
		select {
		case <-e.ctx.Done():
			return
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			e.cfg.Logf("retrieval: watcher: %v", err)
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if ev.Has(fsnotify.Create) {
				if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
					if !skipDir(filepath.Base(ev.Name)) {
						e.watchTree(w, ev.Name, mark)
					}
					continue
				}
			}
			if strings.HasSuffix(ev.Name, ".lean") {
				mark(ev.Name)
				continue
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				// A directory went away: re-check the files indexed under it.
				prefix := ev.Name + string(filepath.Separator)
				for _, f := range indexedFiles(src) {
					if strings.HasPrefix(f, prefix) {
						mark(f)
					}
				}
			}
		case <-timer.C:
			now := time.Now()
			for p, t := range pending {
				if now.Sub(t) >= debounce {
					delete(pending, p)
					e.enqueue(fileUpdate{path: p})
				}
			}
			if len(pending) > 0 {
				timer.Reset(debounce)
			}
		}
	}
}

// indexedFiles returns the absolute paths of the files src holds.
func indexedFiles(src source) []string {
	if ls, ok := src.(*libSource); ok {
		return ls.files()
	}
	return nil
}
