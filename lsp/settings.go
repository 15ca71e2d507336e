package lsp

import (
	"context"
	"encoding/json"
	"maps"
	"sync"
	"time"
)

// settings are the server settings an editor may send in the "skillc"
// section of workspace/configuration (the VS Code extension's settings):
//
//	{"server": {"debounceMs": 25}, "env": {"K": "v"}, "skillscriptHome": "/path"}
//
// server.debounceMs replaces Options.Debounce (0: none);
// server.fullAnalysisDelayMs replaces Options.FullDelay (0 or negative: the
// whole analysis after every edit, no local lane); env entries and
// skillscriptHome (as SKILLSCRIPT_HOME) override the environment that
// configuration discovery reads.
type settings struct {
	Server struct {
		DebounceMs          *int `json:"debounceMs"`
		FullAnalysisDelayMs *int `json:"fullAnalysisDelayMs"`
	} `json:"server"`
	Env             map[string]string `json:"env"`
	SkillscriptHome string            `json:"skillscriptHome"`
}

// liveSettings holds the settings in force; safe for concurrent use.
type liveSettings struct {
	mu       sync.Mutex
	debounce *time.Duration
	// fullDelay replaces Options.FullDelay (0 or negative: no lane)
	fullDelay *time.Duration
	env       map[string]string
}

// set replaces the settings.
func (l *liveSettings) set(st settings) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.debounce = nil
	if st.Server.DebounceMs != nil {
		d := time.Duration(*st.Server.DebounceMs) * time.Millisecond
		l.debounce = &d
	}
	l.fullDelay = nil
	if st.Server.FullAnalysisDelayMs != nil {
		d := time.Duration(*st.Server.FullAnalysisDelayMs) * time.Millisecond
		l.fullDelay = &d
	}
	l.env = maps.Clone(st.Env)
	if st.SkillscriptHome != "" {
		if l.env == nil {
			l.env = map[string]string{}
		}
		l.env["SKILLSCRIPT_HOME"] = st.SkillscriptHome
	}
}

// lookup returns an overridden environment variable.
func (l *liveSettings) lookup(key string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	v, ok := l.env[key]
	return v, ok
}

// debounce returns the delay before the full analysis after an edit.
func (s *Server) debounce() time.Duration {
	s.settings.mu.Lock()
	d := s.settings.debounce
	s.settings.mu.Unlock()
	if d != nil {
		return max(*d, 0)
	}
	return s.opts.debounce()
}

// lookupEnv is the environment configuration discovery reads: the
// editor's overrides, then Options.Env.
func (s *Server) lookupEnv(key string) (string, bool) {
	if v, ok := s.settings.lookup(key); ok {
		return v, true
	}
	if s.baseEnv == nil {
		return "", false
	}
	return s.baseEnv(key)
}

// pullSettings asks a client that supports workspace/configuration for
// the "skillc" section and applies it; it reports whether it changed
// anything that configuration depends on.
func (s *Server) pullSettings() bool {
	s.mu.Lock()
	supported := s.client.configuration
	s.mu.Unlock()
	if !supported {
		return false
	}
	ctx, cancel := context.WithTimeout(s.ctx, clientCallTimeout)
	defer cancel()
	var res []json.RawMessage
	params := map[string]any{"items": []any{map[string]any{"section": "skillc"}}}
	if _, err := s.conn.Call(ctx, "workspace/configuration", params, &res); err != nil {
		s.logf("workspace/configuration: %v", err)
		return false
	}
	var st settings
	if len(res) == 1 && string(res[0]) != "null" {
		if err := json.Unmarshal(res[0], &st); err != nil {
			s.logf("workspace/configuration: ignoring invalid skillc settings: %v", err)
			return false
		}
	}
	s.settings.mu.Lock()
	old := s.settings.env
	s.settings.mu.Unlock()
	s.settings.set(st)
	s.settings.mu.Lock()
	defer s.settings.mu.Unlock()
	return !maps.Equal(old, s.settings.env)
}
