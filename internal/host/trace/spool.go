package trace

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unsafe"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
)

// SpoolDir is the folder, inside the trace directory, of the runs that
// skillc run recorded and no trace store has imported yet (issue 25).
const SpoolDir = "spool"

// spoolExt names a spooled run's file; a file is written as spoolExt +
// ".tmp" and renamed once its writer holds its lock.
const spoolExt = ".run"

// Spool records runs of one short-lived process (skillc run, replay)
// without opening the trace database: each run is one file of JSON lines
// under dir/spool, appended as the run begins and finishes, held locked
// while its process lives. The next [Open] of the SQLite store in dir
// imports the files whose writer is gone, so nothing recorded is lost: a
// run whose process was killed is imported as it was left (status
// running), as a direct write would have left it.
type Spool struct {
	dir string
	now func() time.Time
}

// OpenSpool returns the spool of the trace directory dir, creating it.
func OpenSpool(dir string) (*Spool, error) {
	if dir == "" {
		return nil, errors.New("no trace directory: set SKILLSCRIPT_HOME")
	}
	sd := filepath.Join(dir, SpoolDir)
	if err := os.MkdirAll(sd, 0o755); err != nil {
		return nil, fmt.Errorf("trace spool: create directory: %w", err)
	}
	return &Spool{dir: sd, now: time.Now}, nil
}

// SpoolImportAt is how many spooled runs may wait before skillc run
// imports them itself: without a reader (skillc traces, serve, the
// dashboard) the spool would grow without bound, and on common file
// systems every later create in a crowded folder costs more.
const SpoolImportAt = 1000

// Crowded reports whether more than limit files wait in the spool. It
// reads at most limit+1 names, so a spool that is not crowded costs one
// short directory read.
func (sp *Spool) Crowded(limit int) bool {
	f, err := os.Open(sp.dir)
	if err != nil {
		return false
	}
	defer f.Close()
	names, _ := f.Readdirnames(limit + 1)
	return len(names) > limit
}

// spoolLine is one line of a spooled run: the begin record (Run and
// Source), the finish record (Finish, with the outcome fields and Ops
// of the run) or an abort (Abort, AbortAt).
type spoolLine struct {
	Run    *Run   `json:"run,omitempty"`
	Source string `json:"source,omitempty"`
	Finish *Run   `json:"finish,omitempty"`
	// Calls are the run's connector and model results (redacted), kept
	// for a replay; written with the finish record.
	Calls   []ToolCall `json:"calls,omitempty"`
	Abort   string     `json:"abort,omitempty"`
	AbortAt int64      `json:"abort_at_ms,omitempty"`
}

// ExecParsed is [Store.ExecParsed] recording into the spool: it writes
// the begin record before the run and the finish (or abort) record after
// it.
func (sp *Spool) ExecParsed(ctx context.Context, r eval.Runner, meta Run, file string, src []byte, f *ast.File, info *check.Info, inputs map[string]any, secrets []string) (*eval.Result, string, error) {
	now := r.Clock
	if now == nil {
		now = time.Now
	}
	prepareRun(&meta, r, file, src, f, inputs, secrets, now)
	// the begin record only encodes the source during this call, and
	// src is not changed meanwhile: no copy of a large skill's bytes
	w, err := sp.begin(&meta, unsafe.String(unsafe.SliceData(src), len(src)))
	if err != nil {
		return nil, meta.ID, fmt.Errorf("not running %s: %w", meta.Skill, err)
	}
	defer w.close()
	rec := NewRecorder(now, r.Progress)
	r.Progress = rec.Hook
	calls := &callLog{secrets: secrets}
	r.Registry = recording(r.Registry, calls)
	res, err := r.Run(ctx, f, info, inputs)
	if err != nil {
		_ = w.write(spoolLine{Abort: err.Error(), AbortAt: sp.now().UnixMilli()})
		return res, meta.ID, err
	}
	fin := finishRecord(res, rec.Ops(res), now())
	if ferr := w.write(spoolLine{Finish: fin, Calls: calls.calls}); ferr != nil {
		return res, meta.ID, ferr
	}
	return res, meta.ID, nil
}

// finishRecord is the outcome of a run as the finish record carries it.
func finishRecord(res *eval.Result, ops []Op, finished time.Time) *Run {
	status := StatusOK
	if res.Failed() {
		status = StatusFailed
	}
	return &Run{Status: status, FinishedAt: &finished, DeadlineExceeded: res.DeadlineExceeded,
		UncertainEffects: res.UncertainEffects, Errors: res.Errors, Fallbacks: res.Fallbacks,
		Deliveries: res.Receipts, Output: res.Outputs.Text, Ops: ops}
}

// spoolFile is one run's spool file, locked while open.
type spoolFile struct{ f *os.File }

func (sp *Spool) begin(r *Run, source string) (*spoolFile, error) {
	r.Status = StatusRunning
	tmp := filepath.Join(sp.dir, r.ID+spoolExt+".tmp")
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("trace spool: %w", err)
	}
	w := &spoolFile{f: f}
	if err := lockFile(f, true); err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("trace spool: lock: %w", err)
	}
	if err := w.write(spoolLine{Run: r, Source: source}); err != nil {
		w.close()
		os.Remove(tmp)
		return nil, err
	}
	// the importer only reads *.run files: this one now has its begin
	// record and its lock
	if err := os.Rename(tmp, strings.TrimSuffix(tmp, ".tmp")); err != nil {
		w.close()
		os.Remove(tmp)
		return nil, fmt.Errorf("trace spool: %w", err)
	}
	return w, nil
}

// write appends one record and its newline in a single write, so a
// killed process leaves whole lines only (a torn last line is ignored on
// import). The record is encoded by appendSpoolLine (the bytes
// encoding/json's Encoder wrote) into one buffer sized for the source.
func (w *spoolFile) write(l spoolLine) error {
	b, err := appendSpoolLine(make([]byte, 0, len(l.Source)+len(l.Source)/16+1024), l)
	if err == nil {
		_, err = w.f.Write(b)
	}
	if err != nil {
		return fmt.Errorf("trace spool: %w", err)
	}
	return nil
}

// close releases the lock (closing the file does).
func (w *spoolFile) close() { w.f.Close() }

// importSpool imports the spooled runs of the trace directory dir whose
// writers are gone into s (SQLite), one transaction per run, and removes
// their files. A run still being written is left for a later import.
func (s *Store) importSpool(ctx context.Context, dir string) error {
	sd := filepath.Join(dir, SpoolDir)
	ents, err := os.ReadDir(sd)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("trace spool: %w", err)
	}
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), spoolExt) {
			continue
		}
		if err := s.importSpoolFile(ctx, filepath.Join(sd, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) importSpoolFile(ctx context.Context, path string) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil // another process imported it
		}
		return fmt.Errorf("trace spool: %w", err)
	}
	defer f.Close()
	if err := lockFile(f, false); err != nil {
		return nil // its run is still going (or the platform cannot tell): later
	}
	lines, err := readSpool(f)
	if err != nil {
		return fmt.Errorf("trace spool %s: %w", path, err)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("trace spool: begin: %w", err)
	}
	defer tx.Rollback()
	var id string
	for _, l := range lines {
		switch {
		case l.Run != nil:
			id = l.Run.ID
			if err := s.insertRun(ctx, tx, l.Run, l.Source, true); err != nil {
				return fmt.Errorf("trace spool %s: %w", path, err)
			}
		case id == "":
			return fmt.Errorf("trace spool %s: no begin record", path)
		case l.Finish != nil:
			fin := l.Finish
			if err := s.updateFinished(ctx, tx, id, fin.Status, *fin.FinishedAt, fin.DeadlineExceeded, fin.UncertainEffects, fin.Errors, fin.Fallbacks, fin.Deliveries, fin.Output); err != nil {
				return fmt.Errorf("trace spool %s: %w", path, err)
			}
			if err := s.insertOps(ctx, tx, id, fin.Ops); err != nil {
				return fmt.Errorf("trace spool %s: %w", path, err)
			}
			if err := s.insertCalls(ctx, tx, id, l.Calls); err != nil {
				return fmt.Errorf("trace spool %s: %w", path, err)
			}
		case l.Abort != "":
			if _, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE runs SET status=?, finished_at=COALESCE(finished_at, ?), abort_reason=? WHERE id=? AND status IN (?, ?)`),
				StatusAborted, l.AbortAt, l.Abort, id, StatusRunning, StatusFailed); err != nil {
				return fmt.Errorf("trace spool %s: abort: %w", path, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("trace spool: commit: %w", err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("trace spool: %w", err)
	}
	return nil
}

// readSpool reads the records of a spool file; a torn last line (a
// process killed mid-write) is dropped.
func readSpool(r io.Reader) ([]spoolLine, error) {
	br := bufio.NewReader(r)
	var out []spoolLine
	for {
		b, err := br.ReadBytes('\n')
		if err == io.EOF {
			return out, nil // a line without its newline was never finished
		}
		if err != nil {
			return nil, err
		}
		var l spoolLine
		if err := json.Unmarshal(b, &l); err != nil {
			return nil, fmt.Errorf("record %d: %w", len(out)+1, err)
		}
		out = append(out, l)
	}
}

// Recording records runs: a [Store] or a [Spool].
type Recording interface {
	ExecParsed(ctx context.Context, r eval.Runner, meta Run, file string, src []byte, f *ast.File, info *check.Info, inputs map[string]any, secrets []string) (*eval.Result, string, error)
}
