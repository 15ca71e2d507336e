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

// maxFailures bounds wrong passcodes from one client address before
// unlocking pauses for that address.
const (
	maxFailures  = 5
	failureDelay = time.Minute
	// maxClients bounds the addresses whose failures are remembered.
	maxClients = 4096
)

// sessions are the unlocked browser sessions, server-side.
type sessions struct {
	mu       sync.Mutex
	now      func() time.Time
	lastUsed map[string]time.Time // session id -> last use
	failed   map[string]*failures // client address -> its wrong passcodes
}

// failures are one client address's wrong passcodes.
type failures struct {
	count    int
	last     time.Time
	pausedTo time.Time
}

func newSessions(now func() time.Time) *sessions {
	return &sessions{now: now, lastUsed: map[string]time.Time{}, failed: map[string]*failures{}}
}

// unlock checks the passcode (in constant time) and opens a session. ok
// is false for a wrong passcode; paused reports that unlocking is paused
// for client (its address, httpguard.ClientKey) after repeated failures.
// Another address's guesses never lock this one out.
func (s *sessions) unlock(client, passcode, given string) (id string, ok, paused bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	f := s.failed[client]
	if f != nil && now.Before(f.pausedTo) {
		return "", false, true
	}
	if passcode == "" || subtle.ConstantTimeCompare([]byte(passcode), []byte(given)) != 1 {
		if f == nil {
			s.forgetOldFailures(now)
			f = &failures{}
			s.failed[client] = f
		}
		f.count++
		f.last = now
		if f.count >= maxFailures {
			f.count, f.pausedTo = 0, now.Add(failureDelay)
		}
		return "", false, false
	}
	delete(s.failed, client)
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

// forgetOldFailures drops the records of addresses that are not paused
// and failed longer than failureDelay ago once maxClients are remembered;
// if all are recent, the oldest goes.
func (s *sessions) forgetOldFailures(now time.Time) {
	if len(s.failed) < maxClients {
		return
	}
	var oldest string
	for k, f := range s.failed {
		if now.After(f.pausedTo) && now.Sub(f.last) > failureDelay {
			delete(s.failed, k)
		} else if oldest == "" || f.last.Before(s.failed[oldest].last) {
			oldest = k
		}
	}
	if len(s.failed) >= maxClients {
		delete(s.failed, oldest)
	}
}
