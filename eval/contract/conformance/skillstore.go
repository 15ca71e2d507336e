package conformance

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval/contract"
)

// TestSkillStore runs the SkillStore conformance suite, including the
// Versioner invariants when the store implements contract.Versioner.
func TestSkillStore(t *testing.T, newStore func(t *testing.T) contract.SkillStore) {
	tests := []struct {
		name string
		fn   func(*testing.T, contract.SkillStore)
	}{
		{"GetMissIsNil", ssGetMiss},
		{"WriteRecordsHashVersionAuthor", ssWrite},
		{"RewriteAddsVersion", ssVersions},
		{"ListFilters", ssList},
		{"UpdateStatus", ssUpdateStatus},
		{"DeleteFreesName", ssDelete},
		{"RejectsMismatchedName", ssMismatch},
		{"CatalogVersionToken", ssVersionToken},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore(t)) })
	}
}

func skillBody(name, status, extra string) string {
	return "# Skill: " + name + "\n# Status: " + status + "\n# Description: test " + name + "\n\nrun:\n    emit(text=\"" + extra + "\")\n\ndefault: run\n"
}

func mustSkill(t *testing.T, s contract.SkillStore, name, body, author string) *contract.SkillRecord {
	t.Helper()
	r, err := s.Write(context.Background(), name, body, author)
	if err != nil {
		t.Fatalf("Write(%s): %v", name, err)
	}
	if r == nil {
		t.Fatalf("Write(%s) returned nil", name)
	}
	return r
}

func ssGetMiss(t *testing.T, s contract.SkillStore) {
	r, err := s.Get(context.Background(), "no-such-skill")
	if r != nil || err != nil {
		t.Errorf("Get(miss) = %v, %v; want nil, nil", r, err)
	}
}

func ssWrite(t *testing.T, s contract.SkillStore) {
	body := skillBody("alpha", "approved", "hi")
	r := mustSkill(t, s, "alpha", body, "alice")
	got, err := s.Get(context.Background(), "alpha")
	if err != nil || got == nil {
		t.Fatalf("Get = %v, %v", got, err)
	}
	hash := contract.ContentHash(body)
	if got.Body != body || got.ContentHash != hash || got.Version != hash[:12] || r.Version != hash[:12] {
		t.Errorf("hash/version/body mismatch: %+v", got)
	}
	if got.Status != contract.StatusApproved || got.Author != "alice" || got.Description != "test alpha" {
		t.Errorf("derived fields = status %q author %q description %q", got.Status, got.Author, got.Description)
	}
	noStatus := mustSkill(t, s, "beta", "# Skill: beta\nrun:\n    emit(text=\"x\")\n", "")
	if noStatus.Status != contract.StatusDraft {
		t.Errorf("missing # Status: should read as Draft, got %q", noStatus.Status)
	}
}

func ssVersions(t *testing.T, s contract.SkillStore) {
	ctx := context.Background()
	v1 := mustSkill(t, s, "gamma", skillBody("gamma", "Draft", "one"), "alice")
	mustSkill(t, s, "gamma", skillBody("gamma", "Draft", "one"), "alice") // identical: no new version
	v2 := mustSkill(t, s, "gamma", skillBody("gamma", "Draft", "two"), "bob")
	vs, err := s.Versions(ctx, "gamma")
	if err != nil || len(vs) != 2 {
		t.Fatalf("Versions = %+v, %v; want 2", vs, err)
	}
	if vs[0].Version != v1.Version || vs[1].Version != v2.Version || vs[1].Author != "bob" {
		t.Errorf("history = %+v", vs)
	}
	if none, err := s.Versions(ctx, "nope"); err != nil || len(none) != 0 {
		t.Errorf("Versions(unknown) = %v, %v", none, err)
	}
}

func ssList(t *testing.T, s contract.SkillStore) {
	mustSkill(t, s, "a1", skillBody("a1", "Approved", ""), "alice")
	mustSkill(t, s, "a2", skillBody("a2", "Draft", ""), "alice")
	mustSkill(t, s, "b1", skillBody("b1", "Approved", ""), "bob")
	check := func(q contract.SkillQuery, want string) {
		t.Helper()
		ms, err := s.List(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, m := range ms {
			names = append(names, m.Name)
		}
		if got := strings.Join(names, ","); got != want {
			t.Errorf("List(%+v) = %s, want %s", q, got, want)
		}
	}
	check(contract.SkillQuery{}, "a1,a2,b1")
	check(contract.SkillQuery{Status: "approved"}, "a1,b1")
	check(contract.SkillQuery{Author: "alice"}, "a1,a2")
	check(contract.SkillQuery{Status: "Approved", Author: "alice"}, "a1")
	check(contract.SkillQuery{Author: "carol"}, "")
}

func ssUpdateStatus(t *testing.T, s contract.SkillStore) {
	ctx := context.Background()
	before := mustSkill(t, s, "delta", skillBody("delta", "Draft", ""), "alice")
	if err := s.UpdateStatus(ctx, "delta", "disabled"); err != nil {
		t.Fatal(err)
	}
	after, err := s.Get(ctx, "delta")
	if err != nil || after == nil {
		t.Fatal(err)
	}
	if after.Status != contract.StatusDisabled || !strings.Contains(after.Body, "# Status: Disabled") || after.ContentHash == before.ContentHash {
		t.Errorf("after UpdateStatus: status %q hash changed %v body %q", after.Status, after.ContentHash != before.ContentHash, after.Body)
	}
	if after.Author != "alice" {
		t.Errorf("UpdateStatus lost the author: %q", after.Author)
	}
	var nf *contract.SkillNotFoundError
	if err := s.UpdateStatus(ctx, "nope", "Draft"); !errors.As(err, &nf) {
		t.Errorf("UpdateStatus(unknown) = %v", err)
	}
	if err := s.UpdateStatus(ctx, "delta", "Shipped"); err == nil {
		t.Error("UpdateStatus accepted an invalid status")
	}
}

func ssDelete(t *testing.T, s contract.SkillStore) {
	ctx := context.Background()
	mustSkill(t, s, "eps", skillBody("eps", "Draft", "1"), "")
	mustSkill(t, s, "eps", skillBody("eps", "Draft", "2"), "")
	if err := s.Delete(ctx, "eps"); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Get(ctx, "eps"); r != nil || err != nil {
		t.Errorf("Get after delete = %v, %v", r, err)
	}
	if vs, _ := s.Versions(ctx, "eps"); len(vs) != 0 {
		t.Errorf("history survived delete: %+v", vs)
	}
	if ms, _ := s.List(ctx, contract.SkillQuery{}); len(ms) != 0 {
		t.Errorf("List after delete = %+v", ms)
	}
	mustSkill(t, s, "eps", skillBody("eps", "Draft", "3"), "")
	if vs, _ := s.Versions(ctx, "eps"); len(vs) != 1 {
		t.Errorf("recreated skill should have a clean history, got %d versions", len(vs))
	}
	var nf *contract.SkillNotFoundError
	if err := s.Delete(ctx, "never"); !errors.As(err, &nf) {
		t.Errorf("Delete(unknown) = %v", err)
	}
}

func ssMismatch(t *testing.T, s contract.SkillStore) {
	if _, err := s.Write(context.Background(), "zeta", skillBody("other", "Draft", ""), ""); err == nil {
		t.Error("Write accepted a body whose # Skill: names another skill")
	}
	if _, err := s.Write(context.Background(), "../escape", "# Status: Draft\n", ""); err == nil {
		t.Error("Write accepted a path-like name")
	}
}

func ssVersionToken(t *testing.T, s contract.SkillStore) {
	v, ok := s.(contract.Versioner)
	if !ok {
		t.Skip("store does not implement contract.Versioner")
	}
	ctx := context.Background()
	tok := func() string {
		t.Helper()
		x, err := v.Version(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	seen := map[string]string{}
	step := func(what string, fn func() error) {
		t.Helper()
		if err := fn(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		x := tok()
		if prev, dup := seen[x]; dup {
			t.Errorf("token after %q equals the token after %q", what, prev)
		}
		seen[x] = what
	}
	step("start", func() error { return nil })
	if again := tok(); seen[again] != "start" {
		t.Error("token changed without any change")
	}
	write := func(name, extra string) func() error {
		return func() error { _, err := s.Write(ctx, name, skillBody(name, "Draft", extra), ""); return err }
	}
	step("add", write("eta", "one"))
	step("second add", write("theta", "one"))
	step("body edit, same status", write("eta", "two"))
	step("same-size body edit", write("eta", "thr"))
	step("status change", func() error { return s.UpdateStatus(ctx, "eta", "Approved") })
	step("remove", func() error { return s.Delete(ctx, "theta") })
}
