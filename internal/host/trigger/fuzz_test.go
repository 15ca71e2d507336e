package trigger

import (
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/syntax"
)

// FuzzTriggerValidate feeds register_trigger's input (kind, spec,
// timezone) to Validate. It never panics; for cron and event it agrees
// with the language: a spec is accepted exactly when "# Triggers:"
// accepts it; and an accepted cron schedule's next time lies after the
// reference time.
func FuzzTriggerValidate(f *testing.F) {
	for _, s := range [][3]string{
		{"cron", "0 9 * * *", ""}, {"cron", "*/5 * * * *", "Europe/Paris"}, {"cron", "CRON_TZ=Asia/Tokyo 30 2 * * 1-5", ""},
		{"cron", "@every 90s", ""}, {"cron", "@hourly", "UTC"}, {"cron", "61 * * * *", ""}, {"cron", "0 9 31 2 *", ""},
		{"event", "Door-Opened", ""}, {"event", "two words", ""}, {"webhook", "x", ""}, {"cron", "0 0 * * MON-FRI", ""},
	} {
		f.Add(s[0], s[1], s[2])
	}
	ref := time.Date(2026, 3, 29, 1, 30, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, kind, spec, tz string) {
		tr := Trigger{Kind: kind, Spec: spec}
		err := tr.Validate()
		if kind != KindCron && kind != KindEvent {
			if err == nil {
				t.Fatalf("kind %q accepted", kind)
			}
			return
		}
		if lang := languageAccepts(kind, spec); lang != (err == nil) && oneLine(spec) {
			t.Fatalf("%s %q: Validate err=%v, language accepts=%v", kind, spec, err, lang)
		}
		if err != nil || kind != KindCron {
			return
		}
		sched, err := Schedule(spec, tz, time.UTC)
		if err != nil {
			return // an unknown timezone
		}
		if n := sched.Next(ref); !n.IsZero() && !n.After(ref) {
			t.Fatalf("next(%v) = %v for %q", ref, n, spec)
		}
	})
}

// languageAccepts reports whether "# Triggers: kind: spec" parses as one
// trigger without an invalid-trigger diagnostic.
func languageAccepts(kind, spec string) bool {
	src := "# Skill: s\n# Triggers: " + kind + ": " + spec + "\n\nx\n"
	_, ds := syntax.Parse("s.skill.md", []byte(src))
	for _, d := range ds {
		if d.Rule == "invalid-trigger" {
			return false
		}
	}
	return len(Declared("s", src)) == 1
}

// oneLine reports whether spec can be written on a header line as one
// trigger (no newline, separator or quote that changes how it splits).
func oneLine(spec string) bool {
	s := strings.TrimSpace(spec)
	return s != "" && s == spec && !strings.ContainsAny(spec, "\n\r,;\"'#\x00") && !strings.Contains(spec, "  ")
}
