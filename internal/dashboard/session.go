package dashboard

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"sync"
	"time"
)

// SessionTTL is how long an unlocked session stays usable without use.
const SessionTTL = 15 * time.Minute

// maxFailures bounds wrong passcodes before unlocking pauses.
const (
	maxFailures  = 5
	failureDelay = time.Minute
)

// sessions are the unlocked browser sessions, server-side.
type sessions struct {
	mu       sync.Mutex
	now      func() time.Time
	lastUsed map[string]time.Time // session id -> last use
	failures int
	pausedTo time.Time
}

func newSessions(now func() time.Time) *sessions {
	return &sessions{now: now, lastUsed: map[string]time.Time{}}
}

// unlock checks the passcode (in constant time) and opens a session. ok
// is false for a wrong passcode; paused reports that unlocking is paused
// after repeated failures.
func (s *sessions) unlock(passcode, given string) (id string, ok, paused bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if now.Before(s.pausedTo) {
		return "", false, true
	}
	if passcode == "" || subtle.ConstantTimeCompare([]byte(passcode), []byte(given)) != 1 {
		s.failures++
		if s.failures >= maxFailures {
			s.failures, s.pausedTo = 0, now.Add(failureDelay)
		}
		return "", false, false
	}
	s.failures = 0
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", false, false
	}
	id = hex.EncodeToString(b[:])
	s.lastUsed[id] = now
	return id, true, false
}

// touch reports whether id is an unlocked session and renews it.
func (s *sessions) touch(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for k, t := range s.lastUsed { // expire idle sessions
		if now.Sub(t) > SessionTTL {
			delete(s.lastUsed, k)
		}
	}
	if _, ok := s.lastUsed[id]; !ok || id == "" {
		return false
	}
	s.lastUsed[id] = now
	return true
}

// lock ends a session.
func (s *sessions) lock(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.lastUsed, id)
}
