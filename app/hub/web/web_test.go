package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"boardd/app/hub/store"
	"boardd/app/hub/web"
)

// GET /api/boards lists every board that joined, with its status, its
// game's number of moves and the last one; other methods are refused.
func TestAPIBoards(t *testing.T) {
	s, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(web.New(s, nil))
	defer srv.Close()

	get := func() (int, []map[string]any) {
		resp, err := http.Get(srv.URL + "/api/boards")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out []map[string]any
		if resp.StatusCode == http.StatusOK {
			if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
				t.Fatal(err)
			}
		}
		return resp.StatusCode, out
	}
	if code, boards := get(); code != 200 || boards == nil || len(boards) != 0 {
		t.Fatalf("no boards yet: %d %v, want 200 and []", code, boards)
	}
	ctx := context.Background()
	m := store.Message{Board: "club-1", Seq: 1, Game: "g1", Kind: "move", Time: time.Now(), Body: []byte("{}")}
	if _, err := s.Record(ctx, m, func(tx *store.Tx) error {
		return tx.AddTurn(store.Turn{Kind: "move", Seat: "Red", Move: "h2-h4", Coord: "h2-h4", FEN4: "f"})
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetStatus(ctx, "club-2", "offline"); err != nil {
		t.Fatal(err)
	}
	code, boards := get()
	want := []map[string]any{
		{"board": "club-1", "status": "playing", "game": "g1", "moves": 1.0, "last_move": "h2-h4", "last_seq": 1.0},
		{"board": "club-2", "status": "offline", "game": "", "moves": 0.0, "last_move": "", "last_seq": 0.0},
	}
	if code != 200 || !reflect.DeepEqual(boards, want) {
		t.Errorf("GET /api/boards: %d\n %v\nwant\n %v", code, boards, want)
	}
	resp, err := http.Post(srv.URL+"/api/boards", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /api/boards: %d, want 405", resp.StatusCode)
	}
}
