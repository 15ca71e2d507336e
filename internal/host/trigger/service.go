package trigger

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/workspace"
)

// Fire is one run a trigger asks for.
type Fire struct {
	TriggerID string
	Skill     string
	Kind      string // cron or event
	Spec      string // cron expression or event name
	FireAt    time.Time
	TraceID   string
	Params    map[string]any
	Attempt   int
	// Prior are the trace ids of the job's earlier attempts, oldest
	// first: the runner looks them up before running (exactly-once).
	Prior []string
	// Complete, set on a Postgres queue, marks the fire's job completed
	// inside tx (river.JobCompleteTx): the runner calls it in the
	// transaction that writes the run's final trace row.
	Complete func(ctx context.Context, tx pgx.Tx) error
}

// Runner runs a fire. It returns a *Refusal for failures that must not be
// retried (policy refusals, a skill that is not Approved), another error
// for retryable failures, nil when the run is done (even if the skill
// failed for a non-retryable reason).
type Runner func(ctx context.Context, f Fire) error

// Busy is a runner's answer for a fire whose earlier attempt is still
// running in this process: the job is snoozed for After, not run twice.
type Busy struct{ After time.Duration }

// Error implements error.
func (b *Busy) Error() string { return "an earlier attempt is still running" }

// Refusal is a fire failure that is never retried.
type Refusal struct{ Reason string }

// Error implements error.
func (r *Refusal) Error() string { return r.Reason }

// Options configure a Service.
type Options struct {
	Queue QueueOptions
	// Skills is the skill store triggers are declared in.
	Skills contract.SkillStore
	Run    Runner
	// Clock is the scheduler's time source; nil means time.Now.
	Clock  func() time.Time
	Logger *slog.Logger
	// PollInterval is the cron tick.
	PollInterval time.Duration
	// AfterTick, when set, runs after every tick of the loop (the host's
	// supervisor sweep).
	AfterTick func(context.Context)
	// Location is the zone of cron triggers without a timezone (declared
	// ones); nil means time.Local (the TZ environment variable).
	Location *time.Location
}

// Service persists triggers, ticks cron schedules and queues fires.
type Service struct {
	o     Options
	q     queue
	st    *store
	log   *slog.Logger
	now   func() time.Time
	mu    sync.Mutex // serializes ticks
	regMu sync.Mutex // serializes Register's look-up and insert
	stopc chan struct{}
	done  chan struct{}
	hbed  chan struct{} // closed when the heartbeat loop ends

	stopMu  sync.Mutex // serializes Stop
	stopped bool       // Stop has run: a second Stop does nothing

	hbMu  sync.Mutex // guards hbOK and hbErr
	hbOK  time.Time  // when this host's heartbeat was last written
	hbErr error      // the last heartbeat's failure, nil after a success
}

// Open opens the queue database (migrating River's tables and the trigger
// table) and returns a service that is not started.
func Open(ctx context.Context, o Options) (*Service, error) {
	s := &Service{o: o, log: o.Logger, now: o.Clock}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if o.Queue.FetchPollInterval <= 0 {
		o.Queue.FetchPollInterval = 200 * time.Millisecond
	}
	q, err := openQueue(ctx, o.Queue, &worker{run: o.Run, log: s.log})
	if err != nil {
		return nil, err
	}
	s.q, s.st = q, &store{db: q.db(), pg: q.postgres()}
	return s, nil
}

// Start syncs declared triggers from the skill store, starts the workers
// and the cron ticker.
func (s *Service) Start(ctx context.Context) error {
	if err := s.SyncAll(ctx); err != nil {
		s.log.Warn("trigger sync failed", "err", err)
	}
	if err := s.beatNoted(ctx); err != nil {
		s.log.Warn("queue heartbeat failed", "err", err)
	}
	if n, err := s.RescueDead(ctx); err != nil {
		s.log.Warn("rescue of dead hosts' jobs failed", "err", err)
	} else if n > 0 {
		s.log.Warn("rescued jobs a dead host held", "count", n)
	}
	if err := s.q.start(ctx); err != nil {
		return fmt.Errorf("triggers: start queue: %w", err)
	}
	s.stopc, s.done, s.hbed = make(chan struct{}), make(chan struct{}), make(chan struct{})
	go s.loop()
	go s.heartbeat(s.stopc, s.hbed)
	return nil
}

func (s *Service) loop() {
	defer close(s.done)
	every := s.o.PollInterval
	if every <= 0 {
		every = 30 * time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := s.Tick(context.Background(), s.now()); err != nil {
			s.log.Warn("cron tick failed", "err", err)
		}
		if s.o.AfterTick != nil {
			s.o.AfterTick(context.Background())
		}
		select {
		case <-s.stopc:
			return
		case <-t.C:
		}
	}
}

// Stop stops the ticker and the queue: fires not yet started stay queued
// in the database for the next start; running ones are cancelled. Only
// the first call does anything (the host's Shutdown stops the service and
// the assembly's Close stops it again).
func (s *Service) Stop(ctx context.Context) error {
	s.stopMu.Lock()
	defer s.stopMu.Unlock()
	if s.stopped {
		return nil
	}
	s.stopped = true
	if s.stopc != nil {
		close(s.stopc)
		<-s.done
		<-s.hbed
		s.stopc = nil
		// an unknown client is never taken for dead: its jobs are left to
		// River's rescue window while this process finishes them
		fctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		s.forget(fctx)
		cancel()
	}
	return s.q.stop(ctx)
}

// Durability describes what an accepted fire survives.
func (s *Service) Durability() string {
	if s.q.postgres() {
		return "durable (postgres queue)"
	}
	return "durable (sqlite queue)"
}

// Tick queues every cron fire due at now. A trigger that missed several
// slots fires once, for the latest; Draft and Disabled skills are skipped.
// Due fires are inserted in one transaction and their triggers advanced in
// another. It returns the number of jobs inserted (duplicates another
// host already inserted are not counted).
func (s *Service) Tick(ctx context.Context, now time.Time) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ts, err := s.st.list(ctx, "kind = ? AND enabled = 1", KindCron)
	if err != nil {
		return 0, err
	}
	var fires []FireArgs
	var moves []advance
	for _, t := range ts {
		f, mv, err := s.due(ctx, t, now)
		if err != nil {
			s.log.Warn("cron trigger", "id", t.ID, "skill", t.Skill, "err", err)
			continue
		}
		if f != nil {
			fires = append(fires, *f)
		}
		if mv != nil {
			moves = append(moves, *mv)
		}
	}
	n := 0
	if len(fires) > 0 {
		skipped, err := s.q.insertUnique(ctx, fires)
		if err != nil {
			return 0, fmt.Errorf("queue cron fires: %w", err)
		}
		for _, sk := range skipped {
			if !sk {
				n++
			}
		}
	}
	return n, s.st.advanceAll(ctx, moves)
}

// advance is a schedule move of one trigger.
type advance struct {
	id    string
	fired *time.Time
	next  time.Time
}

// due returns the fire a trigger owes at now (nil when none, or when its
// skill is not Approved) and how its schedule moves.
func (s *Service) due(ctx context.Context, t Trigger, now time.Time) (*FireArgs, *advance, error) {
	sched, err := Schedule(t.Spec, t.Timezone, s.loc())
	if err != nil {
		return nil, nil, err
	}
	if t.NextFire == nil {
		return nil, &advance{id: t.ID, next: sched.Next(now)}, nil
	}
	if t.NextFire.After(now) {
		return nil, nil, nil
	}
	slot := latestSlot(sched.Next, *t.NextFire, now)
	mv := &advance{id: t.ID, next: sched.Next(now)}
	body, ok := s.approved(ctx, t.Skill)
	if !ok {
		s.log.Info("cron fire skipped: skill is not Approved", "skill", t.Skill, "trigger", t.ID, "slot", slot)
		return nil, mv, nil
	}
	mv.fired = &slot
	return &FireArgs{TriggerID: t.ID, Skill: t.Skill, FireAt: slot.UnixMilli(), TriggerKind: KindCron, Spec: t.Spec,
		TraceID: cronTraceID(t.ID, slot), TimeoutMS: s.o.Queue.Timeouts.For(t.Skill, body).Milliseconds()}, mv, nil
}

// loc is the zone of triggers without a timezone.
func (s *Service) loc() *time.Location {
	if s.o.Location != nil {
		return s.o.Location
	}
	return time.Local
}

// latestSlot returns the last schedule time at or before now, starting
// from first (which is due). After a long downtime the scan starts two
// days back, so a frequent schedule does not walk every missed slot.
func latestSlot(next func(time.Time) time.Time, first, now time.Time) time.Time {
	slot := first
	if recent := now.Add(-48 * time.Hour); recent.After(first) {
		if n := next(recent); !n.IsZero() && !n.After(now) {
			slot = n
		}
	}
	for i := 0; i < 1_000_000; i++ {
		n := next(slot)
		if n.After(now) || n.IsZero() {
			break
		}
		slot = n
	}
	return slot
}

// approved returns the source of skill when it is Approved.
func (s *Service) approved(ctx context.Context, skill string) (string, bool) {
	if s.o.Skills == nil {
		return "", false
	}
	rec, err := s.o.Skills.Get(ctx, skill)
	if err != nil || rec == nil || contract.StatusWord(rec.Status) != contract.StatusApproved {
		return "", false
	}
	return rec.Body, true
}

// cronTraceID is the trace id of a cron fire: derived from the trigger and
// the slot, so the job's every attempt (and every host that inserted it)
// names the same run.
func cronTraceID(triggerID string, slot time.Time) string {
	sum := sha256.Sum256([]byte(triggerID + "\x00" + slot.UTC().Format(time.RFC3339Nano)))
	return hex.EncodeToString(sum[:16])
}

// List returns the triggers, of one skill when skill is set.
func (s *Service) List(ctx context.Context, skill string) ([]Trigger, error) {
	if skill != "" {
		return s.st.list(ctx, "skill = ?", skill)
	}
	return s.st.list(ctx, "")
}

// Register stores an imperative trigger and returns it with its id and
// first fire time. Without an id it is deduplicated: when the skill
// already has a trigger of the same kind, spec and timezone (registered
// or declared), that trigger is returned unchanged and nothing is
// stored; otherwise its id derives from those four, so hosts sharing a
// queue database that register the same pair at once store one row.
func (s *Service) Register(ctx context.Context, t Trigger) (Trigger, error) {
	if err := t.Validate(); err != nil {
		return Trigger{}, err
	}
	if t.ID == "" {
		s.regMu.Lock()
		defer s.regMu.Unlock()
		have, err := s.st.list(ctx, "skill = ? AND kind = ?", t.Skill, t.Kind)
		if err != nil {
			return Trigger{}, err
		}
		for _, h := range have {
			if h.Spec == t.Spec && h.Timezone == t.Timezone {
				return h, nil
			}
		}
		sum := sha256.Sum256([]byte(t.Skill + "\x00" + t.Kind + "\x00" + t.Spec + "\x00" + t.Timezone))
		t.ID = "trg-" + hex.EncodeToString(sum[:6])
	}
	if t.Source == "" {
		t.Source = SourceImperative
	}
	if err := s.bindEvent(ctx, t); err != nil {
		return Trigger{}, err
	}
	s.firstFire(&t)
	if err := s.st.upsert(ctx, t, s.now()); err != nil {
		return Trigger{}, err
	}
	return s.st.get(ctx, t.ID)
}

// firstFire sets the first fire time of a cron trigger.
func (s *Service) firstFire(t *Trigger) {
	if t.Kind != KindCron {
		return
	}
	if sched, err := Schedule(t.Spec, t.Timezone, s.loc()); err == nil {
		n := sched.Next(s.now())
		t.NextFire = &n
	}
}

// bindEvent enforces one skill per event name: a trigger of another skill
// on the same name is removed (last write wins) and the rebind logged.
func (s *Service) bindEvent(ctx context.Context, t Trigger) error {
	if t.Kind != KindEvent {
		return nil
	}
	prev, err := s.st.list(ctx, "kind = ? AND spec = ?", KindEvent, t.Spec)
	if err != nil {
		return err
	}
	for _, p := range prev {
		if p.ID == t.ID {
			continue
		}
		if p.Skill != t.Skill {
			s.log.Warn("event rebound", "event", t.Spec, "from", p.Skill, "to", t.Skill)
		}
		if _, err := s.st.remove(ctx, p.ID); err != nil {
			return err
		}
	}
	return nil
}

// Unregister removes a trigger.
func (s *Service) Unregister(ctx context.Context, id string) error {
	ok, err := s.st.remove(ctx, id)
	if err == nil && !ok {
		err = &NotFoundError{ID: id}
	}
	return err
}

// SetEnabled enables or disables a trigger.
func (s *Service) SetEnabled(ctx context.Context, id string, enabled bool) (Trigger, error) {
	ok, err := s.st.setEnabled(ctx, id, enabled)
	if err != nil {
		return Trigger{}, err
	}
	if !ok {
		return Trigger{}, &NotFoundError{ID: id}
	}
	return s.st.get(ctx, id)
}

// SyncSkill makes the skill's declared triggers match its # Triggers:
// header; body "" removes them. Unchanged triggers keep their schedule.
func (s *Service) SyncSkill(ctx context.Context, name, body string) error {
	want := map[string]Trigger{}
	if body != "" {
		for _, t := range Declared(name, body) {
			want[t.ID] = t
		}
	}
	have, err := s.st.list(ctx, "skill = ? AND source = ?", name, SourceDeclared)
	if err != nil {
		return err
	}
	for _, h := range have {
		if _, keep := want[h.ID]; keep {
			delete(want, h.ID)
			continue
		}
		if _, err := s.st.remove(ctx, h.ID); err != nil {
			return err
		}
	}
	for _, t := range sortedTriggers(want) {
		if err := t.Validate(); err != nil {
			s.log.Warn("declared trigger ignored", "skill", name, "spec", t.Spec, "err", err)
			continue
		}
		if err := s.bindEvent(ctx, t); err != nil {
			return err
		}
		s.firstFire(&t)
		if err := s.st.upsert(ctx, t, s.now()); err != nil {
			return err
		}
	}
	return nil
}

func sortedTriggers(m map[string]Trigger) []Trigger {
	out := make([]Trigger, 0, len(m))
	for _, t := range m {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// SyncAll syncs every stored skill and drops declared triggers of skills
// that no longer exist.
func (s *Service) SyncAll(ctx context.Context) error {
	if s.o.Skills == nil {
		return nil
	}
	metas, err := s.o.Skills.List(ctx, contract.SkillQuery{})
	if err != nil {
		return err
	}
	present := map[string]bool{}
	for _, m := range metas {
		present[m.Name] = true
		rec, err := s.o.Skills.Get(ctx, m.Name)
		if err != nil || rec == nil {
			continue
		}
		if err := s.SyncSkill(ctx, m.Name, rec.Body); err != nil {
			return err
		}
	}
	all, err := s.st.list(ctx, "source = ?", SourceDeclared)
	if err != nil {
		return err
	}
	for _, t := range all {
		if !present[t.Skill] {
			if _, err := s.st.remove(ctx, t.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// Declared returns the triggers a skill source declares, with stable ids.
func Declared(name, body string) []Trigger {
	f := workspace.Parse(name, []byte(body)).File
	var out []Trigger
	for _, hd := range f.HeadersOf(ast.HeaderTriggers) {
		for _, t := range hd.Triggers {
			if t.Source == nil {
				continue
			}
			kind := strings.ToLower(t.Source.Name)
			spec := strings.Trim(strings.TrimSpace(t.Spec), `"'`)
			if kind == KindEvent {
				spec = strings.ToLower(spec)
			}
			sum := sha256.Sum256([]byte(name + "\x00" + kind + "\x00" + spec))
			out = append(out, Trigger{ID: "decl-" + hex.EncodeToString(sum[:6]), Skill: name, Kind: kind, Spec: spec, Enabled: true, Source: SourceDeclared})
		}
	}
	return out
}

// FireEvent queues a run of the skill bound to event, with params as its
// inputs, strictly checked against its # Vars:. It returns the trace id.
func (s *Service) FireEvent(ctx context.Context, event string, params map[string]any) (string, error) {
	id, _, err := s.FireEventOnce(ctx, event, params, "")
	return id, err
}

// MaxIdempotencyKey is the longest Idempotency-Key accepted, in bytes.
const MaxIdempotencyKey = 255

// FireEventOnce is FireEvent with the poster's idempotency key: the first
// post of a key queues a job; a later post of the same key on the same
// event, while that job is kept (queued, running, or finished within
// River's retention of completed jobs, 24 hours), queues nothing and
// returns the first job's trace id with dup set. An empty key queues
// every post.
func (s *Service) FireEventOnce(ctx context.Context, event string, params map[string]any, key string) (string, bool, error) {
	event = strings.ToLower(strings.TrimSpace(event))
	if len(key) > MaxIdempotencyKey {
		return "", false, &ParamError{Msg: fmt.Sprintf("Idempotency-Key is %d bytes long, more than %d", len(key), MaxIdempotencyKey)}
	}
	ts, err := s.st.list(ctx, "kind = ? AND spec = ? AND enabled = 1", KindEvent, event)
	if err != nil {
		return "", false, err
	}
	if len(ts) == 0 {
		return "", false, &NotFoundError{ID: "event " + event}
	}
	t := ts[0]
	if s.o.Skills == nil {
		return "", false, &NotFoundError{ID: "event " + event + " (no skill store)"}
	}
	rec, err := s.o.Skills.Get(ctx, t.Skill)
	if err != nil || rec == nil || contract.StatusWord(rec.Status) != contract.StatusApproved {
		return "", false, &NotFoundError{ID: "event " + event + " (its skill " + t.Skill + " is not Approved)"}
	}
	if err := checkParams(t.Skill, rec.Body, params); err != nil {
		return "", false, err
	}
	id := randomHex(16)
	args := FireArgs{TriggerID: t.ID, Skill: t.Skill, FireAt: s.now().UnixMilli(), TriggerKind: KindEvent, Spec: event, TraceID: id, Params: params,
		TimeoutMS: s.o.Queue.Timeouts.For(t.Skill, rec.Body).Milliseconds()}
	if key != "" {
		args.IdempotencyKey, args.FiredAtMS, args.FireAt = key, args.FireAt, 0
	}
	queued, dup, err := s.q.insert(ctx, args, key != "")
	if err != nil {
		return "", false, err
	}
	return queued.TraceID, dup, nil
}

// QueueDepth counts the fires queued, retrying or running, of every host
// sharing the queue.
func (s *Service) QueueDepth(ctx context.Context) (int, error) { return s.q.depth(ctx) }

// checkParams requires every # Vars: input without a default and refuses
// unknown ones.
func checkParams(name, body string, params map[string]any) error {
	f := workspace.Parse(name, []byte(body)).File
	declared := map[string]bool{}
	var missing []string
	for _, hd := range f.HeadersOf(ast.HeaderVars) {
		for _, v := range hd.Vars {
			if v.Name == nil {
				continue
			}
			declared[v.Name.Name] = true
			if _, ok := params[v.Name.Name]; !ok && v.Default == nil {
				missing = append(missing, v.Name.Name)
			}
		}
	}
	var unknown []string
	for k := range params {
		if !declared[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(unknown)
	switch {
	case len(missing) > 0:
		return &ParamError{Msg: fmt.Sprintf("params: missing %s (declared in # Vars: of %s)", strings.Join(missing, ", "), name)}
	case len(unknown) > 0:
		return &ParamError{Msg: fmt.Sprintf("params: unknown %s (not in # Vars: of %s)", strings.Join(unknown, ", "), name)}
	}
	return nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
