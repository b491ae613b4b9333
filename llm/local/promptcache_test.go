package local

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// slotServer speaks llama.cpp's /slots/ID?action=save|restore: it writes
// and reads the named file in dir (as llama.cpp does under slot_save_path),
// holds tokens[i] tokens in slot i, and refuses to restore a file that
// does not start with "state".
type slotServer struct {
	dir    string
	mu     sync.Mutex
	tokens map[int]int
}

func (f *slotServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/slots/"))
	var body struct{ Filename string }
	if err != nil || r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&body) != nil || strings.ContainsAny(body.Filename, `/\`) {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"code":400,"message":"Invalid filename"}}`)
		return
	}
	path := filepath.Join(f.dir, body.Filename)
	f.mu.Lock()
	defer f.mu.Unlock()
	switch r.URL.Query().Get("action") {
	case "save":
		os.WriteFile(path, []byte(fmt.Sprintf("state %d", f.tokens[id])), 0o600)
		fmt.Fprintf(w, `{"id_slot":%d,"filename":%q,"n_saved":%d,"n_written":36}`, id, body.Filename, f.tokens[id])
	case "restore":
		b, err := os.ReadFile(path)
		var n int
		if err != nil || !strings.HasPrefix(string(b), "state") {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":{"code":400,"message":"Unable to restore slot"}}`)
			return
		}
		fmt.Sscanf(string(b), "state %d", &n)
		f.tokens[id] = n
		fmt.Fprintf(w, `{"id_slot":%d,"filename":%q,"n_restored":%d}`, id, body.Filename, n)
	default:
		w.WriteHeader(http.StatusBadRequest)
	}
}

// TestPromptCacheSlots: saving writes one file per slot that holds a
// prompt (and removes the file of an empty one); a new server gets them
// back; a file the server refuses is removed.
func TestPromptCacheSlots(t *testing.T) {
	dir := t.TempDir()
	var logs []string
	s := New(Installation{Dir: t.TempDir(), Model: "m.gguf"}, Options{Slots: 3, PromptCacheDir: dir,
		Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
	old := &slotServer{dir: dir, tokens: map[int]int{0: 640, 2: 210}}
	srv := httptest.NewServer(old)
	defer srv.Close()
	os.WriteFile(filepath.Join(dir, s.slotFile(1)), []byte("state 5"), 0o600) // from an earlier run
	s.saveSlots(&process{url: srv.URL})
	for i, want := range []bool{true, false, true} {
		if _, err := os.Stat(filepath.Join(dir, s.slotFile(i))); (err == nil) != want {
			t.Errorf("slot %d: file present %v, want %v", i, err == nil, want)
		}
	}
	os.WriteFile(filepath.Join(dir, s.slotFile(2)), []byte("garbage"), 0o600)
	fresh := &slotServer{dir: dir, tokens: map[int]int{}}
	srv2 := httptest.NewServer(fresh)
	defer srv2.Close()
	s.restoreSlots(t.Context(), &process{url: srv2.URL})
	if fresh.tokens[0] != 640 || fresh.tokens[2] != 0 {
		t.Errorf("restored %v", fresh.tokens)
	}
	if _, err := os.Stat(filepath.Join(dir, s.slotFile(2))); err == nil {
		t.Error("the refused file was kept")
	}
	if got := strings.Join(logs, "\n"); !strings.Contains(got, "saved 2 slot(s)") || !strings.Contains(got, "restored 1 slot(s), 640 tokens") || !strings.Contains(got, "Unable to restore slot") {
		t.Errorf("log:\n%s", got)
	}
}
