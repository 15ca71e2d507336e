package gateway

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/skillscript/skillc/internal/classification"
	"github.com/skillscript/skillc/internal/host/registry"
)

// DiscoverRequest asks which skills solve a job.
type DiscoverRequest struct {
	Intent     string   `json:"intent" jsonschema:"the job to be done, in words (required)"`
	Domain     []string `json:"domain,omitempty" jsonschema:"keep skills whose metadata domain or a tag is one of these"`
	RoleFilter string   `json:"role_filter,omitempty" jsonschema:"procedure, utility or sidecar: keep only that role (sidecar also lifts their exclusion)"`
	Limit      int      `json:"limit,omitempty" jsonschema:"results to return (default 10, at most 100)"`
	// IncludeUnavailable keeps skills whose connectors are not wired,
	// flagged with connectors_unavailable, instead of leaving them out.
	IncludeUnavailable bool `json:"include_unavailable,omitempty" jsonschema:"keep skills whose connectors are not wired, flagged"`
}

// Breakdown is each term of a result's score.
type Breakdown struct {
	Lexical  float64 `json:"lexical"`
	Name     float64 `json:"name"`
	Role     float64 `json:"role"`
	Status   float64 `json:"status"`
	Tag      float64 `json:"tag"`
	ReadOnly float64 `json:"read_only"`
}

// DiscoverResult is one ranked skill.
type DiscoverResult struct {
	SkillID        string    `json:"skill_id"`
	Name           string    `json:"name"`
	Kind           string    `json:"kind"`
	Description    string    `json:"description"`
	Role           string    `json:"role,omitempty"`
	Invocation     string    `json:"invocation,omitempty"`
	EffectMode     string    `json:"effect_mode,omitempty"`
	Status         string    `json:"status,omitempty"`
	Score          float64   `json:"score"`
	ScoreBreakdown Breakdown `json:"score_breakdown"`
	ReasonCodes    []string  `json:"reason_codes"`
	Reason         string    `json:"reason"`
	// Unavailable lists connectors the skill needs that are not wired
	// (only with include_unavailable).
	Unavailable []string `json:"unavailable_connectors,omitempty"`
}

// DiscoverResponse is the ranked answer, best first.
type DiscoverResponse struct {
	Intent         string           `json:"intent"`
	ReadOnlyIntent bool             `json:"read_only_intent"`
	AttachIntent   bool             `json:"attach_intent"`
	Results        []DiscoverResult `json:"results"`
	// Truncated is set when the registry's scan stopped at its directory
	// limit, so skills were not ranked; Warnings says which roots and how
	// to raise the limit.
	Truncated bool     `json:"truncated"`
	Warnings  []string `json:"warnings,omitempty"`
}

// Reason codes of discover results.
const (
	CodeLexical          = "lexical_match"
	CodeNameMatch        = "name_match"
	CodeTagExact         = "tag_exact"
	CodeTagPartial       = "tag_partial"
	CodeRoleProcedure    = "role_procedure"
	CodeRoleUtility      = "role_utility"
	CodeRoleRequested    = "role_requested"
	CodeSidecarAttach    = "sidecar_for_attach"
	CodeStatusStable     = "status_stable"
	CodeStatusExperiment = "status_experimental"
	CodeReadOnly         = "read_only_preferred"
	CodeUnclassified     = "unclassified"
	CodeAttachOnly       = "attach_only"
	CodeUnavailable      = "connectors_unavailable"
)

// intent is a parsed intent.
type intent struct {
	words    []string // all words, in order
	terms    []string // searchable words (stop words removed), distinct
	readOnly bool
	attach   bool
	stems    map[string]bool // the words' stems and their lexicon synonyms
}

func (g *Gateway) parseIntent(s string) intent {
	in := intent{words: words(s)}
	stop, ro, mut, att := set(g.cfg.StopWords), set(g.cfg.ReadOnlyWords), set(g.cfg.MutatingWords), set(g.cfg.AttachWords)
	mutating := false
	for _, w := range in.words {
		switch {
		case ro[w]:
			in.readOnly = true
		case mut[w]:
			mutating = true
		}
		if att[w] {
			in.attach = true
		}
		if !stop[w] && !slices.Contains(in.terms, w) {
			in.terms = append(in.terms, w)
		}
	}
	in.readOnly = in.readOnly && !mutating
	in.stems = stemSet(in.words)
	return in
}

// stemSet returns the stems of ws and the lexicon synonyms of each.
func stemSet(ws []string) map[string]bool {
	lex := defaultLexicon()
	out := map[string]bool{}
	for _, w := range ws {
		s := stem(w)
		out[s] = true
		for _, syn := range lex.same[s] {
			out[syn] = true
		}
	}
	return out
}

func set(xs []string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[strings.ToLower(x)] = true
	}
	return m
}

// checkLimit validates a limit: 0 is the default.
func (g *Gateway) checkLimit(n int) (int, error) {
	switch {
	case n == 0:
		return g.cfg.DefaultLimit, nil
	case n < 0 || n > g.cfg.MaxLimit:
		return 0, reqErr(ReasonInvalidRequest, "limit", "limit %d is out of range: use 1 to %d (0 means %d)", n, g.cfg.MaxLimit, g.cfg.DefaultLimit)
	}
	return n, nil
}

// checkRole validates a role filter.
func checkRole(field, role string) (string, error) {
	if role == "" {
		return "", nil
	}
	r := strings.ToLower(strings.TrimSpace(role))
	if !slices.Contains(classification.Values(classification.KeyRole), r) {
		e := reqErr(ReasonInvalidRequest, field, "unknown %s %q%s; use procedure, utility or sidecar", field, role, closest(role, classification.Values(classification.KeyRole)))
		e.Reason.Got, e.Reason.Allowed = role, classification.Values(classification.KeyRole)
		return "", e
	}
	return r, nil
}

// Discover ranks the skills that match req.Intent: BM25F over name,
// description, tags, headings, first paragraph and tools with stemming
// and the lexicon's synonyms, then the tiers (role, status, tag match,
// read-only preference) with the configured weights.
func (g *Gateway) Discover(ctx context.Context, req DiscoverRequest) (*DiscoverResponse, error) {
	text := strings.TrimSpace(req.Intent)
	if text == "" {
		return nil, reqErr(ReasonInvalidRequest, "intent", "intent is empty: describe the job to be done")
	}
	if len(text) > g.cfg.MaxIntentBytes {
		return nil, reqErr(ReasonInvalidRequest, "intent", "intent is %d bytes, over the limit of %d", len(text), g.cfg.MaxIntentBytes)
	}
	limit, err := g.checkLimit(req.Limit)
	if err != nil {
		return nil, err
	}
	role, err := checkRole("role_filter", req.RoleFilter)
	if err != nil {
		return nil, err
	}
	in := g.parseIntent(text)
	if len(in.terms) == 0 {
		return nil, reqErr(ReasonInvalidRequest, "intent", "intent %q has no searchable words", text)
	}
	hits, err := g.search(ctx, in.terms)
	if err != nil {
		return nil, err
	}
	if g.embed != nil {
		if hits, err = g.fuse(ctx, text, hits); err != nil {
			return nil, err
		}
	}
	resp := &DiscoverResponse{Intent: text, ReadOnlyIntent: in.readOnly, AttachIntent: in.attach, Results: []DiscoverResult{}}
	resp.Truncated, resp.Warnings = g.truncation()
	top := 0.0
	for _, h := range hits {
		top = math.Max(top, h.bm25)
	}
	if top <= 0 {
		top = 1
	}
	var domains map[string]bool
	for _, d := range req.Domain {
		if d = strings.TrimSpace(d); d != "" {
			if domains == nil {
				domains = map[string]bool{}
			}
			domains[strings.ToLower(d)] = true
		}
	}
	var recs []*registry.Record
	var covers []uint64
	for _, h := range hits {
		rec := h.rec
		if !inDomain(rec, domains) || !roleAllowed(rec, role, in.attach) {
			continue
		}
		missing := g.unwired(rec)
		if len(missing) > 0 && !req.IncludeUnavailable {
			continue
		}
		res := g.score(rec, h.bm25/top, in, role)
		if len(missing) > 0 {
			res.Unavailable = missing
			res.ReasonCodes = append(res.ReasonCodes, CodeUnavailable)
			res.Reason = strings.TrimPrefix(res.Reason+"; needs unwired connectors "+strings.Join(missing, ", "), "; ")
		}
		resp.Results = append(resp.Results, res)
		recs = append(recs, rec)
		covers = append(covers, h.cover)
	}
	order := make([]int, len(recs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := resp.Results[order[i]], resp.Results[order[j]]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.SkillID < b.SkillID
	})
	out := make([]DiscoverResult, 0, min(limit, len(order)))
	for _, i := range order[:min(limit, len(order))] {
		// the matched words are spelled out only for the results returned
		r := resp.Results[i]
		r.Reason = "matches " + strings.Join(matched(recs[i], in.terms, covers[i]), ", ") + prefixed(r.Reason)
		out = append(out, r)
	}
	resp.Results = out
	return resp, nil
}

// roleOf returns the skill's role ("" when unclassified).
func roleOf(rec *registry.Record) string {
	if rec.Class == nil {
		return ""
	}
	return rec.Class.Role
}

// roleAllowed applies the role filter and the sidecar exclusion.
func roleAllowed(rec *registry.Record, filter string, attach bool) bool {
	r := roleOf(rec)
	if filter != "" {
		return r == filter
	}
	return r != classification.RoleSidecar || attach
}

// inDomain reports whether rec's domain or a tag is in domains (empty:
// any).
func inDomain(rec *registry.Record, domains map[string]bool) bool {
	if len(domains) == 0 || domains[strings.ToLower(rec.Domain)] {
		return true
	}
	for _, t := range rec.Tags {
		if domains[strings.ToLower(t)] {
			return true
		}
	}
	return false
}

// unwired returns the connectors rec needs that are not wired.
func (g *Gateway) unwired(rec *registry.Record) []string {
	if g.wired == nil {
		return nil
	}
	var out []string
	for _, c := range rec.Requires {
		if !g.wired(c) {
			out = append(out, c)
		}
	}
	return out
}

// statusTier is 2 for stable/Approved, 1 for experimental/Draft, 0 else.
func statusTier(status string) int {
	switch strings.ToLower(status) {
	case "stable", "approved", "ga", "production":
		return 2
	case "experimental", "draft", "beta", "preview":
		return 1
	}
	return 0
}

// score computes one result. The text terms (lexical, name, tag) decide
// the order; the tiers (role, status, read-only preference) only re-rank
// within a bounded window: together they add at most weights.tier_window,
// in proportion to the share of the tier points the skill earns among
// the tiers it declares something about. A tier the skill is silent on
// (no classification, no status) is left out rather than scored zero, so
// unclassified skills are not pushed below classified ones, and a
// catalog with no classification ranks by text alone.
func (g *Gateway) score(rec *registry.Record, lex float64, in intent, filter string) DiscoverResult {
	w := g.cfg.Weights
	res := DiscoverResult{SkillID: rec.ID, Name: rec.Name, Kind: string(rec.Kind), Description: rec.Description, Status: rec.Status}
	if c := rec.Class; c != nil {
		res.Role, res.Invocation, res.EffectMode = c.Role, c.Invocation, c.EffectMode
	}
	var why []string
	b := &res.ScoreBreakdown
	b.Lexical = w.Lexical * lex
	res.ReasonCodes = append(res.ReasonCodes, CodeLexical)
	if f := nameCoverage(rec.Name, in.words, in.stems); f > 0 {
		b.Name = w.NameToken * f
		res.ReasonCodes = append(res.ReasonCodes, CodeNameMatch)
	}
	switch exact, partial := tagMatch(rec.Tags, in.words); {
	case exact != "":
		b.Tag = w.TagExact
		res.ReasonCodes = append(res.ReasonCodes, CodeTagExact)
		why = append(why, "tag "+exact)
	case partial != "":
		b.Tag = w.TagPartial
		res.ReasonCodes = append(res.ReasonCodes, CodeTagPartial)
		why = append(why, "partly tag "+partial)
	}
	// tier points: each tier the skill declares something about counts
	// with its earned and possible points; tiers it is silent on (no
	// classification, no status) are left out of both, so an unclassified
	// skill is judged on what it declares; a skill silent on every tier
	// gets half of each
	var role, status, ro, possible float64
	switch r := res.Role; {
	case r == "":
		res.ReasonCodes = append(res.ReasonCodes, CodeUnclassified)
	case filter != "" && r == filter:
		role = w.RoleProcedure
		res.ReasonCodes = append(res.ReasonCodes, CodeRoleRequested)
		why = append(why, "role "+r+" as requested")
	case r == classification.RoleProcedure:
		role = w.RoleProcedure
		res.ReasonCodes = append(res.ReasonCodes, CodeRoleProcedure)
		why = append(why, "a procedure")
	case r == classification.RoleUtility:
		role = w.RoleUtility
		res.ReasonCodes = append(res.ReasonCodes, CodeRoleUtility)
		why = append(why, "a utility")
	case r == classification.RoleSidecar && in.attach:
		role = w.RoleSidecarAttach
		res.ReasonCodes = append(res.ReasonCodes, CodeSidecarAttach)
		why = append(why, "a sidecar for an attach request")
	}
	if res.Role != "" {
		possible += w.RoleProcedure
	}
	if rec.Status != "" {
		possible += w.StatusStable
		switch statusTier(rec.Status) {
		case 2:
			status = w.StatusStable
			res.ReasonCodes = append(res.ReasonCodes, CodeStatusStable)
			why = append(why, "status "+rec.Status)
		case 1:
			status = w.StatusExperiment
			res.ReasonCodes = append(res.ReasonCodes, CodeStatusExperiment)
		}
	}
	if in.readOnly && res.EffectMode != "" {
		possible += w.ReadOnly
		if res.EffectMode == classification.EffectReadOnly {
			ro = w.ReadOnly
			res.ReasonCodes = append(res.ReasonCodes, CodeReadOnly)
			why = append(why, "read-only for a read-only request")
		}
	}
	if possible == 0 {
		role, status, possible = w.RoleProcedure/2, w.StatusStable/2, w.RoleProcedure+w.StatusStable
	}
	if possible > 0 {
		scale := w.TierWindow / possible
		b.Role, b.Status, b.ReadOnly = round(role*scale), round(status*scale), round(ro*scale)
	}
	if res.Invocation == classification.InvocationAttach {
		res.ReasonCodes = append(res.ReasonCodes, CodeAttachOnly)
		why = append(why, "runs only attached (skills_attach)")
	}
	b.Lexical, b.Name = round(b.Lexical), round(b.Name)
	res.Score = round(b.Lexical + b.Name + b.Role + b.Status + b.Tag + b.ReadOnly)
	res.Reason = strings.Join(why, "; ")
	return res
}

func prefixed(s string) string {
	if s == "" {
		return ""
	}
	return "; " + s
}

func round(x float64) float64 { return math.Round(x*10000) / 10000 }

// matched lists the intent terms found in the skill's indexed text:
// sharing a stem with a word of it, directly or through the lexicon. The
// lexical stage's cover says which (no re-analysis of the skill); a skill
// only the semantic stage found is analysed again.
func matched(rec *registry.Record, terms []string, cover uint64) []string {
	if cover != 0 {
		// the lexical stage recorded which terms the skill matched
		var out []string
		for i, t := range terms[:min(len(terms), 64)] {
			if cover&(1<<i) != 0 {
				out = append(out, t)
			}
		}
		return out
	}
	have := map[string]bool{}
	for _, f := range analyze(rec) {
		for _, s := range f {
			have[s] = true
		}
	}
	lex := defaultLexicon()
	var out []string
	for _, t := range terms {
		s := stem(t)
		hit := have[s]
		for _, syn := range lex.same[s] {
			hit = hit || have[syn]
		}
		if hit {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return []string{"the intent"}
	}
	return out
}

// related reports whether two words share a stem: equal, or one a prefix
// of the other with at least four letters in common.
func related(a, b string) bool {
	if a == b {
		return true
	}
	n := min(len(a), len(b))
	return n >= 4 && (strings.HasPrefix(a, b[:n]) && strings.HasPrefix(b, a[:n]))
}

// nameCoverage is the share of the name's words found in the intent:
// sharing a stem, a lexicon synonym of an intent word (stems), or a
// prefix of four letters or more.
func nameCoverage(name string, in []string, stems map[string]bool) float64 {
	nw := words(name)
	if len(nw) == 0 {
		return 0
	}
	hit := 0
	for _, w := range nw {
		if stems[stem(w)] {
			hit++
			continue
		}
		for _, i := range in {
			if related(w, i) {
				hit++
				break
			}
		}
	}
	return float64(hit) / float64(len(nw))
}

// tagMatch returns the first tag found whole in the intent (its words
// consecutive), else the first tag with a word related to an intent word.
func tagMatch(tags, in []string) (exact, partial string) {
	text := " " + strings.Join(in, " ") + " "
	for _, t := range tags {
		tw := words(t)
		if len(tw) > 0 && strings.Contains(text, " "+strings.Join(tw, " ")+" ") {
			return t, ""
		}
	}
	for _, t := range tags {
		for _, w := range words(t) {
			for _, i := range in {
				if related(w, i) {
					return "", t
				}
			}
		}
	}
	return "", ""
}
