package serve

import (
	"context"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/host/trigger"
)

// Triggers is the trigger service the host's tools and /event use
// (implemented by internal/host/trigger).
type Triggers interface {
	List(ctx context.Context, skill string) ([]trigger.Trigger, error)
	Register(ctx context.Context, t trigger.Trigger) (trigger.Trigger, error)
	Unregister(ctx context.Context, id string) error
	SetEnabled(ctx context.Context, id string, enabled bool) (trigger.Trigger, error)
	// SyncSkill replaces the skill's declared triggers with those of its
	// # Triggers: header (none when body is empty).
	SyncSkill(ctx context.Context, name, body string) error
	// FireEvent queues a run of the skill bound to event with params as its
	// inputs and returns the run's trace id.
	FireEvent(ctx context.Context, event string, params map[string]any) (string, error)
	// FireEventOnce is FireEvent keyed by the poster's Idempotency-Key:
	// a repeated key returns the first run's trace id and dup.
	FireEventOnce(ctx context.Context, event string, params map[string]any, key string) (id string, dup bool, err error)
	// QueueDepth counts the fires queued, retrying or running.
	QueueDepth(ctx context.Context) (int, error)
	// Durability describes what an accepted fire survives.
	Durability() string
}

// syncTriggers re-reads a written skill's # Triggers: header; failures
// are logged, never fatal to the write.
func (h *Host) syncTriggers(ctx context.Context, rec *contract.SkillRecord) {
	if h.triggers == nil || rec == nil {
		return
	}
	if err := h.triggers.SyncSkill(ctx, rec.Name, rec.Body); err != nil {
		h.log.Warn("trigger sync failed", "skill", rec.Name, "err", err)
	}
}

func (h *Host) triggerService() (Triggers, error) {
	if h.triggers == nil {
		return nil, hostErr(ErrTriggersOff, "triggers are not running on this host")
	}
	return h.triggers, nil
}

// ListTriggersInput filters list_triggers.
type ListTriggersInput struct {
	Skill string `json:"skill,omitempty"`
}

// TriggersOutput lists triggers.
type TriggersOutput struct {
	Triggers []trigger.Trigger `json:"triggers"`
}

func (ts *toolSet) listTriggers(ctx context.Context, _ *call, in ListTriggersInput) (TriggersOutput, error) {
	t, err := ts.h.triggerService()
	if err != nil {
		return TriggersOutput{}, err
	}
	list, err := t.List(ctx, in.Skill)
	if err != nil {
		return TriggersOutput{}, wrapErr(ErrStore, err)
	}
	return TriggersOutput{Triggers: list}, nil
}

// RegisterTriggerInput is the input of register_trigger.
type RegisterTriggerInput struct {
	Skill    string `json:"skill"`
	Kind     string `json:"kind" jsonschema:"cron or event"`
	Schedule string `json:"schedule,omitempty" jsonschema:"cron expression (kind cron), e.g. 0 9 * * 1-5"`
	Event    string `json:"event,omitempty" jsonschema:"event name (kind event)"`
	Timezone string `json:"timezone,omitempty" jsonschema:"IANA zone for cron times (default: the host's)"`
	Disabled bool   `json:"disabled,omitempty" jsonschema:"register disabled"`
}

// TriggerOutput is one trigger.
type TriggerOutput struct {
	Trigger trigger.Trigger `json:"trigger"`
}

func (ts *toolSet) registerTrigger(ctx context.Context, c *call, in RegisterTriggerInput) (TriggerOutput, error) {
	t, err := ts.h.triggerService()
	if err != nil {
		return TriggerOutput{}, err
	}
	if err := ts.h.allowTrigger(); err != nil {
		return TriggerOutput{}, err
	}
	if err := ts.h.fireable(ctx, in.Skill); err != nil {
		return TriggerOutput{}, err
	}
	if err := ts.h.mayManageTriggers(ctx, c, in.Skill); err != nil {
		return TriggerOutput{}, err
	}
	spec := in.Schedule
	if in.Kind == trigger.KindEvent {
		spec = in.Event
	}
	tr := trigger.Trigger{Skill: in.Skill, Kind: in.Kind, Spec: spec, Timezone: in.Timezone, Enabled: !in.Disabled,
		Source: trigger.SourceImperative, CreatedBy: c.caller}
	if err := tr.Validate(); err != nil {
		return TriggerOutput{}, invalidParams("%v", err)
	}
	got, err := t.Register(ctx, tr)
	if err != nil {
		return TriggerOutput{}, wrapErr(ErrInvalidTrigger, err)
	}
	ts.h.log.Info("trigger registered", "id", got.ID, "skill", got.Skill, "kind", got.Kind, "spec", got.Spec)
	return TriggerOutput{Trigger: got}, nil
}

// TriggerIDInput names a trigger.
type TriggerIDInput struct {
	ID string `json:"id"`
}

// RemovedOutput acknowledges a removal.
type RemovedOutput struct {
	Removed string `json:"removed"`
}

func (ts *toolSet) unregisterTrigger(ctx context.Context, c *call, in TriggerIDInput) (RemovedOutput, error) {
	t, err := ts.h.triggerService()
	if err != nil {
		return RemovedOutput{}, err
	}
	if err := ts.triggerOwner(ctx, t, c, in.ID); err != nil {
		return RemovedOutput{}, err
	}
	if err := t.Unregister(ctx, in.ID); err != nil {
		return RemovedOutput{}, triggerErr(err)
	}
	return RemovedOutput{Removed: in.ID}, nil
}

// SetEnabledInput is the input of set_trigger_enabled.
type SetEnabledInput struct {
	ID      string `json:"id"`
	Enabled bool   `json:"enabled"`
}

func (ts *toolSet) setTriggerEnabled(ctx context.Context, c *call, in SetEnabledInput) (TriggerOutput, error) {
	t, err := ts.h.triggerService()
	if err != nil {
		return TriggerOutput{}, err
	}
	if err := ts.triggerOwner(ctx, t, c, in.ID); err != nil {
		return TriggerOutput{}, err
	}
	got, err := t.SetEnabled(ctx, in.ID, in.Enabled)
	if err != nil {
		return TriggerOutput{}, triggerErr(err)
	}
	return TriggerOutput{Trigger: got}, nil
}

// triggerOwner checks that the caller may manage the skill of trigger id
// (an unknown id is left to the service, which reports it).
func (ts *toolSet) triggerOwner(ctx context.Context, t Triggers, c *call, id string) error {
	all, err := t.List(ctx, "")
	if err != nil {
		return wrapErr(ErrStore, err)
	}
	for _, tr := range all {
		if tr.ID == id {
			return ts.h.mayManageTriggers(ctx, c, tr.Skill)
		}
	}
	return nil
}

func triggerErr(err error) error {
	if trigger.IsNotFound(err) {
		return wrapErr(ErrTriggerNotFound, err)
	}
	return wrapErr(ErrStore, err)
}
