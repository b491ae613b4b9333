// Package atomicfile writes files so that a reader sees the old content or
// the new, never a part: the content goes to a temporary file beside the
// target, is synced, and is renamed over it. Several processes (editor
// windows, the CLI) share one cache directory, so every cache and index
// file is written this way.
//
// Written here rather than taken from a library: github.com/google/renameio
// does not build its writer on Windows, and github.com/natefinch/atomic
// neither sets permissions nor cleans up after a killed writer.
package atomicfile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// AbandonedAfter is the age after which a temporary file is taken as left
// by a killed writer (writing one takes seconds) and removed by the next
// write to the same path.
const AbandonedAfter = time.Hour

// TempPattern is the glob of path's temporary files.
func TempPattern(path string) string {
	return filepath.Join(filepath.Dir(path), tempPrefix(path)+"*")
}

func tempPrefix(path string) string { return ".tmp-" + filepath.Base(path) + "-" }

// Write writes the parts, one after the other, to path with permission
// perm (see WriteFunc).
func Write(path string, perm fs.FileMode, parts ...[]byte) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		for _, p := range parts {
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		return nil
	})
}

// WriteFunc writes what fill writes to path with permission perm: to a
// temporary file in path's directory, synced, then renamed over path. When
// fill or any step fails, path is untouched and the temporary file removed.
// Temporary files of path older than AbandonedAfter are removed first.
func WriteFunc(path string, perm fs.FileMode, fill func(io.Writer) error) error {
	removeAbandoned(path)
	tmp, err := os.CreateTemp(filepath.Dir(path), tempPrefix(path)+"*")
	if err != nil {
		return err
	}
	err = fill(tmp)
	if err == nil {
		err = tmp.Chmod(perm)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

func removeAbandoned(path string) {
	old, _ := filepath.Glob(TempPattern(path))
	for _, p := range old {
		if st, err := os.Stat(p); err == nil && time.Since(st.ModTime()) > AbandonedAfter {
			os.Remove(p)
		}
	}
}
