package serve

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/host/skillrt"
)

// FuzzSplitSkillURI: any string either is refused or splits into a name
// and a file that SkillURI turns back into a URI splitting the same way.
func FuzzSplitSkillURI(f *testing.F) {
	for _, s := range []string{"skill://pdf-tools/SKILL.md", "skill://a/references/guide.md", "skill://", "skill:///x", "skill://a%2Fb/c",
		"skill://a/../b", "https://x/SKILL.md", "skill://a/%zz", "skill://a//b", "skill://a/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, file, err := splitSkillURI(s)
		if err != nil {
			return
		}
		if name == "" {
			t.Fatalf("%q: empty name accepted", s)
		}
		n2, f2, err := splitSkillURI(registry.SkillURI("", name, file))
		if err != nil || n2 != name || f2 != file {
			t.Fatalf("%q -> (%q, %q) -> (%q, %q, %v)", s, name, file, n2, f2, err)
		}
	})
}

// sepSession is an in-memory go-sdk client of a host whose skills
// runtime indexes n packages of three files each.
func sepSession(b *testing.B, n int) *mcp.ClientSession {
	b.Helper()
	root := b.TempDir()
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("pkg-%03d", i)
		files := map[string]string{
			"SKILL.md":            "---\nname: " + name + "\ndescription: Package number " + name + ".\n---\n\nBody.\n",
			"references/guide.md": "guide\n",
			"scripts/run.sh":      "echo hi\n",
		}
		for rel, body := range files {
			p := filepath.Join(root, name, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	reg := registry.New(registry.Options{Roots: []registry.Root{{Dir: root, Origin: registry.OriginProject}}})
	reg.Refresh()
	h := newHost(b, Settings{}, nil)
	h.skills = skillrt.New(reg, skillrt.Options{})
	srv, err := h.NewMCPServer()
	if err != nil {
		b.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	if err := mcp.AddSendingCustomMethod[*SkillsListParams, *SkillsListResult](c, MethodSkillsList); err != nil {
		b.Fatal(err)
	}
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

// BenchmarkSkillsList measures skills/list over 50 packages (entries with
// their manifests), client to server and back in memory.
func BenchmarkSkillsList(b *testing.B) {
	cs := sepSession(b, 50)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := mcp.CallCustomMethod[*SkillsListParams, *SkillsListResult](ctx, cs, MethodSkillsList, &SkillsListParams{})
		if err != nil || len(res.Skills) != 50 {
			b.Fatalf("%v %d", err, len(res.Skills))
		}
	}
}

// BenchmarkSkillResourceRead measures resources/read of one skill:// file.
func BenchmarkSkillResourceRead(b *testing.B) {
	cs := sepSession(b, 50)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://pkg-025/references/guide.md"})
		if err != nil || res.Contents[0].Text != "guide\n" {
			b.Fatalf("%v %+v", err, res)
		}
	}
}
