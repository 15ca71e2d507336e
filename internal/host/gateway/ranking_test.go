package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/classification"
	"github.com/skillscript/skillc/internal/host/registry"
)

const skillsDir = "../../../testdata/gateway/skills"

// judged is one intent of the judged ranking set with its expected
// top-3, best first.
type judged struct {
	Intent string   `json:"intent"`
	Expect []string `json:"expect"`
}

func loadJudged(t testing.TB) []judged {
	t.Helper()
	data, err := os.ReadFile("../../../testdata/gateway/intents.json")
	if err != nil {
		t.Fatal(err)
	}
	var js []judged
	if err := json.Unmarshal(data, &js); err != nil {
		t.Fatal(err)
	}
	return js
}

func newRegistry(t testing.TB, dir string) *registry.Registry {
	t.Helper()
	reg := registry.New(registry.Options{Roots: []registry.Root{{Dir: dir, Origin: "project"}}})
	reg.Refresh()
	return reg
}

// ranker returns skill names for an intent, best first.
type ranker func(intent string) []string

// metrics computes precision@1 (the top result is the judged best),
// MRR (of the judged best within the first 10) and hit@3 (share of the
// expected top-3 found in the ranker's top 3).
func metrics(js []judged, rank ranker) (p1, mrr, hit3 float64, misses []string) {
	for _, j := range js {
		got := rank(j.Intent)
		for i, name := range got {
			if i >= 10 {
				break
			}
			if name == j.Expect[0] {
				mrr += 1 / float64(i+1)
				if i == 0 {
					p1++
				}
				break
			}
		}
		if len(got) == 0 || got[0] != j.Expect[0] {
			misses = append(misses, j.Intent+" → "+strings.Join(first(got, 3), ", ")+" (want "+j.Expect[0]+")")
		}
		found := 0
		for _, e := range j.Expect {
			for _, g := range first(got, 3) {
				if g == e {
					found++
				}
			}
		}
		hit3 += float64(found) / float64(len(j.Expect))
	}
	n := float64(len(js))
	return p1 / n, mrr / n, hit3 / n, misses
}

func first(xs []string, n int) []string { return xs[:min(n, len(xs))] }

// substringRanker is the baseline: score = number of intent words (stop
// words removed) found as substrings of name, description and tags; no
// classification, no tiers.
func substringRanker(reg *registry.Registry, stop []string) ranker {
	sw := set(stop)
	return func(intent string) []string {
		type scored struct {
			name string
			n    int
		}
		var out []scored
		for _, rec := range reg.List() {
			text := strings.ToLower(rec.Name + " " + rec.Description + " " + strings.Join(rec.Tags, " "))
			n := 0
			for _, w := range words(intent) {
				if !sw[w] && strings.Contains(text, w) {
					n++
				}
			}
			if n > 0 {
				out = append(out, scored{rec.Name, n})
			}
		}
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].n != out[j].n {
				return out[i].n > out[j].n
			}
			return out[i].name < out[j].name
		})
		names := make([]string, len(out))
		for i, s := range out {
			names[i] = s.name
		}
		return names
	}
}

func gatewayRanker(t testing.TB, g *Gateway) ranker {
	return func(intent string) []string {
		resp, err := g.Discover(context.Background(), DiscoverRequest{Intent: intent, Limit: 10})
		if err != nil {
			t.Fatalf("discover %q: %v", intent, err)
		}
		names := make([]string, len(resp.Results))
		for i, r := range resp.Results {
			names[i] = r.Name
		}
		return names
	}
}

// TestJudgedRankingSet checks the set itself (at least 40 skills of both
// kinds, all classified but one, at least 30 intents whose expected
// skills exist), then computes precision@1, MRR and hit@3 for the
// gateway ranker and the substring baseline, prints them, and requires
// the ranker to beat the baseline on precision@1 and MRR.
func TestJudgedRankingSet(t *testing.T) {
	reg := newRegistry(t, skillsDir)
	recs := reg.List()
	kinds := map[registry.Kind]int{}
	classified := 0
	for _, r := range recs {
		kinds[r.Kind]++
		if r.Class != nil {
			classified++
		}
		if len(r.ClassProblems) > 0 {
			t.Errorf("%s: classification problems %v", r.ID, r.ClassProblems)
		}
	}
	if len(recs) < 40 || kinds[registry.KindPackage] < 15 || kinds[registry.KindScript] < 15 || classified < 40 {
		t.Fatalf("judged set too small: %d skills (%v), %d classified", len(recs), kinds, classified)
	}
	js := loadJudged(t)
	if len(js) < 30 {
		t.Fatalf("only %d judged intents", len(js))
	}
	for _, j := range js {
		for _, e := range j.Expect {
			if _, ok := reg.Lookup(e); !ok {
				t.Fatalf("intent %q expects unknown skill %s", j.Intent, e)
			}
		}
	}
	g := New(Options{Registry: reg})
	defer g.Close()
	p1, mrr, hit3, misses := metrics(js, gatewayRanker(t, g))
	bp1, bmrr, bhit3, _ := metrics(js, substringRanker(reg, DefaultConfig().StopWords))
	t.Logf("judged set: %d skills (%d packages, %d skillscripts), %d intents", len(recs), kinds[registry.KindPackage], kinds[registry.KindScript], len(js))
	t.Logf("gateway ranker:   precision@1 %.3f  MRR %.3f  hit@3 %.3f", p1, mrr, hit3)
	t.Logf("substring ranker: precision@1 %.3f  MRR %.3f  hit@3 %.3f", bp1, bmrr, bhit3)
	for _, m := range misses {
		t.Logf("gateway miss: %s", m)
	}
	if p1 <= bp1 || mrr <= bmrr {
		t.Errorf("the gateway ranker does not beat the substring baseline: p@1 %.3f vs %.3f, MRR %.3f vs %.3f", p1, bp1, mrr, bmrr)
	}
}

// TestDiscoverExplains checks the contract of every result: a score equal
// to the sum of its breakdown, reason codes, sidecars only on attach
// intents or role_filter=sidecar.
func TestDiscoverExplains(t *testing.T) {
	g := New(Options{Registry: newRegistry(t, skillsDir)})
	defer g.Close()
	ctx := context.Background()
	for _, j := range loadJudged(t) {
		resp, err := g.Discover(ctx, DiscoverRequest{Intent: j.Intent, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range resp.Results {
			b := r.ScoreBreakdown
			if sum := round(b.Lexical + b.Name + b.Role + b.Status + b.Tag + b.ReadOnly); sum-r.Score > 0.0002 || r.Score-sum > 0.0002 {
				t.Errorf("%q: %s score %v is not the sum of %+v", j.Intent, r.Name, r.Score, b)
			}
			if len(r.ReasonCodes) == 0 || r.ReasonCodes[0] != CodeLexical || r.Reason == "" {
				t.Errorf("%q: %s has no explanation: %v %q", j.Intent, r.Name, r.ReasonCodes, r.Reason)
			}
			if r.Role == classification.RoleSidecar && !resp.AttachIntent {
				t.Errorf("%q: sidecar %s recommended without an attach intent", j.Intent, r.Name)
			}
		}
	}
	resp, err := g.Discover(ctx, DiscoverRequest{Intent: "audit the run transcript for unapproved mutations", RoleFilter: "sidecar"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) == 0 || resp.Results[0].Name != "run-auditor" {
		t.Fatalf("role_filter=sidecar: %+v", resp.Results)
	}
	for _, r := range resp.Results {
		if r.Role != classification.RoleSidecar || !contains(r.ReasonCodes, CodeRoleRequested) {
			t.Errorf("role_filter=sidecar returned %s (%s, %v)", r.Name, r.Role, r.ReasonCodes)
		}
	}
	// without the filter and without an attach word, no sidecar at all
	resp, err = g.Discover(ctx, DiscoverRequest{Intent: "check the run for policy violations"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resp.Results {
		if r.Role == classification.RoleSidecar {
			t.Errorf("sidecar %s returned for a direct intent", r.Name)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestDiscoverTiers checks each tier on a controlled catalog: two skills
// with identical text that differ in one property each.
func TestDiscoverTiers(t *testing.T) {
	dir := t.TempDir()
	write := func(name, extra string) {
		src := "# Skill: " + name + "\n# Description: Summarize the sales pipeline for a region.\n" + extra + "# Timeout: 30\n\nmain:\n    emit(text=\"x\")\n\ndefault: main\n"
		if err := os.WriteFile(filepath.Join(dir, name+".skill.md"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("pipeline-a", "# Classification: role=utility invocation=direct effect_mode=read_only\n# Status: Approved\n")
	write("pipeline-b", "# Classification: role=procedure invocation=direct effect_mode=read_only\n# Status: Draft\n")
	write("pipeline-c", "# Classification: role=procedure invocation=direct effect_mode=enrich\n# Status: Approved\n")
	write("pipeline-d", "# Classification: role=procedure invocation=direct effect_mode=read_only\n# Status: Approved\n# Tags: forecast\n")
	write("pipeline-e", "# Classification: role=procedure invocation=direct effect_mode=read_only\n# Status: Approved\n# Tags: forecasting-tools\n")
	g := New(Options{Registry: newRegistry(t, dir)})
	defer g.Close()
	rank := func(req DiscoverRequest) map[string]DiscoverResult {
		resp, err := g.Discover(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]DiscoverResult{}
		for _, r := range resp.Results {
			out[r.Name] = r
		}
		return out
	}
	r := rank(DiscoverRequest{Intent: "summarize the sales pipeline forecast"})
	if !(r["pipeline-b"].ScoreBreakdown.Role > r["pipeline-a"].ScoreBreakdown.Role) {
		t.Errorf("procedure should outrank utility: %+v vs %+v", r["pipeline-b"], r["pipeline-a"])
	}
	if !(r["pipeline-c"].ScoreBreakdown.Status > r["pipeline-b"].ScoreBreakdown.Status) {
		t.Errorf("Approved should outrank Draft")
	}
	if !(r["pipeline-d"].ScoreBreakdown.Tag > r["pipeline-e"].ScoreBreakdown.Tag && r["pipeline-e"].ScoreBreakdown.Tag > 0) {
		t.Errorf("exact tag should outrank partial tag: %+v vs %+v", r["pipeline-d"].ScoreBreakdown, r["pipeline-e"].ScoreBreakdown)
	}
	if !(r["pipeline-d"].ScoreBreakdown.ReadOnly > 0 && r["pipeline-c"].ScoreBreakdown.ReadOnly == 0) {
		t.Errorf("read-only intent should prefer read_only skills")
	}
	// an explicit utility request lifts utilities to the procedure bonus
	r = rank(DiscoverRequest{Intent: "summarize the sales pipeline", RoleFilter: "utility"})
	w := g.Config().Weights
	if len(r) != 1 || r["pipeline-a"].ScoreBreakdown.Role != round(w.TierWindow*w.RoleProcedure/(w.RoleProcedure+w.StatusStable+w.ReadOnly)) {
		t.Errorf("role_filter=utility: %+v", r)
	}
	// a mutating intent gives no read-only bonus
	r = rank(DiscoverRequest{Intent: "update the sales pipeline"})
	if r["pipeline-d"].ScoreBreakdown.ReadOnly != 0 {
		t.Errorf("mutating intent got a read-only bonus")
	}
}

// TestDiscoverUnwired leaves out skills whose connectors are not wired,
// or flags them with include_unavailable.
func TestDiscoverUnwired(t *testing.T) {
	reg := newRegistry(t, skillsDir)
	if rec, _ := reg.Lookup("email-sender"); len(rec.Requires) != 1 || rec.Requires[0] != "mail" {
		t.Fatalf("email-sender requires %v, want [mail]", rec.Requires)
	}
	g := New(Options{Registry: reg, Wired: func(c string) bool { return c != "mail" }})
	defer g.Close()
	ctx := context.Background()
	resp, err := g.Discover(ctx, DiscoverRequest{Intent: "send an email to the customer"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resp.Results {
		if r.Name == "email-sender" {
			t.Fatalf("unwired email-sender recommended: %+v", r)
		}
	}
	resp, err = g.Discover(ctx, DiscoverRequest{Intent: "send an email to the customer", IncludeUnavailable: true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range resp.Results {
		if r.Name == "email-sender" {
			found = true
			if len(r.Unavailable) != 1 || r.Unavailable[0] != "mail" || !contains(r.ReasonCodes, CodeUnavailable) || !strings.Contains(r.Reason, "needs unwired connectors mail") {
				t.Errorf("flagged result: %+v", r)
			}
		}
	}
	if !found {
		t.Errorf("include_unavailable did not keep email-sender")
	}
}

// TestDiscoverDomain keeps skills whose metadata domain or a tag is asked
// for; blank domains filter nothing.
func TestDiscoverDomain(t *testing.T) {
	g := New(Options{Registry: newRegistry(t, skillsDir)})
	defer g.Close()
	ctx := context.Background()
	resp, err := g.Discover(ctx, DiscoverRequest{Intent: "summarize the report", Domain: []string{"Finance"}})
	if err != nil || len(resp.Results) == 0 {
		t.Fatalf("%+v %v", resp, err)
	}
	for _, r := range resp.Results {
		if !strings.Contains(r.SkillID, "expense") && !strings.Contains(r.SkillID, "budget") && !strings.Contains(r.SkillID, "invoice") && !strings.Contains(r.SkillID, "currency") {
			t.Errorf("domain finance let %s through", r.SkillID)
		}
	}
	all, _ := g.Discover(ctx, DiscoverRequest{Intent: "summarize the report"})
	blank, _ := g.Discover(ctx, DiscoverRequest{Intent: "summarize the report", Domain: []string{" "}})
	if len(blank.Results) != len(all.Results) {
		t.Errorf("a blank domain filtered: %d vs %d", len(blank.Results), len(all.Results))
	}
}

// TestListPages walks every page of a filtered list: stable order, no
// duplicates, totals consistent.
func TestListPages(t *testing.T) {
	g := New(Options{Registry: newRegistry(t, skillsDir)})
	defer g.Close()
	ctx := context.Background()
	var ids []string
	req := ListRequest{Status: "approved", Limit: 4}
	total := -1
	for {
		page, err := g.List(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if total >= 0 && page.Total != total {
			t.Fatalf("total changed between pages")
		}
		total = page.Total
		for _, s := range page.Skills {
			if !strings.EqualFold(s.Status, "approved") {
				t.Errorf("status filter let %s (%s) through", s.SkillID, s.Status)
			}
			ids = append(ids, s.SkillID)
		}
		if page.NextOffset == 0 {
			break
		}
		req.Offset = page.NextOffset
	}
	if len(ids) != total || total < 15 || !sort.StringsAreSorted(ids) {
		t.Errorf("pages: %d ids of %d, sorted %v", len(ids), total, sort.StringsAreSorted(ids))
	}
	page, err := g.List(ctx, ListRequest{Offset: 1000})
	if err != nil || len(page.Skills) != 0 || page.NextOffset != 0 {
		t.Errorf("offset past the end: %+v %v", page, err)
	}
}

// TestConcurrentDiscoverDuringRefresh discovers and lists from several
// goroutines while the registry changes under them (run with -race).
func TestConcurrentDiscoverDuringRefresh(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, skillsDir, dir)
	reg := newRegistry(t, dir)
	g := New(Options{Registry: reg})
	defer g.Close()
	ctx := context.Background()
	done := make(chan struct{})
	errs := make(chan error, 8)
	for w := 0; w < 4; w++ {
		go func() {
			for {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				if _, err := g.Discover(ctx, DiscoverRequest{Intent: "summarize the incident"}); err != nil {
					errs <- err
					return
				}
				if _, err := g.List(ctx, ListRequest{Role: "procedure"}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := 0; i < 20; i++ {
		src := fmt.Sprintf("# Skill: incident-extra-%d\n# Description: Summarize incident number %d.\n# Classification: role=utility invocation=direct effect_mode=read_only\n# Timeout: 30\n\nmain:\n    emit(text=\"x\")\n\ndefault: main\n", i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("incident-extra-%d.skill.md", i)), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		reg.Refresh()
	}
	close(done)
	for w := 0; w < 4; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	resp, err := g.List(ctx, ListRequest{Limit: 100})
	if err != nil || resp.Total != 68 {
		t.Fatalf("after the refreshes: %d skills, %v", resp.Total, err)
	}
}

// stripClassification copies the judged skills into a temporary root,
// removing the classification of every other skill (by file name): a
// catalog half of whose publishers never classified anything.
func stripClassification(t testing.TB) string {
	t.Helper()
	dst := t.TempDir()
	i := 0
	err := filepath.WalkDir(skillsDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(skillsDir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".skill.md") || filepath.Base(p) == "SKILL.md" {
			if i%2 == 1 {
				var keep []string
				for _, l := range strings.Split(string(data), "\n") {
					t := strings.TrimSpace(l)
					if strings.HasPrefix(t, "classification.") || strings.HasPrefix(t, "# Classification:") {
						continue
					}
					keep = append(keep, l)
				}
				data = []byte(strings.Join(keep, "\n"))
			}
			i++
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// textScore is a result's text relevance: the terms the tiers do not
// touch.
func textScore(r DiscoverResult) float64 {
	b := r.ScoreBreakdown
	return b.Lexical + b.Name + b.Tag
}

// TestTiersNeverBeatClearTextMatch ranks every judged intent over the
// judged catalog and over the half-unclassified copy, and checks the
// bound: a result whose text score is more than tier_window below
// another's never ranks above it. It logs the judged-set figures for the
// half-unclassified catalog next to the substring baseline and requires
// the gateway to stay ahead of it there too.
func TestTiersNeverBeatClearTextMatch(t *testing.T) {
	js := loadJudged(t)
	for _, c := range []struct {
		name string
		dir  string
	}{{"classified", skillsDir}, {"half-unclassified", stripClassification(t)}} {
		reg := newRegistry(t, c.dir)
		g := New(Options{Registry: reg})
		window := g.Config().Weights.TierWindow
		for _, j := range js {
			resp, err := g.Discover(context.Background(), DiscoverRequest{Intent: j.Intent, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			for a, ra := range resp.Results {
				for _, rb := range resp.Results[a+1:] {
					if textScore(rb)-textScore(ra) > window+1e-9 {
						t.Errorf("%s: %q: %s (text %.3f, tiers %+v) ranks above %s (text %.3f)", c.name, j.Intent,
							ra.Name, textScore(ra), ra.ScoreBreakdown, rb.Name, textScore(rb))
					}
				}
			}
		}
		p1, mrr, hit3, misses := metrics(js, gatewayRanker(t, g))
		bp1, bmrr, bhit3, _ := metrics(js, substringRanker(reg, DefaultConfig().StopWords))
		t.Logf("%s catalog: gateway precision@1 %.3f MRR %.3f hit@3 %.3f; substring precision@1 %.3f MRR %.3f hit@3 %.3f",
			c.name, p1, mrr, hit3, bp1, bmrr, bhit3)
		for _, m := range misses {
			t.Logf("%s miss: %s", c.name, m)
		}
		if p1 < bp1 || mrr < bmrr {
			t.Errorf("%s: the gateway falls behind the substring baseline: p@1 %.3f vs %.3f, MRR %.3f vs %.3f", c.name, p1, bp1, mrr, bmrr)
		}
		g.Close()
	}
}
