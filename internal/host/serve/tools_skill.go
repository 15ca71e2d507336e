package serve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/format/render"
	"github.com/skillscript/skillc/internal/host/footprint"
	"github.com/skillscript/skillc/internal/workspace"
)

// SkillMeta is a stored skill's metadata on the wire.
type SkillMeta struct {
	Name        string `json:"name"`
	Status      string `json:"status"`
	Author      string `json:"author,omitempty"`
	Description string `json:"description,omitempty"`
	Type        string `json:"type,omitempty"`
	Version     string `json:"version"`
	ContentHash string `json:"content_hash"`
	CreatedAt   string `json:"created_at,omitempty"`
	UpdatedAt   string `json:"updated_at,omitempty"`
}

func metaOf(m contract.SkillMeta) SkillMeta {
	return SkillMeta{
		Name: m.Name, Status: m.Status, Author: m.Author, Description: m.Description, Type: m.Type,
		Version: m.Version, ContentHash: m.ContentHash, CreatedAt: stamp(m.CreatedAt), UpdatedAt: stamp(m.UpdatedAt),
	}
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func (h *Host) store() (contract.SkillStore, error) {
	if s := h.Skills(); s != nil {
		return s, nil
	}
	return nil, hostErr(ErrNoSkillStore, "no skill store is configured")
}

// SkillListInput filters skill_list.
type SkillListInput struct {
	Status      string   `json:"status,omitempty" jsonschema:"Draft, Approved or Disabled"`
	Author      string   `json:"author,omitempty"`
	Audience    string   `json:"audience,omitempty" jsonschema:"matches the # Audience: header"`
	TriggerKind string   `json:"trigger_kind,omitempty" jsonschema:"cron or event"`
	DomainTags  []string `json:"domain_tags,omitempty" jsonschema:"any-of match against # Tags:"`
	NamePrefix  string   `json:"name_prefix,omitempty"`
	IfNoneMatch string   `json:"if_none_match,omitempty" jsonschema:"a previous catalog_version"`
}

// SkillListOutput is the catalog.
type SkillListOutput struct {
	CatalogVersion string         `json:"catalog_version"`
	NotModified    bool           `json:"not_modified,omitempty"`
	Skills         []CatalogEntry `json:"skills,omitempty"`
}

// CatalogEntry is one skill_list entry.
type CatalogEntry struct {
	SkillMeta
	Tags      []string      `json:"tags"`
	Audience  string        `json:"audience,omitempty"`
	Triggers  []TriggerDecl `json:"triggers"`
	Footprint Footprint     `json:"footprint"`
}

func (ts *toolSet) skillList(ctx context.Context, _ *call, in SkillListInput) (SkillListOutput, error) {
	store, err := ts.h.store()
	if err != nil {
		return SkillListOutput{}, err
	}
	version, err := catalogVersion(ctx, store, in)
	if err != nil {
		return SkillListOutput{}, wrapErr(ErrStore, err)
	}
	if in.IfNoneMatch != "" && in.IfNoneMatch == version {
		return SkillListOutput{CatalogVersion: version, NotModified: true}, nil
	}
	status := ""
	if in.Status != "" {
		canon, ok := contract.CanonicalStatus(in.Status)
		if !ok {
			return SkillListOutput{}, invalidParams("field status: %q is not Draft, Approved or Disabled", in.Status)
		}
		status = contract.StatusWord(canon)
	}
	metas, err := store.List(ctx, contract.SkillQuery{Status: status, Author: in.Author})
	if err != nil {
		return SkillListOutput{}, wrapErr(ErrStore, err)
	}
	out := SkillListOutput{CatalogVersion: version, Skills: []CatalogEntry{}}
	for _, m := range metas {
		if e, ok := ts.catalogEntry(ctx, store, m, in); ok {
			out.Skills = append(out.Skills, e)
		}
	}
	return out, nil
}

// catalogVersion is the store's change token (or a digest of the
// listing) combined with the filters, so a filtered catalog has its own
// version.
func catalogVersion(ctx context.Context, store contract.SkillStore, in SkillListInput) (string, error) {
	var token string
	if v, ok := store.(contract.Versioner); ok {
		t, err := v.Version(ctx)
		if err != nil {
			return "", err
		}
		token = t
	} else {
		metas, err := store.List(ctx, contract.SkillQuery{})
		if err != nil {
			return "", err
		}
		var b strings.Builder
		for _, m := range metas {
			fmt.Fprintf(&b, "%s\x00%s\x00%s\n", m.Name, m.Status, m.ContentHash)
		}
		token = b.String()
	}
	in.IfNoneMatch = ""
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s|%+v", token, in)))
	return hex.EncodeToString(sum[:8]), nil
}

func (ts *toolSet) catalogEntry(ctx context.Context, store contract.SkillStore, m contract.SkillMeta, in SkillListInput) (CatalogEntry, bool) {
	if in.NamePrefix != "" && !strings.HasPrefix(m.Name, in.NamePrefix) {
		return CatalogEntry{}, false
	}
	rec, err := store.Get(ctx, m.Name)
	if err != nil || rec == nil {
		return CatalogEntry{}, false
	}
	hdr := skillstore.Headers(rec.Body)
	u := workspace.Parse(m.Name, []byte(rec.Body))
	f, info := u.File, u.Info
	e := CatalogEntry{SkillMeta: metaOf(m), Tags: headerList(hdr["Tags"]), Audience: hdr["Audience"], Triggers: triggersOf(f)}
	if e.Tags == nil {
		e.Tags = []string{}
	}
	if in.Audience != "" && !strings.EqualFold(e.Audience, in.Audience) {
		return e, false
	}
	if in.TriggerKind != "" && !hasTriggerKind(e.Triggers, in.TriggerKind) {
		return e, false
	}
	if len(in.DomainTags) > 0 && !anyTag(e.Tags, in.DomainTags) {
		return e, false
	}
	e.Footprint = footprint.Of(f, info)
	return e, true
}

func hasTriggerKind(ts []TriggerDecl, kind string) bool {
	for _, t := range ts {
		if strings.EqualFold(t.Kind, kind) {
			return true
		}
	}
	return false
}

func anyTag(have, want []string) bool {
	for _, w := range want {
		for _, h := range have {
			if h == w {
				return true
			}
		}
	}
	return false
}

// NameInput names a stored skill.
type NameInput struct {
	Name string `json:"name" jsonschema:"stored skill name"`
}

// SkillReadOutput is a stored skill with its source.
type SkillReadOutput struct {
	SkillMeta
	Source string `json:"source"`
}

func (ts *toolSet) skillRead(ctx context.Context, _ *call, in NameInput) (SkillReadOutput, error) {
	rec, err := ts.h.load(ctx, in.Name)
	if err != nil {
		return SkillReadOutput{}, err
	}
	return SkillReadOutput{SkillMeta: metaOf(rec.Meta()), Source: rec.Body}, nil
}

// SkillWriteInput is the input of skill_write.
type SkillWriteInput struct {
	Name   string `json:"name" jsonschema:"skill name; must match # Skill: when the source has one"`
	Source string `json:"source" jsonschema:"the full .skill.md source"`
}

// SkillWriteOutput acknowledges a write.
type SkillWriteOutput struct {
	SkillMeta
	// ForcedDraft is set when an Approved status was not honoured (secured
	// mode: approval needs the operator's signature).
	ForcedDraft bool          `json:"forced_draft,omitempty"`
	Diagnostics []render.Diag `json:"diagnostics" jsonschema:"warnings and infos of the write-time lint"`
}

func (ts *toolSet) skillWrite(ctx context.Context, c *call, in SkillWriteInput) (SkillWriteOutput, error) {
	store, err := ts.h.store()
	if err != nil {
		return SkillWriteOutput{}, err
	}
	if err := checkName(in.Name, in.Source); err != nil {
		return SkillWriteOutput{}, err
	}
	file := in.Name + ".skill.md"
	_, _, ds := ts.h.analyze(ctx, file, []byte(in.Source))
	if errs := errorsOnly(ds); len(errs) > 0 {
		return SkillWriteOutput{}, &Error{Name: ErrLint, Details: diagsJSON(file, []byte(in.Source), errs),
			Message: fmt.Sprintf("not written: %d lint error(s); the first: %s", len(errs), errs[0].Message)}
	}
	rec, err := store.Write(ctx, in.Name, in.Source, ts.h.author(c))
	if err != nil {
		return SkillWriteOutput{}, ownershipErr(ErrStore, err)
	}
	// in secured mode (or with SKILLSCRIPT_FORCE_ALWAYS_DRAFT) the store
	// demotes an Approved write to Draft: approval is a signature
	forced := requestedApproved(in.Source) && contract.StatusWord(rec.Status) != contract.StatusApproved
	ts.h.syncTriggers(ctx, rec)
	ts.h.log.Info("skill written", "skill", rec.Name, "status", rec.Status, "author", rec.Author, "version", rec.Version)
	return SkillWriteOutput{SkillMeta: metaOf(rec.Meta()), ForcedDraft: forced, Diagnostics: diagsJSON(file, []byte(in.Source), ds)}, nil
}

func requestedApproved(src string) bool {
	st, ok := contract.CanonicalStatus(skillstore.Headers(src)["Status"])
	return ok && contract.StatusWord(st) == contract.StatusApproved
}

// checkName refuses a name that is empty, not a plain file name, or
// different from the source's # Skill: header.
func checkName(name, source string) error {
	if strings.TrimSpace(name) == "" || strings.ContainsAny(name, "/\\") || strings.HasPrefix(name, ".") {
		return invalidParams("field name: %q is not a valid skill name", name)
	}
	if h := skillstore.Headers(source)["Skill"]; h != "" && h != name {
		return invalidParams("field name: %q differs from the source's # Skill: %s", name, h)
	}
	return nil
}

// author is the identity a write is stamped with: the caller, else the
// host's user.
func (h *Host) author(c *call) string {
	if c.caller != "" {
		return c.caller
	}
	u, _ := h.runner.Env.User.(string)
	return u
}

// SkillStatusInput is the input of skill_status.
type SkillStatusInput struct {
	Name   string `json:"name"`
	Status string `json:"status" jsonschema:"Draft, Approved or Disabled"`
}

// SkillStatusOutput acknowledges a status change.
type SkillStatusOutput struct {
	SkillMeta
	Previous string `json:"previous_status"`
}

func (ts *toolSet) skillStatus(ctx context.Context, c *call, in SkillStatusInput) (SkillStatusOutput, error) {
	canon, ok := contract.CanonicalStatus(in.Status)
	if !ok || canon != contract.StatusWord(canon) {
		return SkillStatusOutput{}, invalidParams("field status: %q is not Draft, Approved or Disabled", in.Status)
	}
	if canon == contract.StatusApproved && ts.h.cfg.SecuredMode {
		return SkillStatusOutput{}, hostErr(ErrApprovalRequired, "secured mode: approving %q needs the operator's signature (skillc approve), not skill_status", in.Name)
	}
	prev, err := ts.h.load(ctx, in.Name)
	if err != nil {
		return SkillStatusOutput{}, err
	}
	if err := ts.h.setStatus(ctx, c, in.Name, canon); err != nil {
		return SkillStatusOutput{}, ownershipErr(ErrStore, err)
	}
	rec, err := ts.h.load(ctx, in.Name)
	if err != nil {
		return SkillStatusOutput{}, err
	}
	ts.h.syncTriggers(ctx, rec)
	ts.h.log.Info("skill status changed", "skill", in.Name, "from", prev.Status, "to", rec.Status)
	return SkillStatusOutput{SkillMeta: metaOf(rec.Meta()), Previous: prev.Status}, nil
}

// PreflightInput is the input of skill_preflight.
type PreflightInput struct {
	Name   string         `json:"name"`
	Inputs map[string]any `json:"inputs,omitempty" jsonschema:"inputs you intend to pass, checked against # Vars:"`
}

// PreflightOutput says whether and how a skill can run.
type PreflightOutput struct {
	Metadata  SkillMeta     `json:"metadata"`
	Runnable  bool          `json:"runnable"`
	Blockers  []string      `json:"blockers"`
	Inputs    []InputCheck  `json:"inputs"`
	Secrets   []SecretCheck `json:"secrets"`
	Footprint Footprint     `json:"footprint"`
	Triggers  []TriggerDecl `json:"triggers"`
	Summary   diagSummary   `json:"diagnostics_summary"`
	Errors    []render.Diag `json:"errors"`
}

// InputCheck is one declared input.
type InputCheck struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
	Provided bool   `json:"provided"`
}

// SecretCheck is one declared secret; the value is never shown.
type SecretCheck struct {
	Name        string `json:"name"`
	Provisioned bool   `json:"provisioned"`
}

func (ts *toolSet) skillPreflight(ctx context.Context, _ *call, in PreflightInput) (PreflightOutput, error) {
	rec, err := ts.h.load(ctx, in.Name)
	if err != nil {
		return PreflightOutput{}, err
	}
	file := in.Name + ".skill.md"
	f, info, ds := ts.h.analyze(ctx, file, []byte(rec.Body))
	out := PreflightOutput{
		Metadata: metaOf(rec.Meta()), Blockers: []string{}, Inputs: []InputCheck{}, Secrets: []SecretCheck{},
		Footprint: footprint.Of(f, info), Triggers: triggersOf(f), Summary: summarize(ds),
		Errors: diagsJSON(file, []byte(rec.Body), errorsOnly(ds)),
	}
	gate := approval.Subject{Name: in.Name, File: f, Info: info, Reach: approval.Composed}
	if _, err := approval.Gate(ts.h.policy, gate); err != nil {
		out.Blockers = append(out.Blockers, err.Error())
	}
	if out.Summary.Errors > 0 {
		out.Blockers = append(out.Blockers, fmt.Sprintf("%d lint error(s)", out.Summary.Errors))
	}
	for _, v := range varsOf(f) {
		_, given := in.Inputs[v.Name]
		out.Inputs = append(out.Inputs, InputCheck{Name: v.Name, Required: v.Required, Provided: given})
		if v.Required && !given {
			out.Blockers = append(out.Blockers, "required input "+v.Name+" is not provided")
		}
	}
	for name := range info.Secrets {
		_, ok := ts.h.cfg.Secret(name)
		out.Secrets = append(out.Secrets, SecretCheck{Name: name, Provisioned: ok})
		if !ok {
			out.Blockers = append(out.Blockers, "secret "+name+" is not provisioned (SKILLSCRIPT_SECRET_"+name+")")
		}
	}
	out.Runnable = len(out.Blockers) == 0
	return out, nil
}
