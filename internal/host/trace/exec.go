package trace

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/workspace"
)

// NewID returns a fresh trace id (32 hex characters).
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// finishTimeout bounds the final trace write, which runs on a context
// detached from the run's so that a cancelled run is still recorded.
const finishTimeout = 10 * time.Second

// Exec compiles src (as file: workspace.Parse, the cached unit), runs it
// with r and records the run in s: meta supplies the trace id (generated when empty), trigger, caller
// and inputs (recorded redacted against secrets); the skill is the # Skill:
// name, else the file name. A nil s runs without recording. The
// recording hooks r.Progress, keeping any hook r already has.
func (s *Store) Exec(ctx context.Context, r eval.Runner, meta Run, file string, src []byte, inputs map[string]any, secrets []string) (*eval.Result, string, error) {
	u := workspace.Parse(file, src) // the evaluator only reads the unit's tree and facts
	meta.ContentHash = u.Hash()     // the unit hashed src already
	return s.ExecParsed(ctx, r, meta, file, src, u.File, u.Info, inputs, secrets)
}

// ExecParsed is Exec for src already parsed into f and checked into info
// (a caller that linted the file first need not parse it again). A
// meta.ContentHash already set must be contract.ContentHashOf(src) (the
// caller's unit hashed it); when empty it is computed.
func (s *Store) ExecParsed(ctx context.Context, r eval.Runner, meta Run, file string, src []byte, f *ast.File, info *check.Info, inputs map[string]any, secrets []string) (*eval.Result, string, error) {
	if s == nil {
		if meta.ID == "" {
			meta.ID = NewID()
		}
		res, err := r.Run(ctx, f, info, inputs)
		return res, meta.ID, err
	}
	now := r.Clock
	if now == nil {
		now = time.Now
	}
	prepareRun(&meta, r, file, src, f, inputs, secrets, now)
	if err := s.Begin(ctx, &meta, string(src)); err != nil {
		return nil, meta.ID, fmt.Errorf("not running %s: %w", meta.Skill, err)
	}
	rec := NewRecorder(now, r.Progress)
	r.Progress = rec.Hook
	calls := &callLog{secrets: secrets}
	r.Registry = recording(r.Registry, calls)
	res, err := r.Run(ctx, f, info, inputs)
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), finishTimeout)
	defer cancel()
	if err != nil {
		_ = s.Abort(wctx, meta.ID, err.Error())
		return res, meta.ID, err
	}
	// the tool calls first: a replay needs them, and the run row's
	// final write below completes a Postgres job
	if cerr := s.saveCalls(wctx, meta.ID, calls.calls); cerr != nil {
		return res, meta.ID, cerr
	}
	// on Postgres the job completes in the final row's transaction; when
	// that fails (the job was rescued meanwhile, ...) the row is written
	// alone and the worker's return completes the job as before
	if complete := completeFrom(ctx); complete != nil && s.d.postgres {
		if s.finishWith(wctx, meta.ID, res, rec.Ops(res), now(), complete) == nil {
			return res, meta.ID, nil
		}
	}
	if ferr := s.Finish(wctx, meta.ID, res, rec.Ops(res), now()); ferr != nil {
		return res, meta.ID, ferr
	}
	return res, meta.ID, nil
}

// Refused records a run that was refused before its first op (the
// approval gate of a host): a finished row with status "refused" whose
// only error is the refusal, with the source and the redacted inputs. meta supplies the
// trace id (generated when empty), skill, trigger and caller. It returns
// the trace id.
func (s *Store) Refused(ctx context.Context, meta Run, src string, inputs map[string]any, secrets []string, refusal eval.ErrorInfo) (string, error) {
	if meta.ID == "" {
		meta.ID = NewID()
	}
	meta.ContentHash = contract.ContentHash(src)
	meta.Inputs = RedactInputs(inputs, secrets)
	meta.StartedAt = s.now()
	if err := s.Begin(ctx, &meta, src); err != nil {
		return meta.ID, err
	}
	res := &eval.Result{Skill: meta.Skill, Status: "failed", Errors: []eval.ErrorInfo{refusal}}
	return meta.ID, s.finish(ctx, meta.ID, StatusRefused, res, nil, s.now())
}

// prepareRun fills the fields of meta a recording begins with: the trace
// id when empty, the skill (the # Skill: name, else the file name), the
// content hash, the redacted inputs and the start time.
func prepareRun(meta *Run, r eval.Runner, file string, src []byte, f *ast.File, inputs map[string]any, secrets []string, now func() time.Time) {
	if meta.ID == "" {
		meta.ID = NewID()
	}
	if meta.Skill == "" {
		meta.Skill = f.SkillName()
	}
	if meta.Skill == "" {
		meta.Skill = strings.TrimSuffix(filepath.Base(file), ".skill.md")
	}
	if meta.ContentHash == "" {
		meta.ContentHash = contract.ContentHashOf(src)
	}
	meta.Inputs = RedactInputs(inputs, secrets)
	meta.StartedAt = now()
	meta.Mechanical = meta.Mechanical || r.Mechanical
}
