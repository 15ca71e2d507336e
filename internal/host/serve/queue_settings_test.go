package serve

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/leaf/config"
)

// The trigger queue's knobs come from the environment with their
// defaults; a bad value fails loud, naming the variable.
func TestQueueSettingsFromEnvironment(t *testing.T) {
	load := func(env map[string]string) (Settings, error) {
		cfg, _ := config.Load(config.LoadOptions{Env: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
		return SettingsFrom(cfg)
	}
	s, err := load(nil)
	if err != nil || s.Workers != DefaultWorkers || s.FetchPoll != DefaultFetchPoll || s.MaxQueueDepth != DefaultMaxQueueDepth || s.JobTimeout != 0 {
		t.Errorf("defaults = %+v, %v", s, err)
	}
	s, err = load(map[string]string{EnvWorkers: "8", EnvFetchPoll: "25", EnvJobTimeout: "90", EnvMaxJobTimeout: "600",
		EnvRescueAfter: "700", EnvHostTimeout: "4.5", EnvMaxQueueDepth: "0", EnvIdempotentSkills: "a, b,,c"})
	if err != nil || s.Workers != 8 || s.FetchPoll != 25*time.Millisecond || s.JobTimeout != 90*time.Second || s.MaxJobTimeout != 10*time.Minute ||
		s.RescueAfter != 700*time.Second || s.HostTimeout != 4500*time.Millisecond || s.MaxQueueDepth != 0 || !slices.Equal(s.IdempotentSkills, []string{"a", "b", "c"}) {
		t.Errorf("settings = %+v, %v", s, err)
	}
	for env, bad := range map[string]string{EnvWorkers: "0", EnvMaxQueueDepth: "-1", EnvJobTimeout: "soon", EnvHostTimeout: "0"} {
		if _, err := load(map[string]string{env: bad}); err == nil || !strings.Contains(err.Error(), env) {
			t.Errorf("%s=%s: %v, want an error naming it", env, bad, err)
		}
	}
}
