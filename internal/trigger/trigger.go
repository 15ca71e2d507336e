package trigger

import (
	"errors"
	"fmt"
	"strings"
	"time"

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
	// Timezone is the IANA zone cron times are read in ("" means UTC).
	Timezone  string     `json:"timezone,omitempty"`
	Enabled   bool       `json:"enabled"`
	Source    string     `json:"source"`
	CreatedBy string     `json:"created_by,omitempty"`
	NextFire  *time.Time `json:"next_fire,omitempty"`
	LastFire  *time.Time `json:"last_fire,omitempty"`
}

// parser reads standard 5-field cron expressions plus descriptors
// (@hourly, @every 5m) and a CRON_TZ=/TZ= prefix.
var parser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// Schedule parses a cron trigger's expression in its timezone.
func Schedule(spec, tz string) (cron.Schedule, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, fmt.Errorf("empty cron expression")
	}
	if tz != "" && !strings.HasPrefix(spec, "CRON_TZ=") && !strings.HasPrefix(spec, "TZ=") {
		if _, err := time.LoadLocation(tz); err != nil {
			return nil, fmt.Errorf("unknown timezone %q", tz)
		}
		spec = "CRON_TZ=" + tz + " " + spec
	}
	s, err := parser.Parse(spec)
	if err != nil {
		return nil, fmt.Errorf("cron expression %q: %v", spec, err)
	}
	return s, nil
}

// Validate checks a trigger's kind and spec, normalizing the event name.
func (t *Trigger) Validate() error {
	switch t.Kind {
	case KindCron:
		_, err := Schedule(t.Spec, t.Timezone)
		return err
	case KindEvent:
		t.Spec = strings.ToLower(strings.TrimSpace(t.Spec))
		if t.Spec == "" {
			return fmt.Errorf("event trigger needs an event name")
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
