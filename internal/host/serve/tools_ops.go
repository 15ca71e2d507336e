package serve

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/host/trace"
)

// DataReadInput is the input of data_read (the $ data_read kwargs).
type DataReadInput struct {
	Query             string         `json:"query,omitempty" jsonschema:"query text; empty lists recent records"`
	Mode              string         `json:"mode,omitempty" jsonschema:"retrieval mode (fts by default)"`
	Limit             int            `json:"limit,omitempty"`
	DomainTags        []string       `json:"domain_tags,omitempty"`
	Filters           map[string]any `json:"filters,omitempty"`
	PermissiveFilters bool           `json:"permissive_filters,omitempty"`
}

// DataReadOutput holds the matching records.
type DataReadOutput struct {
	Records []map[string]any `json:"records"`
}

func (ts *toolSet) dataRead(ctx context.Context, _ *call, in DataReadInput) (DataReadOutput, error) {
	ds := ts.h.Registry().Data
	if ds == nil {
		return DataReadOutput{}, hostErr(ErrNoDataStore, "no data store is configured")
	}
	if in.Limit < 0 {
		return DataReadOutput{}, invalidParams("field limit: must not be negative")
	}
	q := contract.Query{Mode: in.Mode, Text: in.Query, Limit: in.Limit, DomainTags: in.DomainTags, Filters: in.Filters, PermissiveFilters: in.PermissiveFilters}
	if err := contract.CheckFilters(ds.Manifest(ctx), q.Filters, q.PermissiveFilters); err != nil {
		return DataReadOutput{}, wrapErr(ErrUnsupportedFilter, err)
	}
	recs, err := ds.Query(ctx, q)
	if err != nil {
		return DataReadOutput{}, wrapErr(ErrStore, err)
	}
	out := DataReadOutput{Records: make([]map[string]any, len(recs))}
	for i, r := range recs {
		out.Records[i] = r.Map()
	}
	return out, nil
}

// FiresInput filters fires.
type FiresInput struct {
	Skill   string `json:"skill,omitempty"`
	TraceID string `json:"trace_id,omitempty"`
	Since   string `json:"since,omitempty" jsonschema:"RFC 3339 time or a duration like 24h"`
	Limit   int    `json:"limit,omitempty"`
}

// FiresOutput lists recorded runs (with ops when one trace_id is asked).
type FiresOutput struct {
	Runs []trace.Run `json:"runs"`
}

func (ts *toolSet) fires(ctx context.Context, _ *call, in FiresInput) (FiresOutput, error) {
	st, err := ts.h.traceStore()
	if err != nil {
		return FiresOutput{}, err
	}
	since, err := trace.ParseSince(in.Since, ts.h.now())
	if err != nil {
		return FiresOutput{}, invalidParams("field since: %v", err)
	}
	if in.TraceID != "" {
		r, _, err := st.Get(ctx, in.TraceID)
		if errors.Is(err, trace.ErrNotFound) {
			return FiresOutput{}, hostErr(ErrTraceNotFound, "no trace %q", in.TraceID)
		}
		if err != nil {
			return FiresOutput{}, wrapErr(ErrStore, err)
		}
		return FiresOutput{Runs: []trace.Run{*r}}, nil
	}
	runs, err := st.Fires(ctx, trace.Filter{Skill: in.Skill, Since: since, Limit: in.Limit})
	if err != nil {
		return FiresOutput{}, wrapErr(ErrStore, err)
	}
	return FiresOutput{Runs: runs}, nil
}

func (h *Host) traceStore() (*trace.Store, error) {
	if h.traces == nil {
		return nil, hostErr(ErrTracesOff, "run recording is off (--trace off)")
	}
	return h.traces, nil
}

// HealthInput filters health_metrics.
type HealthInput struct {
	Skill string `json:"skill,omitempty"`
	Since string `json:"since,omitempty" jsonschema:"RFC 3339 time or a duration like 24h (default 24h)"`
}

// HealthOutput is per-skill run health plus the host's status.
type HealthOutput struct {
	Since  string              `json:"since"`
	Skills []trace.SkillHealth `json:"skills"`
	Host   HostStatus          `json:"host"`
}

// HostStatus is the live state of the host.
type HostStatus struct {
	Version       string  `json:"version"`
	UptimeSeconds float64 `json:"uptime_seconds"`
	InFlight      int     `json:"runs_in_flight"`
	Draining      bool    `json:"draining"`
}

func (ts *toolSet) healthMetrics(ctx context.Context, _ *call, in HealthInput) (HealthOutput, error) {
	st, err := ts.h.traceStore()
	if err != nil {
		return HealthOutput{}, err
	}
	if in.Since == "" {
		in.Since = "24h"
	}
	since, err := trace.ParseSince(in.Since, ts.h.now())
	if err != nil {
		return HealthOutput{}, invalidParams("field since: %v", err)
	}
	skills, err := st.Health(ctx, in.Skill, since)
	if err != nil {
		return HealthOutput{}, wrapErr(ErrStore, err)
	}
	return HealthOutput{Since: since.UTC().Format(time.RFC3339), Skills: skills, Host: ts.h.status()}, nil
}

func (h *Host) status() HostStatus {
	return HostStatus{Version: h.version, UptimeSeconds: h.now().Sub(h.started).Seconds(), InFlight: h.InFlight(), Draining: h.Draining()}
}

// BlockedInput filters blocked_shell_attempts.
type BlockedInput struct {
	Since string `json:"since,omitempty" jsonschema:"RFC 3339 time or a duration like 24h"`
	Limit int    `json:"limit,omitempty"`
}

// BlockedOutput lists refused shell ops, aggregated by binary too.
type BlockedOutput struct {
	Attempts []trace.Blocked `json:"attempts"`
	ByBinary map[string]int  `json:"by_binary"`
}

func (ts *toolSet) blockedShellAttempts(ctx context.Context, _ *call, in BlockedInput) (BlockedOutput, error) {
	st, err := ts.h.traceStore()
	if err != nil {
		return BlockedOutput{}, err
	}
	since, err := trace.ParseSince(in.Since, ts.h.now())
	if err != nil {
		return BlockedOutput{}, invalidParams("field since: %v", err)
	}
	att, err := st.BlockedShell(ctx, since, in.Limit)
	if err != nil {
		return BlockedOutput{}, wrapErr(ErrStore, err)
	}
	out := BlockedOutput{Attempts: att, ByBinary: map[string]int{}}
	for _, a := range att {
		out.ByBinary[a.Binary]++
	}
	return out, nil
}

// CapabilitiesInput narrows runtime_capabilities.
type CapabilitiesInput struct {
	Include []string `json:"include,omitempty" jsonschema:"sections to return (skillStores, dataStores, connectors, models, agents, policy, features); all when empty"`
}

// Capabilities describes what the runtime has wired.
type Capabilities struct {
	Runtime    string         `json:"runtime"`
	Version    string         `json:"version"`
	SkillStore *Component     `json:"skillStores,omitempty"`
	DataStore  *Component     `json:"dataStores,omitempty"`
	Connectors []ConnectorCap `json:"connectors,omitempty"`
	Models     []string       `json:"models,omitempty"`
	Agents     []string       `json:"agents,omitempty"`
	Policy     *Policy        `json:"policy,omitempty"`
	Features   *Features      `json:"features,omitempty"`
}

// Component names a wired substrate implementation.
type Component struct {
	Implementation string `json:"implementation"`
}

// ConnectorCap is one named MCP connector.
type ConnectorCap struct {
	Name         string   `json:"name"`
	AllowedTools []string `json:"allowed_tools,omitempty"`
	Tools        []string `json:"tools,omitempty"`
}

// Policy are the operator switches (no secret values).
type Policy struct {
	SecuredMode       bool     `json:"secured_mode"`
	ShellAllowlist    []string `json:"shell_allowlist"`
	UnsafeShell       bool     `json:"enable_unsafe_shell"`
	FSAllowlistRoots  int      `json:"fs_allowlist_roots"`
	MaxDeadlineSecs   int      `json:"max_deadline_seconds"`
	MaxRecursionDepth int      `json:"max_recursion_depth"`
	ForceAlwaysDraft  bool     `json:"force_always_draft"`
	// ClientApproval is true when any MCP client can approve: the host
	// is unsecured and skill writes keep # Status: Approved, so a client
	// can write an effectful skill Approved (skill_write, skill_status)
	// and run it. serve warns about it at start.
	ClientApproval bool `json:"client_approval"`
}

// Features are the host's optional surfaces.
type Features struct {
	EventIngress              bool     `json:"event_ingress"`
	Triggers                  []string `json:"trigger_kinds"`
	SupportsIdentityPropagate bool     `json:"supports_identity_propagation"`
	Tracing                   bool     `json:"tracing"`
	Transports                []string `json:"transports"`
	QueueDurability           string   `json:"queue_durability,omitempty"`
	// SkillOwnership is true when only a skill's author or the operator
	// may overwrite it or change its status (an identity header is
	// configured).
	SkillOwnership bool `json:"skill_ownership"`
}

func (ts *toolSet) runtimeCapabilities(ctx context.Context, _ *call, in CapabilitiesInput) (Capabilities, error) {
	h, reg := ts.h, ts.h.Registry()
	want := func(s string) bool { return len(in.Include) == 0 || contains(in.Include, s) }
	out := Capabilities{Runtime: "skillc", Version: h.version}
	if want("skillStores") && reg.Skills != nil {
		out.SkillStore = &Component{Implementation: typeName(unguarded(reg.Skills))}
	}
	if want("dataStores") && reg.Data != nil {
		out.DataStore = &Component{Implementation: reg.Data.Manifest(ctx).Implementation}
	}
	if want("connectors") {
		out.Connectors = connectorCaps(reg)
	}
	if want("models") {
		for name := range reg.Models {
			out.Models = append(out.Models, name)
		}
		sort.Strings(out.Models)
	}
	if want("agents") {
		for i, a := range reg.Agents {
			out.Agents = append(out.Agents, agentName(a, i))
		}
	}
	if want("policy") {
		out.Policy = h.policyView()
	}
	if want("features") {
		out.Features = h.features()
	}
	return out, nil
}

func (h *Host) policyView() *Policy {
	c := h.cfg
	return &Policy{
		SecuredMode: c.SecuredMode, ShellAllowlist: append([]string{}, c.ShellAllowlist...), UnsafeShell: c.EnableUnsafeShell,
		FSAllowlistRoots: len(c.FSAllowlist), MaxDeadlineSecs: int(c.MaxDeadline / time.Second), MaxRecursionDepth: c.MaxRecursionDepth,
		ForceAlwaysDraft: c.ForceAlwaysDraft, ClientApproval: h.ClientApproval(),
	}
}

func (h *Host) features() *Features {
	f := &Features{
		EventIngress: h.set.EventIngress, Triggers: []string{}, SupportsIdentityPropagate: h.set.IdentityHeader != "",
		Tracing: h.traces != nil, Transports: []string{"streamable-http", "stdio"},
		SkillOwnership: h.set.IdentityHeader != "",
	}
	if h.triggers != nil {
		f.Triggers = []string{"cron", "event"}
		f.QueueDurability = h.triggers.Durability()
	}
	return f
}

func connectorCaps(reg *contract.Registry) []ConnectorCap {
	out := []ConnectorCap{}
	for _, name := range reg.ConnectorNames() {
		e := reg.Connectors[name]
		c := ConnectorCap{Name: name, AllowedTools: e.AllowedTools}
		for _, t := range e.Tools {
			c.Tools = append(c.Tools, t.Name)
		}
		out = append(out, c)
	}
	return out
}

func agentName(a contract.AgentConnector, i int) string {
	if n, ok := a.(interface{ Name() string }); ok {
		return n.Name()
	}
	return fmt.Sprintf("agent%d", i)
}

func typeName(v any) string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.String()
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
