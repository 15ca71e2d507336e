package trigger

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/robfig/cron/v3"
)

// Trigger kinds.
const (
	KindCron  = "cron"
	KindEvent = "event"
)

// Trigger sources: declared in a skill's # Triggers: header, or
// registered through the register_trigger tool.
const (
	SourceDeclared   = "declared"
	SourceImperative = "imperative"
)

// Trigger is one registered trigger.
type Trigger struct {
	ID    string `json:"id"`
	Skill string `json:"skill"`
	Kind  string `json:"kind"` // cron or event
	// Spec is the cron expression (cron) or the lower-cased event name.
	Spec string `json:"spec"`
	// Timezone is the IANA zone cron times are read in ("" means the
	// host's zone: TZ, else the system's).
	Timezone  string     `json:"timezone,omitempty"`
	Enabled   bool       `json:"enabled"`
	Source    string     `json:"source"`
	CreatedBy string     `json:"created_by,omitempty"`
	NextFire  *time.Time `json:"next_fire,omitempty"`
	LastFire  *time.Time `json:"last_fire,omitempty"`
}

// Schedule parses a cron trigger's expression — exactly the five fields
// minute hour day-of-month month day-of-week the language accepts in
// # Triggers: (no descriptors, no CRON_TZ= prefix) — read in the IANA
// zone tz, or in def when tz is empty.
func Schedule(spec, tz string, def *time.Location) (cron.Schedule, error) {
	spec = strings.TrimSpace(spec)
	fields := strings.Fields(spec)
	if len(fields) != 5 || strings.HasPrefix(spec, "@") || strings.Contains(fields[0], "=") {
		return nil, fmt.Errorf("cron expression %q: want 5 fields: minute hour day-of-month month day-of-week", spec)
	}
	loc := def
	if tz != "" {
		l, err := time.LoadLocation(tz)
		if err != nil {
			return nil, fmt.Errorf("unknown timezone %q", tz)
		}
		loc = l
	}
	if loc == nil {
		loc = time.UTC
	}
	s, err := cron.ParseStandard(spec)
	if err != nil {
		return nil, fmt.Errorf("cron expression %q: %v", spec, err)
	}
	if ss, ok := s.(*cron.SpecSchedule); ok {
		ss.Location = loc
	}
	return s, nil
}

// Validate checks a trigger's kind and spec as the language does,
// normalizing the event name to lower case and the blanks between cron
// fields to one space.
func (t *Trigger) Validate() error {
	switch t.Kind {
	case KindCron:
		if _, err := Schedule(t.Spec, t.Timezone, time.UTC); err != nil {
			return err
		}
		t.Spec = strings.Join(strings.Fields(t.Spec), " ")
		return nil
	case KindEvent:
		if !utf8.ValidString(t.Spec) {
			return fmt.Errorf("event name %q is not valid UTF-8", t.Spec)
		}
		t.Spec = strings.ToLower(strings.TrimSpace(t.Spec))
		if t.Spec == "" {
			return fmt.Errorf("event trigger needs an event name")
		}
		if strings.ContainsAny(t.Spec, " \t${},;") {
			return fmt.Errorf("event name %q must be one word (letters, digits, '-', '_', '.')", t.Spec)
		}
		return nil
	}
	return fmt.Errorf("trigger kind %q: want cron or event", t.Kind)
}

// NotFoundError reports an unknown trigger id.
type NotFoundError struct{ ID string }

// Error implements error.
func (e *NotFoundError) Error() string { return "no trigger with id " + e.ID }

// IsNotFound reports whether err is a *NotFoundError.
func IsNotFound(err error) bool {
	var nf *NotFoundError
	return errors.As(err, &nf)
}

// ParamError reports event params that do not match the skill's # Vars:
// (a missing required input or an unknown one).
type ParamError struct{ Msg string }

// Error implements error.
func (e *ParamError) Error() string { return e.Msg }
