package host

import (
	"context"
	"os"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/workspace"
)

// Policy resolves the approval posture of cfg: secured mode from the
// configuration, the key files from KeyPaths. In secured mode the key
// pair is provisioned on the first start; generated reports it.
func Policy(cfg *config.Config) (p approval.Policy, generated bool) {
	return approval.LoadPolicy(cfg.SecuredMode, KeyPaths())
}

// KeyPaths are the operator's key files: SKILLSCRIPT_APPROVAL_KEY_FILE and
// SKILLSCRIPT_APPROVAL_PUBLIC_KEY_FILE from the process environment only
// (never a .env found next to a skill, decision V3), else
// ~/.config/skillscript/approval.{key,pub}.
func KeyPaths() approval.KeyPaths {
	home, _ := os.UserHomeDir()
	return approval.DefaultKeyPaths(os.LookupEnv, home)
}

// GatedLoad returns the eval.Loader of a host runner: Load, then the
// approval gate for a composed skill (execute_skill, $ execute_skill,
// inline). A child of a mechanical walk (mechanical, or
// eval.IsMechanical on the load's context) performs no effects and passes
// as such. A refusal is an approval.Refusal, which eval reports under its
// kind, fatally.
func GatedLoad(p approval.Policy, mechanical bool) eval.Loader {
	return func(ctx context.Context, name string, src []byte) (*ast.File, *check.Info, error) {
		f, info, err := Load(ctx, name, src)
		if err != nil {
			return nil, nil, err
		}
		s := approval.Subject{Name: name, File: f, Info: info, Reach: approval.Composed, Mechanical: mechanical || eval.IsMechanical(ctx)}
		if _, err := approval.Gate(p, s); err != nil {
			return nil, nil, err
		}
		return f, info, nil
	}
}

// Admit returns the root gate of a host runner (eval.Runner.Admit): the
// approval gate for a skill reached as reach.
func Admit(p approval.Policy, reach approval.Reach) func(context.Context, *ast.File, *check.Info, bool) error {
	return func(_ context.Context, f *ast.File, info *check.Info, mechanical bool) error {
		name := f.SkillName()
		if name == "" {
			name = f.Name
		}
		_, err := approval.Gate(p, approval.Subject{Name: name, File: f, Info: info, Reach: reach, Mechanical: mechanical})
		return err
	}
}

// draftingStore lands every skill write as a Draft: with
// SKILLSCRIPT_FORCE_ALWAYS_DRAFT or in secured mode a skill cannot
// approve itself (or another skill) through $ skill_write; only the
// operator's signature grants approval.
type draftingStore struct {
	contract.SkillStore
}

// Write stores body with an Approved status demoted to Draft.
func (s draftingStore) Write(ctx context.Context, name, body, author string) (*contract.SkillRecord, error) {
	u := workspace.Parse(name+".skill.md", []byte(body)) // ForceDraft reads the tree only
	if demoted, changed := approval.ForceDraft(u.File); changed {
		body = string(demoted)
	}
	return s.SkillStore.Write(ctx, name, body, author)
}

// UpdateStatus refuses to set Approved: approval is a signature.
func (s draftingStore) UpdateStatus(ctx context.Context, name, status string) error {
	if contract.StatusWord(status) == contract.StatusApproved {
		status = contract.StatusDraft
	}
	return s.SkillStore.UpdateStatus(ctx, name, status)
}

// forceDraft wraps the registry's skill store when writes must land as
// drafts.
func forceDraft(reg *contract.Registry, cfg *config.Config) {
	if reg.Skills != nil && (cfg.ForceAlwaysDraft || cfg.SecuredMode) {
		reg.Skills = draftingStore{reg.Skills}
	}
}

// OperatorStore returns the store under a host registry's skill store,
// without the draft-forcing wrapper: operator surfaces that sign (the
// approvals dashboard) must be able to write Approved.
func OperatorStore(s contract.SkillStore) contract.SkillStore {
	if d, ok := s.(draftingStore); ok {
		return d.SkillStore
	}
	return s
}
