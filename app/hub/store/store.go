// Package store is the club hub's database: boards, players, events,
// rounds, games with their tags, moves with their seq, clocks and
// points, results and corrections, in one schema (migrate.go) that runs
// unchanged on two engines:
//
//   - SQLite through modernc.org/sqlite, a pure-Go translation of SQLite:
//     the default, a file in the hub's state directory. No cgo, so boardd
//     still cross-compiles for every Pi with CGO_ENABLED=0;
//   - PostgreSQL through pgx (github.com/jackc/pgx/v5) and its
//     database/sql adapter, for a club or league server.
//
// Both are reached through database/sql with the same statements ($1
// placeholders, which both drivers read by position; INSERT … ON
// CONFLICT; times as UTC text), so every query is tested on both.
//
// The key rule: a board's message is stored once, keyed by (board, seq).
// Record stores a message and its effect on the games in one
// transaction; a seq already held is a no-op. LastSeqs says, per board,
// the last seq the store holds, which is where the hub resumes.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	_ "modernc.org/sqlite"             // the "sqlite" driver
)

// Engines (Store.Engine).
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Store is an open hub database.
type Store struct {
	db     *sql.DB
	engine string
	where  string // for messages: the file or the host, never a password
}

// Open opens the database that url names and migrates it to this
// boardd's schema: a file path or sqlite:PATH is SQLite (created when
// missing), postgres:// or postgresql:// is PostgreSQL.
func Open(ctx context.Context, url string) (*Store, error) {
	engine, dsn, where, err := parseURL(url)
	if err != nil {
		return nil, err
	}
	driver := "pgx"
	if engine == SQLite {
		driver = "sqlite"
		if err := os.MkdirAll(filepath.Dir(where), 0o755); err != nil {
			return nil, fmt.Errorf("hub database %s: %w", where, err)
		}
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("hub database %s: %w", where, err)
	}
	if engine == SQLite {
		// One writer at a time is SQLite's way; one connection keeps
		// transactions from waiting on each other's locks.
		db.SetMaxOpenConns(1)
	} else {
		db.SetMaxOpenConns(8)
	}
	db.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{db: db, engine: engine, where: where}
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("hub database %s: cannot connect: %w", where, err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("hub database %s: %w", where, err)
	}
	return s, nil
}

// parseURL picks the engine from url and returns the driver's DSN and a
// name for messages.
func parseURL(raw string) (engine, dsn, where string, err error) {
	switch {
	case raw == "":
		return "", "", "", errors.New("hub database: no path or URL given (a SQLite file like /var/lib/boardd/hub.db, or postgres://user:password@host/db)")
	case strings.HasPrefix(raw, "postgres://") || strings.HasPrefix(raw, "postgresql://"):
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return "", "", "", fmt.Errorf("hub database URL: want postgres://user:password@host:port/database, got something else (%v)", err)
		}
		return Postgres, raw, "postgres://" + u.Host + u.Path, nil
	case strings.Contains(raw, "://"):
		scheme, _, _ := strings.Cut(raw, "://")
		return "", "", "", fmt.Errorf("hub database URL: unknown scheme %q: want a SQLite file path (or sqlite:PATH) or postgres://", scheme)
	}
	path := strings.TrimPrefix(raw, "sqlite:")
	if path == "" {
		return "", "", "", errors.New("hub database: sqlite: needs a file path")
	}
	// WAL lets readers go on while the hub writes; synchronous FULL makes
	// a committed message survive a power cut, since the commit is the
	// hub's acknowledgement; an immediate transaction takes the write
	// lock at BEGIN, so two writers wait instead of failing mid-way.
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(FULL)", "foreign_keys(1)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	return SQLite, "file:" + path + "?" + q.Encode(), path, nil
}

// Engine is SQLite or Postgres.
func (s *Store) Engine() string { return s.engine }

// String names the database (file, or postgres host and database) without a password.
func (s *Store) String() string { return s.where }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// timeText is how times are stored: UTC text that sorts as time does.
const timeText = "2006-01-02T15:04:05.000Z"

func ts(t time.Time) string { return t.UTC().Format(timeText) }
