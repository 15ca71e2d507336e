package toolcache

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

func TestStoreLoadFreshness(t *testing.T) {
	now := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	c := Cache{Dir: t.TempDir(), TTL: time.Hour, Now: func() time.Time { return now }}
	key := Key("gh", "http", "https://x")
	if key != Key("gh", "http", "https://x") || key == Key("gh", "http", "https://y") {
		t.Fatalf("keys are not stable per identity: %s", key)
	}
	if _, _, ok := c.Load(key); ok {
		t.Fatal("empty cache has an entry")
	}
	if err := c.Store(key, "gh", []contract.Tool{{Name: "search"}}); err != nil {
		t.Fatal(err)
	}
	if tools, fresh, ok := c.Load(key); !ok || !fresh || len(tools) != 1 || tools[0].Name != "search" {
		t.Fatalf("Load = %v %v %v", tools, fresh, ok)
	}
	now = now.Add(2 * time.Hour)
	if _, fresh, ok := c.Load(key); !ok || fresh {
		t.Errorf("after the TTL: fresh %v ok %v, want stale", fresh, ok)
	}
}

func TestNewestSkipsUnreadable(t *testing.T) {
	dir := t.TempDir()
	c := Cache{Dir: dir}
	if err := c.Store("gh-aaaaaaaaaaaa", "gh", []contract.Tool{{Name: "old"}}); err != nil {
		t.Fatal(err)
	}
	// a later key whose file is not JSON is skipped, not fatal
	if err := os.WriteFile(filepath.Join(dir, "gh-bbbbbbbbbbbb.tools.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if tools, ok := c.Newest("gh"); !ok || len(tools) != 1 || tools[0].Name != "old" {
		t.Errorf("Newest = %v, %v", tools, ok)
	}
	if _, ok := c.Newest("other"); ok {
		t.Error("a connector without entries has tools")
	}
	if _, ok := (Cache{}).Newest("gh"); ok {
		t.Error("the zero cache has tools")
	}
}
