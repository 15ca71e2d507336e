package trigger

import (
	"strings"
	"testing"
	"time"
)

// FuzzTriggerValidate feeds register_trigger's user input (kind, spec,
// timezone) to Validate: it never panics, and an accepted cron trigger
// has a schedule whose next time lies after the reference time (or is
// zero for a schedule that never fires), agreeing with Schedule.
func FuzzTriggerValidate(f *testing.F) {
	for _, s := range [][3]string{
		{"cron", "0 9 * * *", ""}, {"cron", "*/5 * * * *", "Europe/Paris"}, {"cron", "CRON_TZ=Asia/Tokyo 30 2 * * 1-5", ""},
		{"cron", "@every 90s", ""}, {"cron", "@hourly", "UTC"}, {"cron", "61 * * * *", ""}, {"cron", "0 9 31 2 *", ""},
		{"event", " Door-Opened ", ""}, {"event", "", ""}, {"webhook", "x", ""}, {"cron", "TZ=Mars 0 0 * * *", ""},
	} {
		f.Add(s[0], s[1], s[2])
	}
	ref := time.Date(2026, 3, 29, 1, 30, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, kind, spec, tz string) {
		tr := Trigger{Kind: kind, Spec: spec, Timezone: tz}
		if err := tr.Validate(); err != nil {
			return
		}
		switch kind {
		case KindEvent:
			if tr.Spec == "" || tr.Spec != strings.ToLower(tr.Spec) {
				t.Fatalf("event %q accepted as %q", spec, tr.Spec)
			}
		case KindCron:
			sched, err := Schedule(spec, tz)
			if err != nil {
				t.Fatalf("Validate accepted %q/%q but Schedule refuses: %v", spec, tz, err)
			}
			if n := sched.Next(ref); !n.IsZero() && !n.After(ref) {
				t.Fatalf("next(%v) = %v for %q", ref, n, spec)
			}
		default:
			t.Fatalf("kind %q accepted", kind)
		}
	})
}
