// Package mapfile maps files read-only into memory where the OS allows it
// (Unix) and reads them in whole elsewhere (Windows), for the stored
// snapshots and indexes that a warm start opens.
package mapfile

import "os"

// Open returns the contents of the file at path, memory-mapped where the OS
// allows it; an empty file gives an empty slice. The mapping lasts until
// Close.
func Open(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return nil, nil
	}
	return mapOpen(f, st.Size())
}

// Close releases what Open returned; the slice must not be used afterwards.
func Close(b []byte) {
	if len(b) > 0 {
		mapClose(b)
	}
}
