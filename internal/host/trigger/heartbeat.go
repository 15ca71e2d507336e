package trigger

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
)

// heartbeatSchema records, per River client (one per host process), when
// it was last seen alive.
const heartbeatSchema = `CREATE TABLE IF NOT EXISTS skillc_queue_clients (
	id TEXT PRIMARY KEY,
	seen_at BIGINT NOT NULL
)`

// DefaultHostTimeout is how long a host may miss its heartbeat before
// the jobs it holds are rescued.
const DefaultHostTimeout = 15 * time.Second

// forgetClientsAfter drops heartbeat rows of clients gone this long.
const forgetClientsAfter = 24 * time.Hour

// clientPrefix is the part of a River client id that names the host: it
// survives a restart, so the restarted host knows its predecessor's jobs.
func clientPrefix(host string) string {
	sum := sha256.Sum256([]byte(host))
	return "skillc_" + hex.EncodeToString(sum[:6]) + "_"
}

// clientID is a fresh River client id for one process of host.
func clientID(host string) string {
	return clientPrefix(host) + randomHex(6)
}

// hostTimeout is the configured heartbeat timeout or its default.
func (s *Service) hostTimeout() time.Duration {
	if d := s.o.Queue.HostTimeout; d > 0 {
		return d
	}
	return DefaultHostTimeout
}

// beat records that this process is alive.
func (s *Service) beat(ctx context.Context) error {
	now := time.Now().UnixMilli()
	_, err := s.st.db.ExecContext(ctx, s.st.q(`INSERT INTO skillc_queue_clients(id, seen_at) VALUES(?, ?)
		ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`), s.q.id(), now)
	if err != nil {
		return fmt.Errorf("queue heartbeat: %w", err)
	}
	_, err = s.st.db.ExecContext(ctx, s.st.q(`DELETE FROM skillc_queue_clients WHERE seen_at < ?`), now-forgetClientsAfter.Milliseconds())
	return err
}

// forget removes this process's heartbeat at a clean stop.
func (s *Service) forget(ctx context.Context) {
	_, _ = s.st.db.ExecContext(ctx, s.st.q(`DELETE FROM skillc_queue_clients WHERE id = ?`), s.q.id())
}

// RescueDead makes the running jobs of dead hosts available again, at
// once rather than after River's rescue window: a job whose last attempt
// belongs to a former process of this host (killed; this process has
// not started working yet or never fetched it), or to a client whose
// heartbeat is older than the host timeout. The job's next attempt looks
// up its run before running (see doc.go), so a rescued job never repeats
// a finished run. It returns the number of jobs rescued.
func (s *Service) RescueDead(ctx context.Context) (int, error) {
	jobs, err := s.q.running(ctx)
	if err != nil || len(jobs) == 0 {
		return 0, err
	}
	seen := map[string]int64{}
	rows, err := s.st.db.QueryContext(ctx, `SELECT id, seen_at FROM skillc_queue_clients`)
	if err != nil {
		return 0, fmt.Errorf("queue heartbeats: %w", err)
	}
	for rows.Next() {
		var id string
		var at int64
		if err := rows.Scan(&id, &at); err != nil {
			rows.Close()
			return 0, err
		}
		seen[id] = at
	}
	rows.Close()
	me, prefix := s.q.id(), clientPrefix(s.o.Queue.Host)
	stale := time.Now().Add(-s.hostTimeout()).UnixMilli()
	n := 0
	for _, j := range jobs {
		if len(j.AttemptedBy) == 0 {
			continue
		}
		by := j.AttemptedBy[len(j.AttemptedBy)-1]
		at, known := seen[by]
		dead := by != me && (strings.HasPrefix(by, prefix) || (known && at < stale))
		if !dead {
			continue
		}
		res, err := s.st.db.ExecContext(ctx, s.st.q(`UPDATE river_job SET state = 'available' WHERE id = ? AND state = 'running'`), j.ID)
		if err != nil {
			return n, fmt.Errorf("rescue job %d: %w", j.ID, err)
		}
		if k, _ := res.RowsAffected(); k > 0 {
			n++
			s.log.Warn("rescued the job of a dead host", "job", j.ID, "attempt", j.Attempt, "client", by)
		}
	}
	return n, nil
}

// heartbeat beats and rescues dead hosts' jobs until stopc closes.
func (s *Service) heartbeat(stopc <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	t := time.NewTicker(s.hostTimeout() / 3)
	defer t.Stop()
	for {
		select {
		case <-stopc:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), s.hostTimeout())
		if err := s.beatNoted(ctx); err != nil {
			s.log.Warn("queue heartbeat failed", "err", err)
		}
		if _, err := s.RescueDead(ctx); err != nil {
			s.log.Warn("rescue of dead hosts' jobs failed", "err", err)
		}
		cancel()
	}
}

// beatNoted beats and notes the outcome for Ready.
func (s *Service) beatNoted(ctx context.Context) error {
	err := s.beat(ctx)
	s.hbMu.Lock()
	s.hbErr = err
	if err == nil {
		s.hbOK = time.Now()
	}
	s.hbMu.Unlock()
	return err
}

// Ready reports whether the queue can take and run fires, as /readyz
// shows it: the River client is running, the queue database answers a
// read of the job table, and this host's last heartbeat (a write, every
// host timeout / 3) succeeded within twice the host timeout. It does
// not write, so it never waits on a database lock.
func (s *Service) Ready(ctx context.Context) error {
	if s.q.stopped() {
		return errors.New("queue client stopped")
	}
	var n int
	if err := s.q.db().QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM river_job LIMIT 1) AS j`).Scan(&n); err != nil {
		return fmt.Errorf("queue database: %w", err)
	}
	s.hbMu.Lock()
	ok, err := s.hbOK, s.hbErr
	s.hbMu.Unlock()
	if err != nil {
		return fmt.Errorf("queue heartbeat failed: %w", err)
	}
	if ok.IsZero() {
		return errors.New("queue not started")
	}
	if late := time.Since(ok); late > 2*s.hostTimeout() {
		return fmt.Errorf("queue heartbeat not written for %s (host timeout %s)", late.Round(time.Second), s.hostTimeout())
	}
	return nil
}
