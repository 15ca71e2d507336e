package gateway

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/host/registry"
)

// benchVocabulary is the word pool the generated skills draw from.
var benchVocabulary = []string{"incident", "deploy", "invoice", "ticket", "lead", "report", "summary", "logs", "metrics", "release",
	"budget", "expense", "contract", "renewal", "onboarding", "schema", "query", "warehouse", "pipeline", "review",
	"audit", "policy", "customer", "email", "calendar", "interview", "forecast", "churn", "dependency", "security"}

// benchRegistry writes n skills (half packages, half skillscripts, every
// fifth a sidecar) under a temp dir and indexes them.
func benchRegistry(b *testing.B, n int) *registry.Registry {
	return benchRegistryOf(b, n, benchVocabulary)
}

// sparseVocabulary is benchVocabulary plus 970 made-up topic words: a
// catalog where one intent word matches tens of skills, not thousands.
func sparseVocabulary() []string {
	out := append([]string(nil), benchVocabulary...)
	for i := len(out); i < 1000; i++ {
		out = append(out, fmt.Sprintf("topic%c%c%c", 'a'+i%26, 'a'+i/26%26, 'a'+i/676%26))
	}
	return out
}

func benchRegistryOf(b *testing.B, n int, benchVocabulary []string) *registry.Registry {
	b.Helper()
	dir := b.TempDir()
	roles := []string{"procedure", "utility", "procedure", "utility", "sidecar"}
	for i := 0; i < n; i++ {
		w := func(k int) string { return benchVocabulary[(i*7+k*13)%len(benchVocabulary)] }
		role := roles[i%len(roles)]
		inv, targets := "direct", ""
		if role == "sidecar" {
			inv, targets = "attach", "run"
		}
		desc := fmt.Sprintf("Handles %s %s for the %s team and writes a %s.", w(0), w(1), w(2), w(3))
		name := fmt.Sprintf("%s-%s-%d", w(0), w(1), i)
		if i%2 == 0 {
			cls := "role=" + role + " invocation=" + inv + " effect_mode=read_only"
			vars := "INPUT=\"\""
			if targets != "" {
				cls += " attach_targets=" + targets
				vars = "TARGET"
			}
			src := fmt.Sprintf("# Skill: %s\n# Description: %s\n# Status: Approved\n# Tags: %s, %s\n# Classification: %s\n# Vars: %s\n# Timeout: 30\n\nmain:\n    emit(text=\"x\")\n\ndefault: main\n", name, desc, w(0), w(4), cls, vars)
			if err := os.WriteFile(filepath.Join(dir, name+".skill.md"), []byte(src), 0o644); err != nil {
				b.Fatal(err)
			}
			continue
		}
		meta := fmt.Sprintf("  status: stable\n  tags: %s %s\n  domain: %s\n  classification.role: %s\n  classification.invocation: %s\n  classification.effect_mode: read_only\n", w(0), w(4), w(5), role, inv)
		if targets != "" {
			meta += "  classification.attach_targets: " + targets + "\n"
		}
		md := fmt.Sprintf("---\nname: %s\ndescription: %q\nmetadata:\n%s---\n# %s\n\n## %s steps\n\nDo it.\n", name, desc, meta, name, w(6))
		pd := filepath.Join(dir, name)
		os.MkdirAll(pd, 0o755)
		if err := os.WriteFile(filepath.Join(pd, "SKILL.md"), []byte(md), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	reg := registry.New(registry.Options{Roots: []registry.Root{{Dir: dir, Origin: "project"}}, MaxDirs: n + 10})
	reg.Refresh()
	if got := len(reg.List()); got != n {
		b.Fatalf("indexed %d of %d skills", got, n)
	}
	return reg
}

var benchIntents = []string{
	"summarize the incident logs for the security team",
	"forecast churn at contract renewal",
	"review the deploy pipeline release",
	"attach an audit to the policy run",
	"find the customer email about the invoice",
	"which warehouse query reports the budget expense",
}

// BenchmarkDiscover10k ranks intents over 10,000 skills (index built
// before the timer) and reports p50 and p99 latency in ms.
func BenchmarkDiscover10k(b *testing.B) {
	g := New(Options{Registry: benchRegistry(b, 10000)})
	defer g.Close()
	ctx := context.Background()
	if _, err := g.Discover(ctx, DiscoverRequest{Intent: "warm up the index"}); err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		resp, err := g.Discover(ctx, DiscoverRequest{Intent: benchIntents[i%len(benchIntents)], Limit: 10})
		lat = append(lat, time.Since(start))
		if err != nil || len(resp.Results) == 0 {
			b.Fatalf("discover: %v %v", resp, err)
		}
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

// BenchmarkDiscover10kSparse is BenchmarkDiscover10k over a 1,000-word
// vocabulary: intents match a few hundred skills instead of most of them.
func BenchmarkDiscover10kSparse(b *testing.B) {
	vocab := sparseVocabulary()
	g := New(Options{Registry: benchRegistryOf(b, 10000, vocab)})
	defer g.Close()
	ctx := context.Background()
	intents := make([]string, 50)
	for i := range intents {
		intents[i] = fmt.Sprintf("find the %s %s for the %s", vocab[(i*37)%len(vocab)], vocab[(i*101+7)%len(vocab)], vocab[(i*53+11)%len(vocab)])
	}
	if _, err := g.Discover(ctx, DiscoverRequest{Intent: "warm up the index"}); err != nil {
		b.Fatal(err)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		resp, err := g.Discover(ctx, DiscoverRequest{Intent: intents[i%len(intents)], Limit: 10})
		lat = append(lat, time.Since(start))
		if err != nil || len(resp.Results) == 0 {
			b.Fatalf("discover: %v %v", resp, err)
		}
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

// BenchmarkIndexBuild10k measures building the BM25F index of 10,000
// skills (what the first discover after a registry change pays).
func BenchmarkIndexBuild10k(b *testing.B) {
	reg := benchRegistry(b, 10000)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ix, err := buildIndex(ctx, reg.List(), 1, DefaultConfig().Weights, analyze)
		if err != nil {
			b.Fatal(err)
		}
		ix.close()
	}
}

// BenchmarkList10k lists with filters (role + status + domain, one page)
// over 10,000 skills.
func BenchmarkList10k(b *testing.B) {
	reg := benchRegistry(b, 10000)
	g := New(Options{Registry: reg})
	defer g.Close()
	ctx := context.Background()
	domain := ""
	for _, r := range reg.List() {
		if r.Class != nil && r.Class.Role == "sidecar" && r.Domain != "" {
			domain = r.Domain
			break
		}
	}
	reqs := []ListRequest{
		{Role: "procedure", Status: "stable", Limit: 50},
		{Role: "sidecar", Domain: domain, Limit: 20},
		{Kind: "skillscript", Offset: 4000, Limit: 100},
	}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		resp, err := g.List(ctx, reqs[i%len(reqs)])
		lat = append(lat, time.Since(start))
		if err != nil || len(resp.Skills) == 0 {
			b.Fatalf("list: %v %v", resp, err)
		}
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

func reportPercentiles(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	at := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

// catalogTree writes n packages under a temporary root — the catalog
// judged set's packages, copied round-robin under numbered names — and
// returns their registry and its options.
func catalogTree(b *testing.B, n int) (*registry.Registry, registry.Options) {
	b.Helper()
	ents, err := os.ReadDir(catalogDir)
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	for i := range n {
		src := ents[i%len(ents)].Name()
		data, err := os.ReadFile(filepath.Join(catalogDir, src, "SKILL.md"))
		if err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("%s-%04d", src, i)
		data = []byte(strings.Replace(string(data), "name: "+src+"\n", "name: "+name+"\n", 1))
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name, "SKILL.md"), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	opts := registry.Options{Roots: []registry.Root{{Dir: root, Origin: "project"}}, MaxDirs: n + 10}
	reg := registry.New(opts)
	reg.Refresh()
	if got := len(reg.List()); got != n {
		b.Fatalf("%d skills indexed, want %d", got, n)
	}
	return reg, opts
}

// BenchmarkDiscoverCatalog ranks the catalog judged set's intents over
// 50 and 5,000 real-shaped packages: warm is one discover on a built
// index, cold builds the index first (a process without the persisted
// index), persisted loads it from the index file first, and
// second-process is all a second skills discover does in process: a new
// registry over its cache file (scan, stat, load), a new gateway over
// its index file, one discover.
func BenchmarkDiscoverCatalog(b *testing.B) {
	var intents []string
	for _, j := range loadCatalogJudged(b) {
		intents = append(intents, j.Intent)
	}
	benchDiscover(b, catalogTree, intents)
}

// BenchmarkDiscoverRealCatalog is BenchmarkDiscoverCatalog over the real
// packages of testdata/gateway/real (realTree: the 127 public packages,
// then renamed copies with a varied description up to 5,000), ranking
// the real judged set's intents.
func BenchmarkDiscoverRealCatalog(b *testing.B) {
	var intents []string
	for _, j := range loadRealJudged(b) {
		intents = append(intents, j.Intent)
	}
	benchDiscover(b, realTree, intents)
}

// benchDiscover runs the warm, cold, persisted and second-process cases
// at 50 and 5,000 skills of the trees tree writes.
func benchDiscover(b *testing.B, tree func(*testing.B, int) (*registry.Registry, registry.Options), intents []string) {
	for _, n := range []int{50, 5000} {
		reg, opts := tree(b, n)
		ctx := context.Background()
		b.Run(fmt.Sprintf("skills=%d/warm", n), func(b *testing.B) {
			g := New(Options{Registry: reg})
			defer g.Close()
			if _, err := g.Discover(ctx, DiscoverRequest{Intent: "build the index"}); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if _, err := g.Discover(ctx, DiscoverRequest{Intent: intents[i%len(intents)]}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("skills=%d/cold", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				g := New(Options{Registry: reg})
				if _, err := g.Discover(ctx, DiscoverRequest{Intent: intents[i%len(intents)]}); err != nil {
					b.Fatal(err)
				}
				g.Close()
			}
		})
		file := filepath.Join(b.TempDir(), "gateway.idx")
		New(Options{Registry: reg, IndexCache: file}).Discover(ctx, DiscoverRequest{Intent: "warm up"})
		b.Run(fmt.Sprintf("skills=%d/persisted", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				g := New(Options{Registry: reg, IndexCache: file})
				if _, err := g.Discover(ctx, DiscoverRequest{Intent: intents[i%len(intents)]}); err != nil {
					b.Fatal(err)
				}
				g.Close()
			}
		})
		cacheDir := b.TempDir()
		opts.CacheFile = filepath.Join(cacheDir, "registry.cache")
		registry.New(opts).Refresh()
		second := filepath.Join(cacheDir, "gateway.idx")
		New(Options{Registry: reg, IndexCache: second}).Discover(ctx, DiscoverRequest{Intent: "warm up"})
		b.Run(fmt.Sprintf("skills=%d/second-process", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				r := registry.New(opts)
				r.Refresh()
				g := New(Options{Registry: r, IndexCache: second})
				if _, err := g.Discover(ctx, DiscoverRequest{Intent: intents[i%len(intents)]}); err != nil {
					b.Fatal(err)
				}
				g.Close()
			}
		})
	}
}

// realTreeOut, when set, is where realTree writes its catalogs (DIR/N/
// .agents/skills, kept after the run) instead of a temporary directory:
// the trees the whole-process measurement of docs/benchmarks.md runs
// skillc skills discover over.
var realTreeOut = flag.String("real-tree-out", "", "write BenchmarkDiscoverRealCatalog's catalogs under this directory (DIR/N/.agents/skills) and keep them")

// teamWords vary the copies' descriptions.
var teamWords = []string{"platform", "growth", "payments", "mobile", "research", "support", "design", "data", "security", "infra",
	"marketing", "sales", "finance", "legal", "ops", "search", "ads", "media", "health", "edu"}

// realTree writes n packages: the real ones of testdata/gateway/real in
// directory order (bytes unchanged), then copies of them round-robin,
// copy k of a package renamed NAME-cK (directory and frontmatter name)
// with a sentence naming a team added at the start of its description
// (plain, quoted and folded descriptions alike). Packages that do not
// load (one real package has invalid YAML) stay out of the count.
func realTree(b *testing.B, n int) (*registry.Registry, registry.Options) {
	b.Helper()
	ents, err := os.ReadDir(realSkillsDir)
	if err != nil {
		b.Fatal(err)
	}
	root := b.TempDir()
	if *realTreeOut != "" {
		root = filepath.Join(*realTreeOut, fmt.Sprint(n), ".agents", "skills")
	}
	for i := range n {
		src := ents[i%len(ents)].Name()
		data, err := os.ReadFile(filepath.Join(realSkillsDir, src, "SKILL.md"))
		if err != nil {
			b.Fatal(err)
		}
		dir := src
		if k := i / len(ents); k > 0 {
			dir = fmt.Sprintf("%s-c%d", src, k)
			data = []byte(varyPackage(string(data), fmt.Sprintf("-c%d", k), "For the "+teamWords[(i+k)%len(teamWords)]+" team."))
		}
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, dir, "SKILL.md"), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	opts := registry.Options{Roots: []registry.Root{{Dir: root, Origin: "project"}}, MaxDirs: n + 10}
	reg := registry.New(opts)
	reg.Refresh()
	loadable := 0
	for _, r := range reg.All() {
		if r.Loadable {
			loadable++
		}
	}
	if got := len(reg.List()); got != loadable || len(reg.All()) != n || loadable < n*120/127 {
		b.Fatalf("%d skills visible, %d loadable of %d written", got, loadable, n)
	}
	return reg, opts
}

// varyPackage appends suffix to the frontmatter name of a SKILL.md and
// puts sentence at the start of its description, keeping the line
// endings.
func varyPackage(md, suffix, sentence string) string {
	lines := strings.SplitAfter(md, "\n")
	named, described := false, false
	for i, l := range lines {
		body := strings.TrimRight(l, "\r\n")
		eol := l[len(body):]
		switch {
		case !named && strings.HasPrefix(body, "name:"):
			v := strings.Trim(strings.TrimSpace(strings.TrimPrefix(body, "name:")), `"'`)
			lines[i] = "name: " + v + suffix + eol
			named = true
		case !described && strings.HasPrefix(body, "description:"):
			v := strings.TrimSpace(strings.TrimPrefix(body, "description:"))
			switch {
			case strings.HasPrefix(v, `"`) || strings.HasPrefix(v, "'"):
				lines[i] = "description: " + v[:1] + sentence + " " + v[1:] + eol
			case strings.HasPrefix(v, ">") || strings.HasPrefix(v, "|"):
				if i+1 < len(lines) {
					next := lines[i+1]
					indent := next[:len(next)-len(strings.TrimLeft(next, " "))]
					lines[i] += indent + sentence + eol
				}
			default:
				lines[i] = "description: " + sentence + " " + v + eol
			}
			described = true
		}
	}
	return strings.Join(lines, "")
}
