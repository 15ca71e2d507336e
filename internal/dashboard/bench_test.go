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
	d := New(Options{Store: store, Policy: approval.Policy{Secured: true, PublicKey: pub, KeyPath: keys.Public}, Keys: keys})
	for name, path := range map[string]string{"html": "/", "json": "/api/pending"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				w := httptest.NewRecorder()
				d.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
				if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "s0999") {
					b.Fatalf("GET %s: %d", path, w.Code)
				}
				size = w.Body.Len()
			}
			b.ReportMetric(float64(size), "bytes/page")
		})
	}
}
