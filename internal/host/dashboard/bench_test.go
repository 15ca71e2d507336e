package dashboard

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/internal/approval"
)

// BenchmarkQueuePage1000 renders the approvals page (GET /) and its JSON
// twin (GET /api/pending) over a filesystem store of 1,000 skills, each
// an unsigned Draft with a shell op and a connector dispatch, so every
// one is listed with its signals and footprint. One op is one request
// served in-process (store listing, parse, footprint, template).
func BenchmarkQueuePage1000(b *testing.B) {
	d, _ := benchDashboard(b)
	for name, path := range map[string]string{"html": "/", "json": "/api/pending"} {
		b.Run(name, func(b *testing.B) { benchGet(b, d, path, "s0999") })
	}
}

// BenchmarkPages1000 renders the catalog and one skill page over the
// same 1,000-skill store. "warm" is the steady state (the store is
// unchanged between requests, so the listing is reused); "cold" builds a
// new dashboard per request, so every skill is read, parsed, checked and
// its footprint enumerated again.
func BenchmarkPages1000(b *testing.B) {
	d, o := benchDashboard(b)
	b.Run("catalog-warm", func(b *testing.B) { benchGet(b, d, "/skills", "s0999") })
	b.Run("catalog-cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			w := httptest.NewRecorder()
			New(o).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/skills", nil))
			if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "s0999") {
				b.Fatalf("GET /skills: %d", w.Code)
			}
		}
	})
	b.Run("skill", func(b *testing.B) { benchGet(b, d, "/skills/s0500", "footprint") })
	b.Run("queue-cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			w := httptest.NewRecorder()
			New(o).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/", nil))
			if w.Code != http.StatusOK {
				b.Fatalf("GET /: %d", w.Code)
			}
		}
	})
}

func benchGet(b *testing.B, d *Dashboard, path, want string) {
	b.ReportAllocs()
	var size int
	for b.Loop() {
		w := httptest.NewRecorder()
		d.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), want) {
			b.Fatalf("GET %s: %d", path, w.Code)
		}
		size = w.Body.Len()
	}
	b.ReportMetric(float64(size), "bytes/page")
}

func benchDashboard(b *testing.B) (*Dashboard, Options) {
	dir := b.TempDir()
	for i := range 1000 {
		src := strings.Replace(draftSrc, "# Skill: fetch", fmt.Sprintf("# Skill: s%04d", i), 1)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%04d.skill.md", i)), []byte(src), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	store, err := skillstore.NewFS(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	kd := b.TempDir()
	keys := approval.KeyPaths{Private: filepath.Join(kd, "approval.key"), Public: filepath.Join(kd, "approval.pub")}
	pub, err := approval.GenerateKeys(keys, false)
	if err != nil {
		b.Fatal(err)
	}
	o := Options{Store: store, Policy: approval.Policy{Secured: true, PublicKey: pub, KeyPath: keys.Public}, Keys: keys}
	return New(o), o
}
