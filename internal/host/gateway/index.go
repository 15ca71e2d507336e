package gateway

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode"

	"github.com/skillscript/skillc/internal/host/registry"

	_ "modernc.org/sqlite" // registers the "sqlite" driver (FTS5 included)
)

// index is the lexical stage: an in-memory SQLite FTS5 table over the
// visible skills (name, description, tags, headings; Porter stemming),
// rebuilt when the registry's generation changes. Row i+1 is recs[i].
type index struct {
	db   *sql.DB
	gen  uint64
	recs []*registry.Record
	w    Weights
}

// ftsSchema: the name column holds the name with '-', '_' and '.' as
// blanks so that "weekly-report" matches "weekly" and "report".
const ftsSchema = `CREATE VIRTUAL TABLE skills USING fts5(name, description, tags, headings, tokenize = 'porter unicode61');`

// buildIndex indexes recs into a fresh in-memory database.
func buildIndex(ctx context.Context, recs []*registry.Record, gen uint64, w Weights) (*index, error) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // one connection: one in-memory database
	if _, err := db.ExecContext(ctx, ftsSchema); err != nil {
		db.Close()
		return nil, fmt.Errorf("gateway index: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		db.Close()
		return nil, err
	}
	st, err := tx.PrepareContext(ctx, "INSERT INTO skills(rowid, name, description, tags, headings) VALUES (?, ?, ?, ?, ?)")
	if err != nil {
		tx.Rollback()
		db.Close()
		return nil, err
	}
	for i, r := range recs {
		if _, err := st.ExecContext(ctx, i+1, splitName(r.Name), r.Description, strings.Join(r.Tags, " "), strings.Join(r.Headings, "\n")); err != nil {
			tx.Rollback()
			db.Close()
			return nil, fmt.Errorf("gateway index: %w", err)
		}
	}
	st.Close()
	if err := tx.Commit(); err != nil {
		db.Close()
		return nil, err
	}
	return &index{db: db, gen: gen, recs: recs, w: w}, nil
}

func splitName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' {
			return ' '
		}
		return r
	}, s)
}

// hit is one lexical match: the record and its bm25 relevance (higher is
// better; FTS5 reports it negated).
type hit struct {
	rec  *registry.Record
	bm25 float64
}

// search returns up to limit matches of any of the terms, best first.
func (ix *index) search(ctx context.Context, terms []string, limit int) ([]hit, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	q := make([]string, len(terms))
	for i, t := range terms {
		q[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	rows, err := ix.db.QueryContext(ctx,
		"SELECT rowid, bm25(skills, ?, ?, ?, ?) AS s FROM skills WHERE skills MATCH ? ORDER BY s LIMIT ?",
		ix.w.BM25Name, ix.w.BM25Description, ix.w.BM25Tags, ix.w.BM25Headings, strings.Join(q, " OR "), limit)
	if err != nil {
		return nil, fmt.Errorf("gateway search: %w", err)
	}
	defer rows.Close()
	var out []hit
	for rows.Next() {
		var id int
		var s float64
		if err := rows.Scan(&id, &s); err != nil {
			return nil, err
		}
		if id >= 1 && id <= len(ix.recs) {
			out = append(out, hit{rec: ix.recs[id-1], bm25: -s})
		}
	}
	return out, rows.Err()
}

func (ix *index) close() {
	if ix != nil {
		ix.db.Close()
	}
}

// words splits text into lower-case letter/digit words.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
