package trigger

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval/substrate/skillstore"
)

// fixture is a service on a real SQLite queue under a temp home, with an
// injected clock and a runner that records fires.
type fixture struct {
	t     testing.TB
	home  string
	store *skillstore.FS
	mu    sync.Mutex
	now   time.Time
	fires chan Fire
	run   func(Fire) error
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	home := t.TempDir()
	st, err := skillstore.NewFS(filepath.Join(home, "skills"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, home: home, store: st, fires: make(chan Fire, 100), now: time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)}
}

func (fx *fixture) clock() time.Time {
	fx.mu.Lock()
	defer fx.mu.Unlock()
	return fx.now
}

func (fx *fixture) set(t time.Time) {
	fx.mu.Lock()
	fx.now = t
	fx.mu.Unlock()
}

func (fx *fixture) open() *Service {
	fx.t.Helper()
	svc, err := Open(context.Background(), Options{
		Queue:  QueueOptions{Home: fx.home, FetchPollInterval: 20 * time.Millisecond},
		Skills: fx.store, Clock: fx.clock, PollInterval: time.Hour, Location: time.UTC,
		Run: func(_ context.Context, f Fire) error {
			fx.fires <- f
			if fx.run != nil {
				return fx.run(f)
			}
			return nil
		},
	})
	if err != nil {
		fx.t.Fatal(err)
	}
	return svc
}

func (fx *fixture) skill(name, body string) {
	fx.t.Helper()
	if _, err := fx.store.Write(context.Background(), name, body, "test"); err != nil {
		fx.t.Fatal(err)
	}
}

func (fx *fixture) tick(svc *Service, at time.Time) int {
	fx.t.Helper()
	fx.set(at)
	n, err := svc.Tick(context.Background(), at)
	if err != nil {
		fx.t.Fatal(err)
	}
	return n
}

// waitFire returns the next fire the workers ran.
func (fx *fixture) waitFire() Fire {
	fx.t.Helper()
	select {
	case f := <-fx.fires:
		return f
	case <-time.After(10 * time.Second):
		fx.t.Fatal("no fire ran")
	}
	return Fire{}
}

func (fx *fixture) noFire(d time.Duration) {
	fx.t.Helper()
	select {
	case f := <-fx.fires:
		fx.t.Fatalf("unexpected fire %+v", f)
	case <-time.After(d):
	}
}

const cronSkill = "# Skill: daily\n# Status: Approved\n# Triggers: cron: 0 9 * * *\n\nran\n"

func day(d, h, m int) time.Time { return time.Date(2026, 1, d, h, m, 0, 0, time.UTC) }

func TestCronTicksWithInjectedClock(t *testing.T) {
	fx := newFixture(t)
	fx.skill("daily", cronSkill)
	svc := fx.open()
	ctx := context.Background()
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer svc.Stop(ctx)
	ts, _ := svc.List(ctx, "daily")
	if len(ts) != 1 || ts[0].NextFire == nil || !ts[0].NextFire.Equal(day(5, 9, 0)) || ts[0].Source != SourceDeclared {
		t.Fatalf("declared trigger = %+v", ts)
	}
	if n := fx.tick(svc, day(5, 8, 59)); n != 0 {
		t.Errorf("tick before due inserted %d", n)
	}
	if n := fx.tick(svc, day(5, 9, 0)); n != 1 {
		t.Errorf("due tick inserted %d, want 1", n)
	}
	if n := fx.tick(svc, day(5, 9, 0)); n != 0 {
		t.Errorf("repeated tick inserted %d", n)
	}
	f := fx.waitFire()
	if f.Skill != "daily" || f.Kind != KindCron || !f.FireAt.Equal(day(5, 9, 0)) {
		t.Errorf("fire = %+v", f)
	}
	// down for three days: one fire, for the latest missed slot
	if n := fx.tick(svc, day(8, 10, 30)); n != 1 {
		t.Errorf("after downtime inserted %d, want 1 (coalesced)", n)
	}
	if f := fx.waitFire(); !f.FireAt.Equal(day(8, 9, 0)) {
		t.Errorf("coalesced fire at %v, want %v", f.FireAt, day(8, 9, 0))
	}
	ts, _ = svc.List(ctx, "daily")
	if !ts[0].NextFire.Equal(day(9, 9, 0)) || !ts[0].LastFire.Equal(day(8, 9, 0)) {
		t.Errorf("after fire: next %v last %v", ts[0].NextFire, ts[0].LastFire)
	}
}

func TestCronTimezoneAndStatus(t *testing.T) {
	fx := newFixture(t)
	fx.skill("ny", "# Skill: ny\n# Status: Approved\n\nx\n")
	fx.skill("draft", "# Skill: draft\n# Status: Draft\n# Triggers: cron: 0 9 * * *\n\nx\n")
	svc := fx.open()
	ctx := context.Background()
	defer svc.Stop(ctx)
	if err := svc.SyncAll(ctx); err != nil {
		t.Fatal(err)
	}
	tr, err := svc.Register(ctx, Trigger{Skill: "ny", Kind: KindCron, Spec: "0 9 * * *", Timezone: "America/New_York", Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if !tr.NextFire.Equal(day(5, 14, 0)) { // 09:00 EST
		t.Errorf("New York 09:00 = %v, want 14:00 UTC", tr.NextFire)
	}
	if n := fx.tick(svc, day(5, 9, 30)); n != 0 {
		t.Errorf("Draft skill fired (%d jobs)", n)
	}
	if n := fx.tick(svc, day(5, 14, 0)); n != 1 {
		t.Errorf("New York trigger inserted %d", n)
	}
	if _, err := svc.Register(ctx, Trigger{Skill: "ny", Kind: KindCron, Spec: "0 9 * * *", Timezone: "Mars/Olympus"}); err == nil {
		t.Error("unknown timezone accepted")
	}
	for _, spec := range []string{"@hourly", "CRON_TZ=UTC 0 9 * * *", "0 9 * *", "61 * * * *"} {
		if _, err := svc.Register(ctx, Trigger{Skill: "ny", Kind: KindCron, Spec: spec}); err == nil {
			t.Errorf("cron %q accepted", spec)
		}
	}
	if _, err := svc.SetEnabled(ctx, tr.ID, false); err != nil {
		t.Fatal(err)
	}
	if n := fx.tick(svc, day(6, 14, 0)); n != 0 {
		t.Errorf("disabled trigger inserted %d", n)
	}
	if err := svc.Unregister(ctx, tr.ID); err != nil || !IsNotFound(svc.Unregister(ctx, tr.ID)) {
		t.Errorf("unregister: %v", err)
	}
}

// Two hosts sharing one queue database insert one job per due fire.
func TestTwoHostsOneFire(t *testing.T) {
	fx := newFixture(t)
	fx.skill("daily", cronSkill)
	a, b := fx.open(), fx.open()
	ctx := context.Background()
	defer a.Stop(ctx)
	defer b.Stop(ctx)
	if err := a.SyncAll(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.SyncAll(ctx); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i, s := range []*Service{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := s.Tick(ctx, day(5, 9, 0))
			if err != nil {
				t.Error(err)
			}
			counts[i] = n
		}()
	}
	wg.Wait()
	if counts[0]+counts[1] != 1 {
		t.Errorf("two hosts inserted %v jobs, want 1 in total", counts)
	}
}

func TestRefusalIsNotRetried(t *testing.T) {
	fx := newFixture(t)
	fx.skill("daily", cronSkill)
	fx.run = func(Fire) error { return &Refusal{Reason: "policy"} }
	svc := fx.open()
	ctx := context.Background()
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer svc.Stop(ctx)
	fx.tick(svc, day(5, 9, 0))
	fx.waitFire()
	fx.noFire(3 * time.Second) // a retry would come after 2s
}

func TestRetryableFailureIsRetried(t *testing.T) {
	fx := newFixture(t)
	fx.skill("daily", cronSkill)
	fx.run = func(f Fire) error {
		if f.Attempt == 1 {
			return errors.New("timeout")
		}
		return nil
	}
	svc := fx.open()
	ctx := context.Background()
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer svc.Stop(ctx)
	fx.tick(svc, day(5, 9, 0))
	if f := fx.waitFire(); f.Attempt != 1 {
		t.Fatalf("first attempt = %d", f.Attempt)
	}
	if f := fx.waitFire(); f.Attempt != 2 {
		t.Errorf("retry attempt = %d", f.Attempt)
	}
}

func TestEventsAndPersistence(t *testing.T) {
	fx := newFixture(t)
	fx.skill("prox", "# Skill: prox\n# Status: Approved\n# Triggers: event: Prox\n# Vars: ROOM, USER=\"anon\"\n\n${USER} in ${ROOM}\n")
	fx.skill("other", "# Skill: other\n# Status: Approved\n\nx\n")
	svc := fx.open()
	ctx := context.Background()
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var pe *ParamError
	if _, err := svc.FireEvent(ctx, "prox", map[string]any{}); !errors.As(err, &pe) {
		t.Errorf("missing ROOM: %v", err)
	}
	if _, err := svc.FireEvent(ctx, "prox", map[string]any{"ROOM": "k", "X": 1}); !errors.As(err, &pe) {
		t.Errorf("unknown X: %v", err)
	}
	if _, err := svc.FireEvent(ctx, "nope", nil); !IsNotFound(err) {
		t.Errorf("unknown event: %v", err)
	}
	id, err := svc.FireEvent(ctx, "PROX", map[string]any{"ROOM": "kitchen"})
	if err != nil || id == "" {
		t.Fatalf("FireEvent: %q %v", id, err)
	}
	if f := fx.waitFire(); f.TraceID != id || f.Params["ROOM"] != "kitchen" || f.Kind != KindEvent {
		t.Errorf("event fire = %+v", f)
	}
	// rebinding the event to another skill replaces the binding
	if _, err := svc.Register(ctx, Trigger{Skill: "other", Kind: KindEvent, Spec: "prox", Enabled: true}); err != nil {
		t.Fatal(err)
	}
	reg, err := svc.Register(ctx, Trigger{Skill: "other", Kind: KindCron, Spec: "*/5 * * * *", Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	// a restart keeps registered triggers
	svc2 := fx.open()
	defer svc2.Stop(ctx)
	all, _ := svc2.List(ctx, "")
	var kinds []string
	for _, tr := range all {
		kinds = append(kinds, tr.Skill+"/"+tr.Kind+"/"+tr.Spec)
	}
	if len(all) != 2 || kinds[0] != "other/cron/*/5 * * * *" || kinds[1] != "other/event/prox" {
		t.Errorf("after restart: %v", kinds)
	}
	if _, err := svc2.SetEnabled(ctx, reg.ID, false); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(fx.home, "queue.db")); err != nil {
		t.Error(err)
	}
}

func TestSyncFollowsHeader(t *testing.T) {
	fx := newFixture(t)
	svc := fx.open()
	ctx := context.Background()
	defer svc.Stop(ctx)
	if err := svc.SyncSkill(ctx, "s", "# Skill: s\n# Triggers: cron: 0 9 * * *, event: go\n\nx\n"); err != nil {
		t.Fatal(err)
	}
	ts, _ := svc.List(ctx, "s")
	if len(ts) != 2 {
		t.Fatalf("declared = %+v", ts)
	}
	if err := svc.SyncSkill(ctx, "s", "# Skill: s\n# Triggers: event: go\n\nx\n"); err != nil {
		t.Fatal(err)
	}
	ts, _ = svc.List(ctx, "s")
	if len(ts) != 1 || ts[0].Kind != KindEvent {
		t.Errorf("after edit = %+v", ts)
	}
}

func TestLatestSlotAfterLongDowntime(t *testing.T) {
	sched, err := Schedule("* * * * *", "", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	first := day(1, 0, 0)
	now := first.Add(4000*24*time.Hour + 30*time.Second) // millions of one-minute slots
	got := latestSlot(sched.Next, first, now)
	if want := now.Truncate(time.Minute); !got.Equal(want) {
		t.Errorf("latest slot = %v, want %v", got, want)
	}
	yearly, _ := Schedule("0 0 1 1 *", "", time.UTC)
	if got := latestSlot(yearly.Next, day(1, 0, 0), day(20, 0, 0)); !got.Equal(day(1, 0, 0)) {
		t.Errorf("yearly latest = %v", got)
	}
}

// TestRegisterDedupe registers one (skill, kind, spec, timezone) 50 times
// at once: one trigger, one id. A repeat of a declared trigger returns
// it; a repeat of a disabled one returns it still disabled; explicit ids
// are not deduplicated.
func TestRegisterDedupe(t *testing.T) {
	fx := newFixture(t)
	fx.skill("daily", "# Skill: daily\n# Status: Approved\n# Triggers: cron: 0 9 * * *\n\nx\n")
	svc := fx.open()
	ctx := context.Background()
	defer svc.Stop(ctx)
	if err := svc.SyncAll(ctx); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	ids := make(chan string, 50)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tr, err := svc.Register(ctx, Trigger{Skill: "daily", Kind: KindCron, Spec: "*/5  * * * *", Timezone: "Europe/Paris", Enabled: true})
			if err != nil {
				t.Error(err)
				return
			}
			ids <- tr.ID
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		seen[id] = true
	}
	ts, _ := svc.List(ctx, "daily")
	if len(seen) != 1 || len(ts) != 2 {
		t.Fatalf("50 identical registrations: ids %v, triggers %+v", seen, ts)
	}
	decl, err := svc.Register(ctx, Trigger{Skill: "daily", Kind: KindCron, Spec: "0 9 * * *", Enabled: true})
	if err != nil || decl.Source != SourceDeclared {
		t.Errorf("repeat of the declared trigger = %+v, %v", decl, err)
	}
	var id string
	for k := range seen {
		id = k
	}
	if _, err := svc.SetEnabled(ctx, id, false); err != nil {
		t.Fatal(err)
	}
	again, err := svc.Register(ctx, Trigger{Skill: "daily", Kind: KindCron, Spec: "*/5 * * * *", Timezone: "Europe/Paris", Enabled: true})
	if err != nil || again.ID != id || again.Enabled {
		t.Errorf("repeat of a disabled trigger = %+v, %v", again, err)
	}
	for _, explicit := range []string{"a", "b"} {
		if _, err := svc.Register(ctx, Trigger{ID: explicit, Skill: "daily", Kind: KindCron, Spec: "*/5 * * * *", Enabled: true}); err != nil {
			t.Fatal(err)
		}
	}
	if ts, _ := svc.List(ctx, "daily"); len(ts) != 4 {
		t.Errorf("explicit ids: %d triggers, want 4", len(ts))
	}
}
