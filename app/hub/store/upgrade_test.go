package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"boardd/app/hub/store/pgtest"
)

// openAt opens the database at url migrated up to schema version only,
// as an older boardd left it.
func openAt(t *testing.T, url string, version int) *Store {
	t.Helper()
	engine, dsn, where, err := parseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	driver := map[string]string{SQLite: "sqlite", Postgres: "pgx"}[engine]
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	s := &Store{db: db, engine: engine, where: where}
	ctx := context.Background()
	if err := s.createMigrations(ctx); err != nil {
		t.Fatal(err)
	}
	for _, m := range migrations[:version] {
		if err := s.apply(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// A database an older boardd filled (schema 2, messages without
// numbers) is numbered on the upgrade: its messages 1 to their count, in
// the order they were stored as far as the engine knows it (SQLite's
// rows in the order inserted, so a viewer's last number from before the
// upgrade names the same message; PostgreSQL by the boards' times), and
// the next message stored takes the number after.
func TestMessagesNumberedOnUpgrade(t *testing.T) {
	pg := pgtest.Start(t)
	for _, c := range []struct {
		engine string
		url    string
		want   []string
	}{
		{"sqlite", filepath.Join(t.TempDir(), "hub.db"), []string{"1:club-2/1", "2:club-1/1", "3:club-1/2"}},
		{"postgres", pg.NewDB(t), []string{"1:club-1/1", "2:club-1/2", "3:club-2/1"}},
	} {
		t.Run(c.engine, func(t *testing.T) {
			ctx := context.Background()
			old := openAt(t, c.url, 2)
			at := func(s int) string { return ts(time.Date(2026, 11, 28, 19, 0, s, 0, time.UTC)) }
			for _, r := range []struct {
				board string
				seq   int
				at    string
			}{{"club-2", 1, at(5)}, {"club-1", 1, at(1)}, {"club-1", 2, at(2)}} {
				if _, err := old.db.ExecContext(ctx, `INSERT INTO boards (board, first_seen, last_seen) VALUES ($1, $2, $2) ON CONFLICT (board) DO NOTHING`, r.board, r.at); err != nil {
					t.Fatal(err)
				}
				if _, err := old.db.ExecContext(ctx, `INSERT INTO messages (board, seq, game, kind, at, body) VALUES ($1, $2, 'g1', 'move', $3, '{}')`, r.board, r.seq, r.at); err != nil {
					t.Fatal(err)
				}
			}
			old.Close()
			s, err := Open(ctx, c.url)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ms, err := s.MessagesAfter(ctx, 0, 10)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range ms {
				got = append(got, fmt.Sprintf("%d:%s/%d", m.N, m.Board, m.Seq))
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("numbered %v, want %v", got, c.want)
			}
			n, stored, err := s.RecordN(ctx, Message{Board: "club-2", Seq: 2, Game: "g1", Kind: "move", Time: time.Now(), Body: []byte("{}")}, nil)
			if last, lerr := s.LastN(ctx); err != nil || !stored || n != 4 || last != 4 {
				t.Errorf("the next message: number %d (stored %v, %v), LastN %d (%v); want 4", n, stored, err, last, lerr)
			}
		})
	}
}
