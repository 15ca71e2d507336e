package trigger

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// store persists triggers in the queue database, next to River's tables.
type store struct {
	db *sql.DB
	pg bool // Postgres placeholders ($1) instead of ?
}

const triggerSchema = `CREATE TABLE IF NOT EXISTS skillc_triggers (
	id TEXT PRIMARY KEY,
	skill TEXT NOT NULL,
	kind TEXT NOT NULL,
	spec TEXT NOT NULL,
	timezone TEXT NOT NULL DEFAULT '',
	enabled INTEGER NOT NULL,
	source TEXT NOT NULL,
	created_by TEXT NOT NULL DEFAULT '',
	created_at BIGINT NOT NULL,
	next_fire BIGINT,
	last_fire BIGINT
)`

// q rewrites ? placeholders for Postgres.
func (s *store) q(query string) string {
	if !s.pg {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

const triggerCols = "id, skill, kind, spec, timezone, enabled, source, created_by, next_fire, last_fire"

func (s *store) list(ctx context.Context, where string, args ...any) ([]Trigger, error) {
	query := "SELECT " + triggerCols + " FROM skillc_triggers"
	if where != "" {
		query += " WHERE " + where
	}
	rows, err := s.db.QueryContext(ctx, s.q(query+" ORDER BY skill, kind, spec, id"), args...)
	if err != nil {
		return nil, fmt.Errorf("triggers: %w", err)
	}
	defer rows.Close()
	out := []Trigger{}
	for rows.Next() {
		var t Trigger
		var enabled int
		var next, last sql.NullInt64
		if err := rows.Scan(&t.ID, &t.Skill, &t.Kind, &t.Spec, &t.Timezone, &enabled, &t.Source, &t.CreatedBy, &next, &last); err != nil {
			return nil, fmt.Errorf("triggers: %w", err)
		}
		t.Enabled, t.NextFire, t.LastFire = enabled != 0, msTime(next), msTime(last)
		out = append(out, t)
	}
	return out, rows.Err()
}

func msTime(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := time.UnixMilli(v.Int64).UTC()
	return &t
}

func msOf(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMilli()
}

func (s *store) get(ctx context.Context, id string) (Trigger, error) {
	ts, err := s.list(ctx, "id = ?", id)
	if err != nil {
		return Trigger{}, err
	}
	if len(ts) == 0 {
		return Trigger{}, &NotFoundError{ID: id}
	}
	return ts[0], nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// upsert inserts t or updates its definition, keeping the schedule state
// when only enabled/created_by change.
func (s *store) upsert(ctx context.Context, t Trigger, now time.Time) error {
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO skillc_triggers (id, skill, kind, spec, timezone, enabled, source, created_by, created_at, next_fire)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET skill = excluded.skill, kind = excluded.kind, spec = excluded.spec,
			timezone = excluded.timezone, enabled = excluded.enabled, source = excluded.source`),
		t.ID, t.Skill, t.Kind, t.Spec, t.Timezone, boolInt(t.Enabled), t.Source, t.CreatedBy, now.UnixMilli(), msOf(t.NextFire))
	if err != nil {
		return fmt.Errorf("triggers: save %s: %w", t.ID, err)
	}
	return nil
}

func (s *store) remove(ctx context.Context, id string) (bool, error) {
	res, err := s.db.ExecContext(ctx, s.q("DELETE FROM skillc_triggers WHERE id = ?"), id)
	if err != nil {
		return false, fmt.Errorf("triggers: remove %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

func (s *store) setEnabled(ctx context.Context, id string, enabled bool) (bool, error) {
	res, err := s.db.ExecContext(ctx, s.q("UPDATE skillc_triggers SET enabled = ? WHERE id = ?"), boolInt(enabled), id)
	if err != nil {
		return false, fmt.Errorf("triggers: update %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// advanceAll records fires in one transaction: last_fire = fired,
// next_fire = next. A schedule only moves forward, so two hosts advancing
// the same trigger agree.
func (s *store) advanceAll(ctx context.Context, moves []advance) error {
	if len(moves) == 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("triggers: advance: %w", err)
	}
	defer tx.Rollback()
	for _, m := range moves {
		_, err := tx.ExecContext(ctx, s.q(`UPDATE skillc_triggers SET next_fire = ?, last_fire = COALESCE(CAST(? AS BIGINT), last_fire)
			WHERE id = ? AND (next_fire IS NULL OR next_fire < ?)`), m.next.UnixMilli(), msOf(m.fired), m.id, m.next.UnixMilli())
		if err != nil {
			return fmt.Errorf("triggers: advance %s: %w", m.id, err)
		}
	}
	return tx.Commit()
}
