package trigger

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/testsupport/pgtest"
)

// Two hosts on one Postgres: one cron due, exactly one fire runs.
func TestPostgresTwoHostsOneFire(t *testing.T) {
	url := pgtest.Start(t)
	fx := newFixture(t)
	fx.skill("daily", cronSkill)
	var mu sync.Mutex
	ran := 0
	open := func() *Service {
		svc, err := Open(context.Background(), Options{
			Queue:  QueueOptions{URL: url, FetchPollInterval: 20 * time.Millisecond},
			Skills: fx.store, Clock: fx.clock, PollInterval: time.Hour,
			Run: func(context.Context, Fire) error {
				mu.Lock()
				ran++
				mu.Unlock()
				return nil
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	a, b := open(), open()
	ctx := context.Background()
	for _, s := range []*Service{a, b} {
		if err := s.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer s.Stop(ctx)
	}
	if a.Durability() != "durable (postgres queue)" {
		t.Errorf("durability = %q", a.Durability())
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
		t.Errorf("jobs inserted %v, want 1 in total", counts)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := ran
		mu.Unlock()
		if n > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // room for a wrong second run
	mu.Lock()
	defer mu.Unlock()
	if ran != 1 {
		t.Errorf("fires run = %d, want exactly 1", ran)
	}
}

// 22.4: three hosts opening the queue at the same instant on an empty
// Postgres all come up: the queue's migration (River's tables, then
// skillc's) runs under an advisory lock, one host at a time.
func TestPostgresConcurrentMigrations(t *testing.T) {
	url := pgtest.Start(t)
	fx := newFixture(t)
	const hosts = 3
	start := make(chan struct{})
	errs := make([]error, hosts)
	svcs := make([]*Service, hosts)
	var wg sync.WaitGroup
	for i := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			svcs[i], errs[i] = Open(context.Background(), Options{
				Queue:  QueueOptions{URL: url, FetchPollInterval: 20 * time.Millisecond, Host: fmt.Sprintf("host%d", i)},
				Skills: fx.store, PollInterval: time.Hour,
				Run: func(context.Context, Fire) error { return nil },
			})
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("host %d: %v", i, err)
			continue
		}
		if err := svcs[i].Start(context.Background()); err != nil {
			t.Errorf("host %d start: %v", i, err)
		}
		defer svcs[i].Stop(context.Background())
	}
}
