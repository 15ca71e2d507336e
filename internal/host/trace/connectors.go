package trace

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"
)

// ConnectorHealth summarizes the recorded $ dispatches that reached one
// connector (or one bare $ tool).
type ConnectorHealth struct {
	Connector string     `json:"connector"` // "github"; a bare dispatch is "$ tool"
	Calls     int        `json:"calls"`
	OK        int        `json:"ok"`
	Errors    int        `json:"errors"`
	Fallbacks int        `json:"fallbacks"`
	Refused   int        `json:"refused"`
	P50MS     int64      `json:"p50_ms"`
	P99MS     int64      `json:"p99_ms"`
	LastCall  *time.Time `json:"last_call,omitempty"`
	LastError string     `json:"last_error,omitempty"`
}

// ConnectorOf names the connector an op reached: "$ github.create_issue"
// is "github", a bare "$ fetch" is "$ fetch"; ops that are not $
// dispatches reach no connector ("").
func ConnectorOf(op string) string {
	rest, ok := strings.CutPrefix(op, "$ ")
	if !ok || rest == "" {
		return ""
	}
	if i := strings.IndexByte(rest, '.'); i > 0 {
		return rest[:i]
	}
	return op
}

// Connectors summarizes the $ dispatches of runs started at or after
// since, per connector, sorted by connector name.
func (s *Store) Connectors(ctx context.Context, since time.Time) ([]ConnectorHealth, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT ops.op, ops.outcome, ops.started_at, ops.duration_us, ops.detail
		FROM ops JOIN runs ON runs.id = ops.run_id
		WHERE runs.started_at >= ? AND ops.op LIKE '$ %'
		ORDER BY ops.started_at, ops.run_id, ops.seq`, since.UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("trace: connectors: %w", err)
	}
	defer rows.Close()
	by := map[string]*ConnectorHealth{}
	durs := map[string][]int64{}
	for rows.Next() {
		var op, outcome, detail string
		var started, us int64
		if err := rows.Scan(&op, &outcome, &started, &us, &detail); err != nil {
			return nil, fmt.Errorf("trace: connectors: %w", err)
		}
		name := ConnectorOf(op)
		if name == "" {
			continue
		}
		h := by[name]
		if h == nil {
			h = &ConnectorHealth{Connector: name}
			by[name] = h
		}
		h.Calls++
		switch outcome {
		case OutcomeOK:
			h.OK++
		case OutcomeFallback:
			h.Fallbacks++
		case OutcomeRefused:
			h.Refused++
		default:
			h.Errors++
		}
		if outcome != OutcomeOK && detail != "" {
			h.LastError = detail
		}
		t := time.UnixMilli(started).UTC()
		h.LastCall = &t
		durs[name] = append(durs[name], us/1000)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]ConnectorHealth, 0, len(by))
	for name, h := range by {
		d := durs[name]
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		h.P50MS, h.P99MS = percentile(d, 50), percentile(d, 99)
		out = append(out, *h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Connector < out[j].Connector })
	return out, nil
}

// LastFires returns the latest run of every skill, by skill name.
func (s *Store) LastFires(ctx context.Context) (map[string]Run, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+runCols+` FROM runs r
		WHERE r.rowid = (SELECT r2.rowid FROM runs r2 WHERE r2.skill = r.skill ORDER BY r2.started_at DESC, r2.rowid DESC LIMIT 1)`)
	if err != nil {
		return nil, fmt.Errorf("trace: last fires: %w", err)
	}
	defer rows.Close()
	out := map[string]Run{}
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, err
		}
		out[r.Skill] = r
	}
	return out, rows.Err()
}
