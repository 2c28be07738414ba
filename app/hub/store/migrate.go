package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// A migration takes the schema from version-1 to version. Statements use
// the SQL both engines read; {{id}} is an integer key the database
// numbers itself, which the engines spell differently, and {{stored}}
// the order rows were inserted in as far as the engine knows it.
type migration struct {
	version int
	name    string
	stmts   []string
}

// migrations, in order. Never edit one that has shipped: add the next.
var migrations = []migration{{
	version: 1,
	name:    "boards, messages, players, events, rounds, games, tags, moves, results, corrections",
	stmts: []string{
		// A board that ever published to the hub. last_seq is the last seq
		// of its stream the hub holds (stored, or given up as a gap): the
		// hub resumes at last_seq+1. status is its last MQTT status.
		`CREATE TABLE boards (
			board      TEXT PRIMARY KEY,
			first_seen TEXT NOT NULL,
			last_seen  TEXT NOT NULL,
			last_seq   BIGINT NOT NULL DEFAULT 0,
			status     TEXT NOT NULL DEFAULT '',
			game       TEXT NOT NULL DEFAULT ''
		)`,
		// Every message of every board's stream, once, as it was published.
		`CREATE TABLE messages (
			board TEXT NOT NULL REFERENCES boards (board),
			seq   BIGINT NOT NULL,
			game  TEXT NOT NULL,
			kind  TEXT NOT NULL,
			at    TEXT NOT NULL,
			body  TEXT NOT NULL,
			PRIMARY KEY (board, seq)
		)`,
		// Seqs the board no longer kept when the hub asked for them.
		`CREATE TABLE gaps (
			board     TEXT NOT NULL REFERENCES boards (board),
			first_seq BIGINT NOT NULL,
			last_seq  BIGINT NOT NULL,
			noted_at  TEXT NOT NULL,
			reason    TEXT NOT NULL,
			PRIMARY KEY (board, first_seq)
		)`,
		`CREATE TABLE players (
			id         {{id}},
			name       TEXT NOT NULL UNIQUE,
			created_at TEXT NOT NULL
		)`,
		// kind: ffa or teams (and the variant's name for the games).
		`CREATE TABLE events (
			id         {{id}},
			name       TEXT NOT NULL,
			kind       TEXT NOT NULL DEFAULT 'ffa',
			variant    TEXT NOT NULL DEFAULT '',
			created_at TEXT NOT NULL
		)`,
		`CREATE TABLE event_players (
			event_id  BIGINT NOT NULL REFERENCES events (id),
			player_id BIGINT NOT NULL REFERENCES players (id),
			PRIMARY KEY (event_id, player_id)
		)`,
		`CREATE TABLE rounds (
			id        {{id}},
			event_id  BIGINT NOT NULL REFERENCES events (id),
			number    INTEGER NOT NULL,
			pushed_at TEXT,
			UNIQUE (event_id, number)
		)`,
		// A game a board played. round_id is set when a round's pairing
		// sent it; status is playing or over.
		`CREATE TABLE games (
			board      TEXT NOT NULL REFERENCES boards (board),
			game       TEXT NOT NULL,
			start_seq  BIGINT NOT NULL,
			variant    TEXT NOT NULL DEFAULT '',
			start      TEXT NOT NULL DEFAULT '',
			started_at TEXT NOT NULL,
			status     TEXT NOT NULL DEFAULT 'playing',
			round_id   BIGINT REFERENCES rounds (id),
			PRIMARY KEY (board, game)
		)`,
		`CREATE TABLE game_tags (
			board TEXT NOT NULL,
			game  TEXT NOT NULL,
			name  TEXT NOT NULL,
			value TEXT NOT NULL,
			PRIMARY KEY (board, game, name),
			FOREIGN KEY (board, game) REFERENCES games (board, game)
		)`,
		// The turns of a game (kind move, resign, timeout or claim), keyed
		// by the message that played them. undone_seq is the message that
		// took the turn back (a takeback, a changed promotion, a revised
		// move); the turn stays for the record. Clocks (ms) and points
		// are the four seats' after the turn, Red, Blue, Yellow, Green.
		`CREATE TABLE moves (
			board        TEXT NOT NULL,
			seq          BIGINT NOT NULL,
			game         TEXT NOT NULL,
			kind         TEXT NOT NULL,
			seat         TEXT NOT NULL,
			move         TEXT NOT NULL,
			coord        TEXT NOT NULL,
			clock_red    BIGINT,
			clock_blue   BIGINT,
			clock_yellow BIGINT,
			clock_green  BIGINT,
			points_red    INTEGER,
			points_blue   INTEGER,
			points_yellow INTEGER,
			points_green  INTEGER,
			fen4         TEXT NOT NULL,
			undone_seq   BIGINT,
			PRIMARY KEY (board, seq),
			FOREIGN KEY (board, game) REFERENCES games (board, game)
		)`,
		`CREATE INDEX moves_game ON moves (board, game, seq)`,
		`CREATE TABLE results (
			board   TEXT NOT NULL,
			game    TEXT NOT NULL,
			seq     BIGINT NOT NULL,
			reason  TEXT NOT NULL,
			winners TEXT NOT NULL,
			pgn4    TEXT NOT NULL,
			points_red    INTEGER,
			points_blue   INTEGER,
			points_yellow INTEGER,
			points_green  INTEGER,
			PRIMARY KEY (board, game),
			FOREIGN KEY (board, game) REFERENCES games (board, game)
		)`,
		// A tournament director's correction of a result, with the note
		// that says why; the board's own result stays in messages.
		`CREATE TABLE corrections (
			id         {{id}},
			board      TEXT NOT NULL,
			game       TEXT NOT NULL,
			made_at    TEXT NOT NULL,
			made_by    TEXT NOT NULL,
			old_result TEXT NOT NULL,
			new_result TEXT NOT NULL,
			note       TEXT NOT NULL,
			FOREIGN KEY (board, game) REFERENCES games (board, game)
		)`,
	},
}, {
	version: 2,
	name:    "events: time control, rounds, boards, seed; entrants' order and units; round seats and tables",
	stmts: []string{
		`ALTER TABLE events ADD COLUMN time_control TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE events ADD COLUMN rounds INTEGER NOT NULL DEFAULT 0`,
		// The boards the event plays on, comma-separated: table 1 of a
		// round goes to the first.
		`ALTER TABLE events ADD COLUMN boards TEXT NOT NULL DEFAULT ''`,
		// The pairing's seed (a round pairs with seed + its number).
		`ALTER TABLE events ADD COLUMN seed BIGINT NOT NULL DEFAULT 0`,
		`CREATE UNIQUE INDEX events_name ON events (name)`,
		// entry_no: the order of entry; unit: what pairing places, the
		// player's own id in FFA, the team's first player's in Teams.
		`ALTER TABLE event_players ADD COLUMN entry_no INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE event_players ADD COLUMN unit BIGINT NOT NULL DEFAULT 0`,
		// Where each player of a round sits: table_no 0 and seat '' is a bye.
		`CREATE TABLE round_seats (
			round_id  BIGINT NOT NULL REFERENCES rounds (id),
			player_id BIGINT NOT NULL REFERENCES players (id),
			unit      BIGINT NOT NULL,
			table_no  INTEGER NOT NULL,
			seat      TEXT NOT NULL,
			PRIMARY KEY (round_id, player_id)
		)`,
		// A round's tables, each on a board; pushed_at and push_seq (the
		// board's last seq the hub held then) once its new_game was sent,
		// push_error the board's answer when it refused.
		`CREATE TABLE round_tables (
			round_id   BIGINT NOT NULL REFERENCES rounds (id),
			table_no   INTEGER NOT NULL,
			board      TEXT NOT NULL,
			pushed_at  TEXT,
			push_seq   BIGINT NOT NULL DEFAULT 0,
			push_error TEXT NOT NULL DEFAULT '',
			PRIMARY KEY (round_id, table_no)
		)`,
		`CREATE INDEX games_board_start ON games (board, start_seq)`,
	},
}, {
	version: 3,
	name:    "messages numbered in the order of their commits (n), the number's counter",
	stmts: []string{
		// n numbers every message of every board in the order the database
		// committed them, from 1 without a hole: the viewers' event stream
		// resumes by it on any hub (hub/live). The messages stored before
		// are numbered in the order they were stored as far as the engine
		// knows it (SQLite's rowid; PostgreSQL: the board's time).
		`ALTER TABLE messages ADD COLUMN n BIGINT`,
		`UPDATE messages SET n = r.n FROM (SELECT board, seq, ROW_NUMBER() OVER (ORDER BY {{stored}}) AS n FROM messages) AS r
			WHERE messages.board = r.board AND messages.seq = r.seq`,
		`CREATE UNIQUE INDEX messages_n ON messages (n)`,
		// The last n given. A message's transaction takes the next one as
		// its last statement before the commit: the row's lock, held to
		// the commit, makes the numbers follow the commits.
		`CREATE TABLE message_numbers (
			id   INTEGER PRIMARY KEY CHECK (id = 1),
			last BIGINT NOT NULL
		)`,
		`INSERT INTO message_numbers (id, last) SELECT 1, COUNT(*) FROM messages`,
	},
}}

// SchemaVersion is the schema version this boardd migrates to.
func SchemaVersion() int { return migrations[len(migrations)-1].version }

// dialect spells what the engines spell differently.
func (s *Store) dialect(stmt string) string {
	id, stored := "INTEGER PRIMARY KEY AUTOINCREMENT", "rowid"
	if s.engine == Postgres {
		id, stored = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "at, board, seq"
	}
	return strings.NewReplacer("{{id}}", id, "{{stored}}", stored).Replace(stmt)
}

// migrate applies the migrations the database has not had, each in its
// own transaction with its row in schema_migrations. On PostgreSQL an
// advisory lock keeps two hubs starting at once from migrating twice.
func (s *Store) migrate(ctx context.Context) error {
	if err := s.createMigrations(ctx); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	for _, m := range migrations {
		if err := s.apply(ctx, m); err != nil {
			return fmt.Errorf("migration %d (%s): %w", m.version, m.name, err)
		}
	}
	var newest sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&newest); err != nil {
		return err
	}
	if int(newest.Int64) > SchemaVersion() {
		return fmt.Errorf("the database's schema is version %d, newer than this boardd's %d: run a newer boardd on it", newest.Int64, SchemaVersion())
	}
	return nil
}

// migrationLock is the PostgreSQL advisory lock that makes hubs starting
// together on one database migrate it one after the other.
const migrationLock = 31415926

// createMigrations makes the table of applied migrations, under the
// migration lock on PostgreSQL: two hubs creating it at once would
// otherwise collide in PostgreSQL's catalog (IF NOT EXISTS is no lock).
func (s *Store) createMigrations(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if s.engine == Postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL
	)`); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *Store) apply(ctx context.Context, m migration) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if s.engine == Postgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
			return err
		}
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = $1`, m.version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	for _, st := range m.stmts {
		if _, err := tx.ExecContext(ctx, s.dialect(st)); err != nil {
			return fmt.Errorf("%w in %.60s…", err, strings.Join(strings.Fields(st), " "))
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`, m.version, m.name, ts(time.Now())); err != nil {
		return err
	}
	return tx.Commit()
}
