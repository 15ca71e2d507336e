package trigger

import (
	"context"
	"strings"
	"testing"
	"time"
)

// The job timeout of a fire follows the skill's # Deadline: / # Timeout:
// (plus grace), within the configured default and maximum.
func TestJobTimeoutFor(t *testing.T) {
	jt := JobTimeouts{Default: time.Second, Max: time.Minute}
	head := "# Skill: s\n# Status: Approved\n"
	for _, tc := range []struct {
		name, headers string
		jt            JobTimeouts
		want          time.Duration
	}{
		{"none", "", jt, time.Second},
		{"timeout wins over a short default", "# Timeout: 5\n", jt, 5*time.Second + JobGrace},
		{"default wins over a short timeout", "# Timeout: 5\n", JobTimeouts{Default: time.Minute, Max: time.Hour}, time.Minute},
		{"deadline", "# Deadline: 20\n# Timeout: 5\n", jt, 20*time.Second + JobGrace},
		{"deadline capped by the maximum", "# Deadline: 600\n", jt, time.Minute},
		{"deadline capped by the run ceiling", "# Deadline: 50\n", JobTimeouts{Default: time.Second, Max: time.Hour, RunCeiling: 3 * time.Second}, 3*time.Second + JobGrace},
		{"a $(VAR) deadline gets the maximum", "# Vars: D=3\n# Deadline: $(D)\n", jt, time.Minute},
		{"zero values take the defaults", "", JobTimeouts{}, DefaultJobTimeout},
	} {
		if got := tc.jt.For("s", head+tc.headers+"\nhello\n"); got != tc.want {
			t.Errorf("%s: job timeout %s, want %s", tc.name, got, tc.want)
		}
	}
	if err := (JobTimeouts{Default: time.Hour, Max: time.Minute}).withDefaults().check(); err == nil {
		t.Error("a default above the maximum was accepted")
	}
	if got := (JobTimeouts{Max: time.Minute}).RescueAfter(); got < time.Minute+JobGrace {
		t.Errorf("rescue window %s is shorter than the maximum job timeout plus grace", got)
	}
}

// A rescue window shorter than the longest job timeout would let River
// retry jobs that are still running: Open refuses it, naming both.
func TestOpenRefusesShortRescueWindow(t *testing.T) {
	_, err := Open(context.Background(), Options{Queue: QueueOptions{Home: t.TempDir(),
		Timeouts: JobTimeouts{Default: time.Second, Max: time.Minute}, RescueAfter: 30 * time.Second}})
	if err == nil || !strings.Contains(err.Error(), "rescue window 30s is shorter than the maximum job timeout 1m0s") {
		t.Errorf("Open with a 30s rescue window and a 1m maximum job timeout: %v", err)
	}
}
