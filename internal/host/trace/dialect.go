package trace

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// dialect holds the few differences between the two trace databases.
// Every query is written once, in the SQL both accept (ON CONFLICT,
// TRUE/FALSE, BIGINT), with ? placeholders; rebind turns them into $n for
// Postgres. The one DDL difference is the rowid column: SQLite has an
// implicit one, Postgres gets an explicit BIGSERIAL of that name, so the
// insertion-order tie-break "rowid" works on both.
type dialect struct {
	name     string
	postgres bool
}

var (
	sqliteDialect   = dialect{name: "sqlite"}
	postgresDialect = dialect{name: "postgres", postgres: true}
)

// rebind rewrites ? placeholders to $1, $2, ... for Postgres. The trace
// queries have no ? inside string literals.
func (d dialect) rebind(q string) string {
	if !d.postgres || !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 8)
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// schema returns the DDL: the shared tables with the dialect's rowid.
func (d dialect) schema() string {
	rowid := ""
	if d.postgres {
		rowid = "\n\trowid BIGSERIAL,"
	}
	return strings.Replace(schema, "CREATE TABLE IF NOT EXISTS runs (", "CREATE TABLE IF NOT EXISTS runs ("+rowid, 1) + supervisedSchema
}

// schemaLockKey serialises schema creation across hosts starting at once
// on one Postgres (concurrent CREATE TABLE IF NOT EXISTS can collide).
const schemaLockKey = 0x736b696c6c63 // "skillc"

// initSchema creates the tables, then adds the columns a store written by
// an older skillc lacks.
func (d dialect) initSchema(ctx context.Context, db *sql.DB) error {
	if d.postgres {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", schemaLockKey); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, d.schema()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "ALTER TABLE runs ADD COLUMN IF NOT EXISTS host TEXT NOT NULL DEFAULT ''"); err != nil {
			return err
		}
		return tx.Commit()
	}
	if _, err := db.ExecContext(ctx, d.schema()); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "SELECT host FROM runs LIMIT 0"); err != nil {
		if _, err := db.ExecContext(ctx, "ALTER TABLE runs ADD COLUMN host TEXT NOT NULL DEFAULT ''"); err != nil {
			return fmt.Errorf("add column host: %w", err)
		}
	}
	return nil
}
