package lsp

import (
	"encoding/json"
	"testing"
	"time"
)

// TestFullDelaySetting pins how the delay of the whole analysis after a
// lane step is chosen: Options.FullDelay (0: the default, negative: no
// lane), replaced by the editor's server.fullAnalysisDelayMs (0 or
// negative: no lane).
func TestFullDelaySetting(t *testing.T) {
	for _, c := range []struct {
		opts     time.Duration
		settings string
		want     time.Duration
	}{
		{0, `{}`, DefaultFullDelay},
		{-1, `{}`, 0},
		{50 * time.Millisecond, `{}`, 50 * time.Millisecond},
		{0, `{"server": {"fullAnalysisDelayMs": 0}}`, 0},
		{0, `{"server": {"fullAnalysisDelayMs": -5}}`, 0},
		{-1, `{"server": {"fullAnalysisDelayMs": 120}}`, 120 * time.Millisecond},
		{0, `{"server": {"debounceMs": 3}}`, DefaultFullDelay},
	} {
		s := &Server{opts: Options{FullDelay: c.opts}}
		var st settings
		if err := json.Unmarshal([]byte(c.settings), &st); err != nil {
			t.Fatal(err)
		}
		s.settings.set(st)
		if got := s.fullDelay(); got != c.want {
			t.Errorf("FullDelay %v, settings %s: delay %v, want %v", c.opts, c.settings, got, c.want)
		}
	}
}
