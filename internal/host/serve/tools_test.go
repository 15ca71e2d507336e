package serve

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/host/trigger"
)

func tools(t *testing.T, skills map[string]string) *toolSet {
	t.Helper()
	ts, err := newToolSet(newHost(t, Settings{EventIngress: true}, skills))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestDataReadAndCapabilities(t *testing.T) {
	ts := tools(t, nil)
	ctx := context.Background()
	ds := ts.h.Registry().Data
	if ds == nil {
		t.Fatal("no data store wired by default")
	}
	if _, err := ds.Write(ctx, contract.WriteRequest{Content: "customer feedback: fast\nmore", Tags: []string{"fb"}}); err != nil {
		t.Fatal(err)
	}
	out, err := ts.dataRead(ctx, &call{}, DataReadInput{Query: "feedback", DomainTags: []string{"fb"}})
	if err != nil || len(out.Records) != 1 || out.Records[0]["summary"] != "customer feedback: fast" {
		t.Errorf("data_read = %+v, %v", out, err)
	}
	var he *Error
	if _, err := ts.dataRead(ctx, &call{}, DataReadInput{Filters: map[string]any{"vault": "x"}}); !errors.As(err, &he) || he.Name != ErrUnsupportedFilter {
		t.Errorf("undeclared filter: %v", err)
	}
	caps, err := ts.runtimeCapabilities(ctx, &call{}, CapabilitiesInput{})
	if err != nil || caps.SkillStore == nil || caps.DataStore == nil || caps.Policy == nil || caps.Features == nil ||
		!caps.Features.EventIngress || len(caps.Features.Triggers) != 2 || !caps.Features.Tracing {
		t.Errorf("runtime_capabilities = %+v %v", caps, err)
	}
	only, _ := ts.runtimeCapabilities(ctx, &call{}, CapabilitiesInput{Include: []string{"policy"}})
	if only.Policy == nil || only.SkillStore != nil || only.Features != nil {
		t.Errorf("include=policy = %+v", only)
	}
	help, err := ts.help(ctx, &call{}, HelpInput{Topic: "triggers"})
	if err != nil || !strings.Contains(help.Text, "IANA timezone") || len(help.Tools) != len(ts.names) {
		t.Errorf("help = %+v %v", help, err)
	}
	if _, err := ts.help(ctx, &call{}, HelpInput{Topic: "nope"}); err == nil || !strings.Contains(err.Error(), "topic") {
		t.Errorf("unknown topic: %v", err)
	}
}

func TestBlockedShellAttempts(t *testing.T) {
	ts := tools(t, map[string]string{"sh": "# Skill: sh\n# Status: Approved\n\nrun:\n    shell(command=\"curl -s https://example.com\") -> R\ndefault: run\n"})
	ctx := context.Background()
	ex, err := ts.executeSkill(ctx, &call{caller: "ops"}, ExecuteInput{Name: "sh"})
	if err != nil || ex.Status != "failed" {
		t.Fatalf("execute = %+v %v", ex, err)
	}
	out, err := ts.blockedShellAttempts(ctx, &call{}, BlockedInput{Since: "1h"})
	if err != nil || len(out.Attempts) != 1 || out.Attempts[0].Binary != "curl" || out.ByBinary["curl"] != 1 || out.Attempts[0].TraceID != ex.TraceID {
		t.Errorf("blocked = %+v %v", out, err)
	}
	h, err := ts.healthMetrics(ctx, &call{}, HealthInput{Skill: "sh"})
	if err != nil || len(h.Skills) != 1 || h.Skills[0].Refusals != 1 || h.Skills[0].Failed != 1 {
		t.Errorf("health = %+v %v", h, err)
	}
	if _, err := ts.fires(ctx, &call{}, FiresInput{Since: "yesterday"}); err == nil || !strings.Contains(err.Error(), "since") {
		t.Errorf("bad since: %v", err)
	}
}

// Declared triggers follow skill_write and skill_status; Disabled skills
// keep their triggers but never fire.
func TestTriggersFollowWrites(t *testing.T) {
	ts := tools(t, nil)
	ctx := context.Background()
	src := "# Skill: nightly\n# Status: Approved\n# Triggers: cron: 0 3 * * *, event: Reindex\n\nok\n"
	if _, err := ts.skillWrite(ctx, &call{caller: "alice"}, SkillWriteInput{Name: "nightly", Source: src}); err != nil {
		t.Fatal(err)
	}
	list, _ := ts.listTriggers(ctx, &call{}, ListTriggersInput{Skill: "nightly"})
	if len(list.Triggers) != 2 || list.Triggers[1].Spec != "reindex" || list.Triggers[0].Source != trigger.SourceDeclared {
		t.Fatalf("declared = %+v", list.Triggers)
	}
	if _, err := ts.h.triggers.FireEvent(ctx, "reindex", nil); err != nil {
		t.Errorf("event on an Approved skill: %v", err)
	}
	if _, err := ts.skillStatus(ctx, &call{}, SkillStatusInput{Name: "nightly", Status: "Disabled"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ts.h.triggers.FireEvent(ctx, "reindex", nil); !trigger.IsNotFound(err) {
		t.Errorf("event on a Disabled skill: %v", err)
	}
	edited := strings.Replace(src, ", event: Reindex", "", 1)
	if _, err := ts.skillWrite(ctx, &call{}, SkillWriteInput{Name: "nightly", Source: edited}); err != nil {
		t.Fatal(err)
	}
	list, _ = ts.listTriggers(ctx, &call{}, ListTriggersInput{Skill: "nightly"})
	if len(list.Triggers) != 1 || list.Triggers[0].Kind != trigger.KindCron {
		t.Errorf("after the edit = %+v", list.Triggers)
	}
	reg, err := ts.registerTrigger(ctx, &call{caller: "ops"}, RegisterTriggerInput{Skill: "nightly", Kind: "event", Event: "Go"})
	if err != nil || reg.Trigger.CreatedBy != "ops" || reg.Trigger.Source != trigger.SourceImperative {
		t.Fatalf("register = %+v %v", reg, err)
	}
	if _, err := ts.setTriggerEnabled(ctx, &call{}, SetEnabledInput{ID: reg.Trigger.ID, Enabled: false}); err != nil {
		t.Error(err)
	}
	if _, err := ts.unregisterTrigger(ctx, &call{}, TriggerIDInput{ID: reg.Trigger.ID}); err != nil {
		t.Error(err)
	}
	var he *Error
	if _, err := ts.unregisterTrigger(ctx, &call{}, TriggerIDInput{ID: reg.Trigger.ID}); !errors.As(err, &he) || he.Name != ErrTriggerNotFound {
		t.Errorf("second unregister: %v", err)
	}
	if _, err := ts.registerTrigger(ctx, &call{}, RegisterTriggerInput{Skill: "ghost", Kind: "cron", Schedule: "* * * * *"}); !errors.As(err, &he) || he.Name != ErrSkillNotFound {
		t.Errorf("trigger for a missing skill: %v", err)
	}
}

func TestSkillWriteChecks(t *testing.T) {
	ts := tools(t, nil)
	ctx := context.Background()
	for _, tc := range []struct{ name, src, want string }{
		{"", "# Skill: x\n\nok\n", "field name"},
		{"../x", "# Skill: x\n\nok\n", "field name"},
		{"a", "# Skill: b\n\nok\n", "differs"},
	} {
		if _, err := ts.skillWrite(ctx, &call{}, SkillWriteInput{Name: tc.name, Source: tc.src}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("skill_write(%q) = %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := ts.skillStatus(ctx, &call{}, SkillStatusInput{Name: "a", Status: "Shipped"}); err == nil || !strings.Contains(err.Error(), "field status") {
		t.Errorf("bad status: %v", err)
	}
}

func TestSkillListFilters(t *testing.T) {
	ts := tools(t, map[string]string{
		"a": "# Skill: a\n# Status: Approved\n# Tags: billing, ops\n# Audience: operators\n# Triggers: cron: 0 9 * * *\n\nx\n",
		"b": "# Skill: b\n# Status: Draft\n# Tags: ops\n# Triggers: event: go\n\nx\n",
		"c": "# Skill: c\n# Status: Disabled\n\nx\n",
	})
	ctx := context.Background()
	names := func(in SkillListInput) string {
		t.Helper()
		out, err := ts.skillList(ctx, &call{}, in)
		if err != nil {
			t.Fatal(err)
		}
		var ns []string
		for _, e := range out.Skills {
			ns = append(ns, e.Name)
		}
		return strings.Join(ns, ",")
	}
	for _, tc := range []struct {
		in   SkillListInput
		want string
	}{
		{SkillListInput{}, "a,b,c"},
		{SkillListInput{Status: "approved"}, "a"},
		{SkillListInput{TriggerKind: "event"}, "b"},
		{SkillListInput{DomainTags: []string{"ops"}}, "a,b"},
		{SkillListInput{DomainTags: []string{"billing", "nope"}}, "a"},
		{SkillListInput{Audience: "Operators"}, "a"},
		{SkillListInput{NamePrefix: "c"}, "c"},
	} {
		if got := names(tc.in); got != tc.want {
			t.Errorf("skill_list %+v = %q, want %q", tc.in, got, tc.want)
		}
	}
	all, _ := ts.skillList(ctx, &call{}, SkillListInput{})
	ops, _ := ts.skillList(ctx, &call{}, SkillListInput{DomainTags: []string{"ops"}})
	if all.CatalogVersion == ops.CatalogVersion {
		t.Error("filtered and unfiltered catalogs share a version")
	}
	if _, err := ts.skillWrite(ctx, &call{}, SkillWriteInput{Name: "d", Source: "# Skill: d\n\nx\n"}); err != nil {
		t.Fatal(err)
	}
	if again, _ := ts.skillList(ctx, &call{}, SkillListInput{IfNoneMatch: all.CatalogVersion}); again.NotModified {
		t.Error("a write did not change the catalog version")
	}
	if _, err := ts.skillList(ctx, &call{}, SkillListInput{Status: "shipped"}); err == nil {
		t.Error("bad status accepted")
	}
}

// TestOwnershipGuardKeepsStore: with an identity header the host's skill
// store is guarded, runtime_capabilities still names the real store, and
// skill_list's catalog_version still comes from the store's change token.
func TestOwnershipGuardKeepsStore(t *testing.T) {
	plain, err := newToolSet(newHost(t, Settings{}, nil))
	if err != nil {
		t.Fatal(err)
	}
	guarded, err := newToolSet(newHost(t, Settings{IdentityHeader: "X-Agent-Id"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := guarded.h.Skills().(*ownerStore); !ok {
		t.Fatalf("identity header: store %T is not guarded", guarded.h.Skills())
	}
	if _, ok := plain.h.Skills().(*ownerStore); ok {
		t.Fatal("no identity header: store guarded")
	}
	ctx := context.Background()
	a, _ := plain.runtimeCapabilities(ctx, &call{}, CapabilitiesInput{Include: []string{"skillStores"}})
	b, _ := guarded.runtimeCapabilities(ctx, &call{}, CapabilitiesInput{Include: []string{"skillStores"}})
	if a.SkillStore == nil || b.SkillStore == nil || a.SkillStore.Implementation != b.SkillStore.Implementation {
		t.Errorf("skillStores: plain %+v, guarded %+v", a.SkillStore, b.SkillStore)
	}
	c := &call{caller: "alice"}
	first, err := guarded.skillList(ctx, c, SkillListInput{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := guarded.skillWrite(ctx, c, SkillWriteInput{Name: "x", Source: "# Skill: x\n# Status: Draft\n\nhi\n"}); err != nil {
		t.Fatal(err)
	}
	second, _ := guarded.skillList(ctx, c, SkillListInput{})
	if first.CatalogVersion == second.CatalogVersion || len(second.Skills) != 1 {
		t.Errorf("catalog_version did not move after a write: %s -> %s (%d skills)", first.CatalogVersion, second.CatalogVersion, len(second.Skills))
	}
	_, err = guarded.skillWrite(ctx, &call{caller: "bob"}, SkillWriteInput{Name: "x", Source: "# Skill: x\n# Status: Draft\n\nbob\n"})
	var he *Error
	if !errors.As(err, &he) || he.Name != ErrNotOwner {
		t.Errorf("bob overwriting alice's skill in process: %v", err)
	}
}
