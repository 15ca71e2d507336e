package gateway

import (
	"context"
	"strings"

	"github.com/skillscript/skillc/internal/host/registry"
)

// ListRequest filters the catalog; results are ordered by skill id.
type ListRequest struct {
	Domain string `json:"domain,omitempty" jsonschema:"keep skills whose metadata domain or a tag equals this"`
	Role   string `json:"role,omitempty" jsonschema:"procedure, utility or sidecar"`
	Status string `json:"status,omitempty" jsonschema:"keep skills with this status (Draft, Approved, stable, experimental, ...), case-insensitive"`
	Kind   string `json:"kind,omitempty" jsonschema:"agentskill or skillscript"`
	Offset int    `json:"offset,omitempty" jsonschema:"skip this many results (from next_offset)"`
	Limit  int    `json:"limit,omitempty" jsonschema:"results per page (default 10, at most 100)"`
}

// SkillSummary is one skill of a list.
type SkillSummary struct {
	SkillID       string   `json:"skill_id"`
	Name          string   `json:"name"`
	Kind          string   `json:"kind"`
	Description   string   `json:"description"`
	Role          string   `json:"role,omitempty"`
	Invocation    string   `json:"invocation,omitempty"`
	EffectMode    string   `json:"effect_mode,omitempty"`
	AttachTargets []string `json:"attach_targets,omitempty"`
	Status        string   `json:"status,omitempty"`
	Domain        string   `json:"domain,omitempty"`
	Tags          []string `json:"tags,omitempty"`
}

// ListResponse is one page.
type ListResponse struct {
	Skills []SkillSummary `json:"skills"`
	Total  int            `json:"total"`
	Offset int            `json:"offset"`
	// NextOffset is the offset of the next page; absent on the last.
	NextOffset int `json:"next_offset,omitempty"`
	// Truncated is set when the registry's scan stopped at its directory
	// limit, so skills are missing; Warnings says which roots and how to
	// raise the limit.
	Truncated bool     `json:"truncated"`
	Warnings  []string `json:"warnings,omitempty"`
}

// Summarize returns the summary of rec.
func Summarize(rec *registry.Record) SkillSummary {
	s := SkillSummary{SkillID: rec.ID, Name: rec.Name, Kind: string(rec.Kind), Description: rec.Description, Status: rec.Status, Domain: rec.Domain, Tags: rec.Tags}
	if c := rec.Class; c != nil {
		s.Role, s.Invocation, s.EffectMode, s.AttachTargets = c.Role, c.Invocation, c.EffectMode, c.AttachTargets
	}
	return s
}

// List returns the visible skills matching req, in skill id order, one
// page at a time.
func (g *Gateway) List(_ context.Context, req ListRequest) (*ListResponse, error) {
	limit, err := g.checkLimit(req.Limit)
	if err != nil {
		return nil, err
	}
	if req.Offset < 0 {
		return nil, reqErr(ReasonInvalidRequest, "offset", "offset %d is negative", req.Offset)
	}
	role, err := checkRole("role", req.Role)
	if err != nil {
		return nil, err
	}
	kind := strings.ToLower(req.Kind)
	if kind != "" && kind != string(registry.KindPackage) && kind != string(registry.KindScript) {
		return nil, reqErr(ReasonInvalidRequest, "kind", "unknown kind %q; use agentskill or skillscript", req.Kind)
	}
	var domains map[string]bool
	if req.Domain != "" {
		domains = set([]string{req.Domain})
	}
	var all []*registry.Record
	for _, rec := range g.sortedByID() {
		if role != "" && roleOf(rec) != role || kind != "" && string(rec.Kind) != kind ||
			req.Status != "" && !strings.EqualFold(rec.Status, req.Status) || !inDomain(rec, domains) {
			continue
		}
		all = append(all, rec)
	}
	resp := &ListResponse{Skills: []SkillSummary{}, Total: len(all), Offset: req.Offset}
	resp.Truncated, resp.Warnings = g.truncation()
	if req.Offset < len(all) {
		end := min(len(all), req.Offset+limit)
		for _, rec := range all[req.Offset:end] {
			resp.Skills = append(resp.Skills, Summarize(rec))
		}
		if end < len(all) {
			resp.NextOffset = end
		}
	}
	return resp, nil
}

// sortedByID returns the visible records ordered by id, cached per
// registry generation.
func (g *Gateway) sortedByID() []*registry.Record {
	g.mu.Lock()
	defer g.mu.Unlock()
	gen := g.reg.Generation()
	if g.byID == nil || g.byIDGen != gen {
		recs := g.reg.List()
		sortRecords(recs)
		g.byID, g.byIDGen = recs, gen
	}
	return g.byID
}

// truncation reports whether the registry's last scan was cut by its
// limit, with the warning to pass on.
func (g *Gateway) truncation() (bool, []string) {
	if w := g.reg.TruncationWarning(); w != "" {
		return true, []string{w}
	}
	return false, nil
}
