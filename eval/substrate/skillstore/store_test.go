package skillstore

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/contract/conformance"
	"github.com/skillscript/skillc/internal/testsupport/pgtest"
)

func newFS(t *testing.T) *FS {
	t.Helper()
	s, err := NewFS(filepath.Join(t.TempDir(), "skills"), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func newSQLite(t *testing.T) *SQLite {
	t.Helper()
	s, err := OpenSQLite(filepath.Join(t.TempDir(), "skills", "skills.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestFSConformance(t *testing.T) {
	conformance.TestSkillStore(t, func(t *testing.T) contract.SkillStore { return newFS(t) })
}

func TestSQLiteConformance(t *testing.T) {
	conformance.TestSkillStore(t, func(t *testing.T) contract.SkillStore { return newSQLite(t) })
}

func TestFSFindsSkillByHeaderName(t *testing.T) {
	s := newFS(t)
	body := "# Skill: morning-brief\n# Status: Approved\n\nrun:\n    emit(text=\"x\")\n"
	if err := os.WriteFile(filepath.Join(s.Dir(), "brief.skill.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(s.Dir(), "notes.md"), []byte("# Skill: nope\n"), 0o644)
	ctx := context.Background()
	r, err := s.Get(ctx, "morning-brief")
	if err != nil || r == nil || r.Status != contract.StatusApproved || r.Body != body {
		t.Fatalf("Get = %+v, %v", r, err)
	}
	if _, err := s.Write(ctx, "morning-brief", strings.Replace(body, `"x"`, `"y"`, 1), "me"); err != nil {
		t.Fatal(err)
	}
	// The existing file is rewritten in place, not duplicated.
	if _, err := os.Stat(filepath.Join(s.Dir(), "morning-brief.skill.md")); !os.IsNotExist(err) {
		t.Errorf("a second file was created: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(s.Dir(), "brief.skill.md"))
	if !strings.Contains(string(b), `"y"`) {
		t.Errorf("file not rewritten: %s", b)
	}
	if r, _ := s.Get(ctx, "nope"); r != nil {
		t.Error("non-.skill.md file was treated as a skill")
	}
}

func TestSQLiteReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	s, err := OpenSQLite(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.Write(ctx, "keep", "# Skill: keep\n# Status: Draft\n", "ann"); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2, err := OpenSQLite(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	r, err := s2.Get(ctx, "keep")
	if err != nil || r == nil || r.Author != "ann" {
		t.Errorf("after reopen: %+v, %v", r, err)
	}
}

func TestHeaders(t *testing.T) {
	body := "Some prose\n```skillscript\n# Skill: fenced\n# Status: approved v3:abc\n#Description: not a header\n# Type: template\n\nrun:\n# Description: too late\n```\n"
	h := Headers(body)
	if h["Skill"] != "fenced" || h["Status"] != "approved v3:abc" || h["Type"] != "template" {
		t.Errorf("Headers = %v", h)
	}
	if _, ok := h["Description"]; ok {
		t.Errorf("Description should not be read: %v", h)
	}
	in, err := describe(body)
	if err != nil || in.Status != "Approved v3:abc" {
		t.Errorf("describe = %+v, %v", in, err)
	}
	if _, err := describe("# Status: shipped\n"); err == nil {
		t.Error("invalid status accepted")
	}
}

func TestWithStatus(t *testing.T) {
	tests := []struct{ in, want string }{
		{"# Skill: a\n# Status: Draft\nrun:\n", "# Skill: a\n# Status: Approved\nrun:\n"},
		{"# Skill: a\n# Description: d\nrun:\n", "# Skill: a\n# Status: Approved\n# Description: d\nrun:\n"},
		{"run:\n", "# Status: Approved\nrun:\n"},
		{"# Skill: a\nrun:\n    # Status: Draft\n", "# Skill: a\n# Status: Approved\nrun:\n    # Status: Draft\n"},
	}
	for _, tc := range tests {
		if got := withStatus(tc.in, "Approved"); got != tc.want {
			t.Errorf("withStatus(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzHeaders(f *testing.F) {
	f.Add("# Skill: a\n# Status: Draft\n")
	f.Add("```skill\n# Skill: b\n")
	f.Fuzz(func(t *testing.T, body string) {
		h := Headers(body)
		out := withStatus(body, "Disabled")
		in, err := describe(out)
		if err != nil || contract.StatusWord(in.Status) != "Disabled" {
			t.Fatalf("withStatus then describe = %+v, %v (headers %v)\n%q", in, err, h, out)
		}
	})
}

// TestFSIndexFollowsOutsideEdits warms the cached name index, then
// changes the directory behind the store's back in every way an editor
// or another process can (add, in-place edit of the # Skill: header,
// delete, rename, a duplicate with a smaller path) and checks each Get
// answers what a fresh store over the same directory answers.
func TestFSIndexFollowsOutsideEdits(t *testing.T) {
	s := newFS(t)
	ctx := context.Background()
	write := func(file, name, text string) {
		t.Helper()
		body := "# Skill: " + name + "\n# Status: Draft\n\nrun:\n    emit(text=\"" + text + "\")\n"
		if err := os.WriteFile(filepath.Join(s.Dir(), file), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	same := func(step string, names ...string) {
		t.Helper()
		fresh, err := NewFS(s.Dir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			got, err1 := s.Get(ctx, n)
			want, err2 := fresh.Get(ctx, n)
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: Get(%s): %v / %v", step, n, err1, err2)
			}
			if (got == nil) != (want == nil) || (got != nil && got.Body != want.Body) {
				t.Errorf("%s: Get(%s) = %+v, a fresh store says %+v", step, n, got, want)
			}
		}
	}
	write("a.skill.md", "alpha", "1")
	write("b.skill.md", "beta", "1")
	if _, err := s.List(ctx, contract.SkillQuery{}); err != nil { // builds the index
		t.Fatal(err)
	}
	same("warm", "alpha", "beta", "gamma")
	write("c.skill.md", "gamma", "1")
	same("added", "alpha", "beta", "gamma")
	write("a.skill.md", "alpha2", "2") // in place: the directory does not change
	same("header edited in place", "alpha", "alpha2")
	write("b.skill.md", "beta", "2")
	same("body edited in place", "beta")
	if err := os.Remove(filepath.Join(s.Dir(), "c.skill.md")); err != nil {
		t.Fatal(err)
	}
	same("deleted", "gamma", "beta")
	if err := os.Rename(filepath.Join(s.Dir(), "b.skill.md"), filepath.Join(s.Dir(), "z.skill.md")); err != nil {
		t.Fatal(err)
	}
	same("renamed", "beta")
	write("0.skill.md", "beta", "dup") // a smaller path wins a duplicate name
	same("duplicate", "beta")
	if r, _ := s.Get(ctx, "beta"); r == nil || !strings.Contains(r.Body, "dup") {
		t.Errorf("duplicate: Get(beta) = %+v, want the 0.skill.md body", r)
	}
	if _, err := s.Write(ctx, "delta", "# Skill: delta\n# Status: Draft\n\nrun:\n    emit(text=\"d\")\n", "me"); err != nil {
		t.Fatal(err)
	}
	same("written through the store", "delta", "beta", "alpha2")
}

func TestPostgresConformance(t *testing.T) {
	url := pgtest.Start(t)
	n := 0
	conformance.TestSkillStore(t, func(t *testing.T) contract.SkillStore {
		// each subtest gets a database of its own: the suite expects an
		// empty store
		n++
		db := fmt.Sprintf("skills%d", n)
		admin, err := sql.Open("pgx", url)
		if err != nil {
			t.Fatal(err)
		}
		defer admin.Close()
		if _, err := admin.Exec("CREATE DATABASE " + db); err != nil {
			t.Fatal(err)
		}
		s, err := OpenPostgres(t.Context(), strings.Replace(url, "/postgres?", "/"+db+"?", 1), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// Two stores on one database (two hosts of a cluster): a write through
// one is read, listed and status-changed through the other, and the
// catalog version token moves on both.
func TestPostgresSharedByTwoHosts(t *testing.T) {
	url := pgtest.Start(t)
	ctx := t.Context()
	a, err := OpenPostgres(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenPostgres(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	v0, _ := b.Version(ctx)
	body := "# Skill: shared\n# Status: Draft\n\nrun:\n    emit(text=\"x\")\n"
	if _, err := a.Write(ctx, "shared", body, "alice"); err != nil {
		t.Fatal(err)
	}
	r, err := b.Get(ctx, "shared")
	if err != nil || r == nil || r.Body != body || r.Author != "alice" {
		t.Fatalf("the other host reads %+v, %v", r, err)
	}
	if v1, _ := b.Version(ctx); v1 == v0 {
		t.Errorf("catalog version unchanged on the other host after a write")
	}
	if err := b.UpdateStatus(ctx, "shared", "approved"); err != nil {
		t.Fatal(err)
	}
	if r, _ := a.Get(ctx, "shared"); r == nil || r.Status != contract.StatusApproved {
		t.Errorf("status approved on one host reads %+v on the other", r)
	}
	if vs, _ := a.Versions(ctx, "shared"); len(vs) != 2 {
		t.Errorf("versions = %+v, want 2", vs)
	}
}

func TestOpenPostgresRedactsPassword(t *testing.T) {
	_, err := OpenPostgres(t.Context(), "postgres://u:s3cret@127.0.0.1:1/db?sslmode=disable&connect_timeout=1", nil)
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("OpenPostgres on a closed port: %v (want an error without the password)", err)
	}
}
