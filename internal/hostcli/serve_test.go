package hostcli

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/host/gateway"
	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/host/serve"
	"github.com/skillscript/skillc/internal/skillcli"
)

// TestServeVectorCache checks the order serve resolves the vector file
// in: SKILLSCRIPT_SKILLS_INDEX_CACHE or --index-cache (both land in
// Settings.SkillsIndexCache, the flag last) over the gateway
// configuration's index_cache over the user cache directory; "off" and a
// lexical-only gateway persist nothing; the name is the skills
// subcommands' for the same roots and profile.
func TestServeVectorCache(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	roots := registry.Options{Roots: []registry.Root{{Dir: t.TempDir(), Origin: "project"}}}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	userDir, _ := os.UserCacheDir()
	for _, c := range []struct {
		set, cfg string
		semantic bool
		dir      string // "" for none
	}{
		{"", "", true, filepath.Join(userDir, "skillc")},
		{"", "/cfg", true, "/cfg"},
		{"/set", "/cfg", true, "/set"},
		{"off", "/cfg", true, ""},
		{"", "off", true, ""},
		{"/set", "/cfg", false, ""},
	} {
		got := serveVectorCache(serve.Settings{SkillsIndexCache: c.set}, gateway.Config{IndexCache: c.cfg}, roots, c.semantic, log)
		if c.dir == "" {
			if got != "" {
				t.Errorf("%+v: vector file %q, want none", c, got)
			}
			continue
		}
		_, gw := skillcli.CacheFiles(c.dir, roots.Roots, fmt.Sprintf("%+v", roots.Validation))
		if filepath.Dir(got) != c.dir || got != strings.TrimSuffix(gw, ".idx")+".vec" {
			t.Errorf("%+v: vector file %q, want %s", c, got, strings.TrimSuffix(gw, ".idx")+".vec")
		}
	}
}
