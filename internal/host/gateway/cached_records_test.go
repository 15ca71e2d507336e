package gateway

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/skillscript/skillc/internal/host/registry"
)

// TestDiscoverFromCachedRecords ranks the real judged set's intents over
// the 127 real packages twice, each gateway building its index from its
// registry's records: once from records parsed from the packages, once
// from records a second registry loaded from the first one's cache file
// (frontmatter, headings, body and source are read on demand there:
// decisions RS1, DS2). The rankings must be the same — a reader of a
// record's fields that skips Record.FrontmatterMap, HeadingTexts or Text
// would see nothing in the cached records and rank differently.
func TestDiscoverFromCachedRecords(t *testing.T) {
	root, err := filepath.Abs(realSkillsDir)
	if err != nil {
		t.Fatal(err)
	}
	opts := registry.Options{Roots: []registry.Root{{Dir: root, Origin: registry.OriginProject}}, CacheFile: filepath.Join(t.TempDir(), "registry.cache")}
	parsed := registry.New(opts)
	parsed.Refresh()
	cached := registry.New(opts)
	cached.Refresh()
	ctx := context.Background()
	a, b := New(Options{Registry: parsed}), New(Options{Registry: cached})
	defer a.Close()
	defer b.Close()
	for _, j := range loadRealJudged(t) {
		want, err := a.Discover(ctx, DiscoverRequest{Intent: j.Intent})
		if err != nil {
			t.Fatal(err)
		}
		got, err := b.Discover(ctx, DiscoverRequest{Intent: j.Intent})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: ranking from cached records differs:\n%+v\nfrom parsed records:\n%+v", j.Intent, got.Results, want.Results)
		}
	}
}
