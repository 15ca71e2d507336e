package trace

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/skillscript/skillc/eval"
)

// Filter selects runs; zero fields match everything.
type Filter struct {
	Skill   string
	TraceID string
	Since   time.Time
	// Limit caps the number of runs (newest first); 0 means 100.
	Limit int
}

const runCols = `id, skill, content_hash, trigger_kind, trigger_name, caller, inputs, mechanical, status, started_at,
	finished_at, deadline_exceeded, uncertain_effects, errors, fallbacks, deliveries, output, abort_reason, host`

// Fires returns the runs matching f, newest first, without their ops.
func (s *Store) Fires(ctx context.Context, f Filter) ([]Run, error) {
	where, args := []string{"1=1"}, []any{}
	if f.Skill != "" {
		where, args = append(where, "skill = ?"), append(args, f.Skill)
	}
	if f.TraceID != "" {
		where, args = append(where, "id = ?"), append(args, f.TraceID)
	}
	if !f.Since.IsZero() {
		where, args = append(where, "started_at >= ?"), append(args, f.Since.UnixMilli())
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	q := "SELECT " + runCols + " FROM runs WHERE " + strings.Join(where, " AND ") + " ORDER BY started_at DESC, rowid DESC LIMIT ?"
	rows, err := s.db.QueryContext(ctx, s.d.rebind(q), append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("trace: query: %w", err)
	}
	defer rows.Close()
	out := []Run{}
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

type scanner interface{ Scan(...any) error }

func scanRun(sc scanner) (Run, error) {
	var (
		r                            Run
		inputs, unc, errs, fbs, dels string
		started                      int64
		finished                     sql.NullInt64
	)
	err := sc.Scan(&r.ID, &r.Skill, &r.ContentHash, &r.Trigger, &r.TriggerName, &r.Caller, &inputs, &r.Mechanical, &r.Status, &started,
		&finished, &r.DeadlineExceeded, &unc, &errs, &fbs, &dels, &r.Output, &r.AbortReason, &r.Host)
	if err != nil {
		return r, fmt.Errorf("trace: scan: %w", err)
	}
	r.StartedAt = time.UnixMilli(started).UTC()
	if finished.Valid {
		t := time.UnixMilli(finished.Int64).UTC()
		r.FinishedAt = &t
		r.DurationMS = finished.Int64 - started
	}
	r.Inputs = map[string]any{}
	r.UncertainEffects, r.Errors, r.Fallbacks, r.Deliveries = []eval.Effect{}, []eval.ErrorInfo{}, []eval.Fallback{}, []eval.Receipt{}
	for _, p := range []struct {
		s string
		v any
	}{{inputs, &r.Inputs}, {unc, &r.UncertainEffects}, {errs, &r.Errors}, {fbs, &r.Fallbacks}, {dels, &r.Deliveries}} {
		_ = json.Unmarshal([]byte(p.s), p.v)
	}
	return r, nil
}

// Get returns one run with its ops and the source it ran.
func (s *Store) Get(ctx context.Context, id string) (*Run, string, error) {
	row := s.db.QueryRowContext(ctx, s.d.rebind("SELECT "+runCols+" FROM runs WHERE id = ?"), id)
	r, err := scanRun(row)
	if err != nil {
		if strings.Contains(err.Error(), sql.ErrNoRows.Error()) {
			return nil, "", ErrNotFound
		}
		return nil, "", err
	}
	if r.Ops, err = s.ops(ctx, id); err != nil {
		return nil, "", err
	}
	var src string
	err = s.db.QueryRowContext(ctx, s.d.rebind("SELECT body FROM sources WHERE content_hash = ?"), r.ContentHash).Scan(&src)
	if err != nil && err != sql.ErrNoRows {
		return nil, "", fmt.Errorf("trace: source: %w", err)
	}
	return &r, src, nil
}

func (s *Store) ops(ctx context.Context, id string) ([]Op, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT depth, skill, target, op, line, started_at, duration_us, outcome, error_kind, detail
		FROM ops WHERE run_id = ? ORDER BY seq`), id)
	if err != nil {
		return nil, fmt.Errorf("trace: ops: %w", err)
	}
	defer rows.Close()
	out := []Op{}
	for rows.Next() {
		var o Op
		var started, us int64
		if err := rows.Scan(&o.Depth, &o.Skill, &o.Target, &o.Op, &o.Line, &started, &us, &o.Outcome, &o.ErrorKind, &o.Detail); err != nil {
			return nil, fmt.Errorf("trace: scan op: %w", err)
		}
		o.StartedAt, o.Duration = time.UnixMilli(started).UTC(), time.Duration(us)*time.Microsecond
		out = append(out, o)
	}
	return out, rows.Err()
}

// SkillHealth summarizes the runs of one skill.
type SkillHealth struct {
	Skill            string     `json:"skill"`
	Runs             int        `json:"runs"`
	OK               int        `json:"ok"`
	Failed           int        `json:"failed"`
	Aborted          int        `json:"aborted"`
	Refused          int        `json:"refused"` // runs the approval gate refused before they started
	Running          int        `json:"running"`
	DeadlineExceeded int        `json:"deadline_exceeded"`
	Uncertain        int        `json:"uncertain_effects"`
	Refusals         int        `json:"refusals"`
	P50MS            int64      `json:"p50_ms"` // of finished (ok or failed) runs
	P99MS            int64      `json:"p99_ms"`
	LastRun          *time.Time `json:"last_run,omitempty"`
	LastStatus       string     `json:"last_status,omitempty"`
}

// Health summarizes runs started at or after since, per skill (one skill
// when skill is set), sorted by skill name.
func (s *Store) Health(ctx context.Context, skill string, since time.Time) ([]SkillHealth, error) {
	q := `SELECT skill, status, started_at, finished_at, deadline_exceeded, uncertain_effects NOT IN ('[]', 'null'),
		(SELECT COUNT(*) FROM ops WHERE ops.run_id = runs.id AND ops.outcome = 'refused')
		FROM runs WHERE started_at >= ?`
	args := []any{since.UnixMilli()}
	if skill != "" {
		q, args = q+" AND skill = ?", append(args, skill)
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(q+" ORDER BY started_at"), args...)
	if err != nil {
		return nil, fmt.Errorf("trace: health: %w", err)
	}
	defer rows.Close()
	by := map[string]*SkillHealth{}
	durs := map[string][]int64{}
	for rows.Next() {
		var name, status string
		var started int64
		var finished sql.NullInt64
		var dl, unc bool
		var refusals int
		if err := rows.Scan(&name, &status, &started, &finished, &dl, &unc, &refusals); err != nil {
			return nil, fmt.Errorf("trace: health: %w", err)
		}
		h := by[name]
		if h == nil {
			h = &SkillHealth{Skill: name}
			by[name] = h
		}
		h.add(status, dl, unc, refusals, time.UnixMilli(started).UTC())
		if finished.Valid && (status == StatusOK || status == StatusFailed) {
			// aborted runs end when the abort was noticed, not when they ran
			durs[name] = append(durs[name], finished.Int64-started)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return sortedHealth(by, durs), nil
}

func (h *SkillHealth) add(status string, dl, unc bool, refusals int, started time.Time) {
	h.Runs++
	switch status {
	case StatusOK:
		h.OK++
	case StatusFailed:
		h.Failed++
	case StatusAborted:
		h.Aborted++
	case StatusRefused:
		h.Refused++
	case StatusRunning:
		h.Running++
	}
	if dl {
		h.DeadlineExceeded++
	}
	if unc {
		h.Uncertain++
	}
	h.Refusals += refusals
	h.LastRun, h.LastStatus = &started, status
}

func sortedHealth(by map[string]*SkillHealth, durs map[string][]int64) []SkillHealth {
	out := make([]SkillHealth, 0, len(by))
	for name, h := range by {
		d := durs[name]
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		h.P50MS, h.P99MS = percentile(d, 50), percentile(d, 99)
		out = append(out, *h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Skill < out[j].Skill })
	return out
}

// percentile returns the p-th percentile of sorted values (nearest rank).
func percentile(sorted []int64, p int) int64 {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	if i < 1 {
		i = 1
	}
	return sorted[i-1]
}

// Blocked is one refused shell op.
type Blocked struct {
	TraceID   string    `json:"trace_id"`
	Skill     string    `json:"skill"`
	Target    string    `json:"target"`
	Binary    string    `json:"binary"`
	Reason    string    `json:"blocked_reason"`
	Detail    string    `json:"detail"`
	Timestamp time.Time `json:"timestamp"`
}

// BlockedShell returns the shell ops refused by the binary allowlist or
// the unsafe-shell switch since since, newest first.
func (s *Store) BlockedShell(ctx context.Context, since time.Time, limit int) ([]Blocked, error) {
	if limit <= 0 {
		limit = 500
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT run_id, skill, target, error_kind, detail, started_at FROM ops
		WHERE error_kind IN (?, ?) AND started_at >= ? ORDER BY started_at DESC LIMIT ?`),
		eval.KindShellNotAllowed, eval.KindUnsafeDisabled, since.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("trace: blocked: %w", err)
	}
	defer rows.Close()
	out := []Blocked{}
	for rows.Next() {
		var b Blocked
		var kind string
		var ts int64
		if err := rows.Scan(&b.TraceID, &b.Skill, &b.Target, &kind, &b.Detail, &ts); err != nil {
			return nil, fmt.Errorf("trace: blocked: %w", err)
		}
		b.Timestamp, b.Binary, b.Reason = time.UnixMilli(ts).UTC(), binaryOf(b.Detail), blockedReason(kind)
		out = append(out, b)
	}
	return out, rows.Err()
}

var quotedBinary = regexp.MustCompile(`shell binary "([^"]*)"`)

func binaryOf(detail string) string {
	if m := quotedBinary.FindStringSubmatch(detail); m != nil {
		return m[1]
	}
	return ""
}

func blockedReason(kind string) string {
	if kind == eval.KindUnsafeDisabled {
		return "unsafe-shell-disabled"
	}
	return "binary-not-allowed"
}
