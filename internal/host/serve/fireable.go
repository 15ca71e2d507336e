package serve

import (
	"context"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/syntax"
)

// fireable refuses a trigger on a skill that cannot fire: an unknown
// skill (SkillNotFound), a Draft or Disabled one (only Approved skills
// fire), and one the approval gate refuses as a trigger would reach it
// (in secured mode: Approved without a valid signature). The error says
// why.
func (h *Host) fireable(ctx context.Context, name string) error {
	rec, err := h.load(ctx, name)
	if err != nil {
		return err
	}
	details := map[string]string{"skill": name, "status": rec.Status}
	switch contract.StatusWord(rec.Status) {
	case contract.StatusApproved:
	case contract.StatusDisabled:
		return &Error{Name: ErrTriggerRefused, Details: details,
			Message: "skill " + quote(name) + " is Disabled and never fires; a trigger on it is refused (approve the skill first)"}
	default:
		return &Error{Name: ErrTriggerRefused, Details: details,
			Message: "skill " + quote(name) + " is " + contract.StatusWord(rec.Status) + ": only Approved skills fire, so a trigger on it is refused (approve the skill first)"}
	}
	f, _ := syntax.Parse(name+".skill.md", []byte(rec.Body))
	s := approval.Subject{Name: name, File: f, Info: check.Check(f), Reach: approval.Composed}
	if _, err := approval.Gate(h.policy, s); err != nil {
		return &Error{Name: ErrTriggerRefused, Details: details, Err: err,
			Message: "skill " + quote(name) + " cannot fire, so a trigger on it is refused: " + err.Error()}
	}
	return nil
}

func quote(s string) string { return `"` + s + `"` }
