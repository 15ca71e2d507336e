package registry

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillscript/skillc/internal/agentskills"
)

// write creates the files (path → content) under base.
func write(t testing.TB, base string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(base, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func skillMD(name, desc string) string {
	return fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n# %s\n\nDo the thing.\n", name, desc, name)
}

const script = "# Skill: %s\n# Description: %s\n# Vars: WHO=world\n# Returns: GREETING\nt:\n    $set GREETING = \"hi ${WHO}\"\ndefault: t\n"

// problems returns "rule path-suffix" strings of r's problems.
func problems(r *Registry) []string {
	var out []string
	for _, p := range r.Problems() {
		out = append(out, p.Rule+" "+filepath.Base(p.File))
	}
	return out
}

func TestKindsAndResources(t *testing.T) {
	base := t.TempDir()
	write(t, base, map[string]string{
		"report/SKILL.md":                skillMD("report", "Writes reports."),
		"report/scripts/helper.skill.md": "not a skill of its own",
		"report/assets/a.txt":            "asset",
		"report/__pycache__/x.pyc":       "junk",
		"greet.skill.md":                 fmt.Sprintf(script, "greet", "Greets someone."),
		"greet.skill":                    "compiled output, ignored",
	})
	r := New(Options{Roots: []Root{{Dir: base, Origin: OriginProject}}})
	r.Refresh()
	got := r.List()
	if len(got) != 2 {
		t.Fatalf("want 2 skills, got %d: %v", len(got), problems(r))
	}
	greet, report := got[0], got[1]
	if greet.Kind != KindScript || greet.ID != "project/greet" || greet.Description != "Greets someone." ||
		strings.Join(greet.Contract.Vars, ",") != "WHO" || strings.Join(greet.Contract.Returns, ",") != "GREETING" {
		t.Errorf("script record: %+v %+v", greet, greet.Contract)
	}
	if report.Kind != KindPackage || report.Root != filepath.Join(base, "report") || !strings.HasSuffix(report.Location, "SKILL.md") {
		t.Errorf("package record: %+v", report)
	}
	var paths []string
	for _, res := range report.Resources {
		paths = append(paths, res.Path)
	}
	if strings.Join(paths, " ") != "SKILL.md assets/a.txt scripts/helper.skill.md" {
		t.Errorf("manifest: %v", paths)
	}
	if !strings.HasPrefix(report.Digest, "sha256:") || len(report.Digest) != 71 || report.Digest != Digest(report.Resources) {
		t.Errorf("digest %q", report.Digest)
	}
}

func TestPrecedenceAndShadowing(t *testing.T) {
	proj, user, conf := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, proj, map[string]string{"report/SKILL.md": skillMD("report", "Project version.")})
	write(t, user, map[string]string{"report/SKILL.md": skillMD("report", "User version."), "notes/SKILL.md": skillMD("notes", "User notes.")})
	write(t, conf, map[string]string{"notes.skill.md": fmt.Sprintf(script, "notes", "Configured notes.")})
	ext := &Record{Kind: KindPackage, Name: "report", Origin: "mcp:docs", Description: "Remote.", Loadable: true}
	r := New(Options{Roots: []Root{{conf, OriginConfig}, {user, OriginUser}, {proj, OriginProject}}, External: []*Record{ext}})
	r.Refresh()
	rec, _ := r.Lookup("report")
	if rec == nil || rec.Origin != OriginProject {
		t.Fatalf("report resolves to %+v", rec)
	}
	notes, _ := r.Lookup("notes")
	if notes == nil || notes.Origin != OriginUser {
		t.Fatalf("notes resolves to %+v", notes)
	}
	shadowed, ok := r.Lookup("user/report")
	if !ok || shadowed.ShadowedBy != "project/report" || shadowed.Visible() {
		t.Errorf("user/report: %+v", shadowed)
	}
	if remote, ok := r.Lookup("mcp:docs/report"); !ok || remote.ShadowedBy != "project/report" {
		t.Errorf("the MCP skill must be shadowed by the local one: %+v", remote)
	}
	want := []string{"skillmd-shadowed notes.skill.md", "skillmd-shadowed SKILL.md", "skillmd-shadowed ."}
	if got := problems(r); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("problems %q, want %q", got, want)
	}
}

func TestSameOriginCollision(t *testing.T) {
	base := t.TempDir()
	write(t, base, map[string]string{
		"report/SKILL.md":   skillMD("report", "A package."),
		"report.skill.md":   fmt.Sprintf(script, "report", "A script."),
		"other/SKILL.md":    skillMD("other", "Fine."),
		"other2/x.skill.md": fmt.Sprintf(script, "x", "Fine too."),
	})
	r := New(Options{Roots: []Root{{base, OriginProject}}})
	r.Refresh()
	if _, ok := r.Lookup("report"); ok {
		t.Error("a colliding name must not resolve")
	}
	if got := strings.Join(r.Names(), " "); got != "other x" {
		t.Errorf("names %q", got)
	}
	n := 0
	for _, p := range r.Problems() {
		if p.Rule == agentskills.RuleNameCollision {
			n++
		}
	}
	if n != 2 {
		t.Errorf("want a collision reported on both files, got %v", problems(r))
	}
}

func TestScanBounds(t *testing.T) {
	base := t.TempDir()
	write(t, base, map[string]string{
		"a/b/c/d/deep/SKILL.md": skillMD("deep", "Too deep."),
		"top/SKILL.md":          skillMD("top", "At the top."),
	})
	r := New(Options{Roots: []Root{{base, OriginUser}}, MaxDepth: 3})
	r.Refresh()
	if got := strings.Join(r.Names(), " "); got != "top" {
		t.Errorf("names %q", got)
	}
	if got := strings.Join(problems(r), "|"); got != "skillmd-scan-limit d" {
		t.Errorf("problems %q", got)
	}
	r = New(Options{Roots: []Root{{base, OriginUser}}, MaxDirs: 2})
	r.Refresh()
	if got := strings.Join(problems(r), "|"); !strings.Contains(got, "skillmd-scan-limit") {
		t.Errorf("dir limit not reported: %q", got)
	}
}

func TestSymlinks(t *testing.T) {
	base, elsewhere := t.TempDir(), t.TempDir()
	write(t, elsewhere, map[string]string{"linked/SKILL.md": skillMD("linked", "Reached through a link.")})
	write(t, base, map[string]string{"loop/keep.txt": "x"})
	mustLink(t, filepath.Join(elsewhere, "linked"), filepath.Join(base, "linked"))
	mustLink(t, base, filepath.Join(base, "loop", "up"))
	mustLink(t, filepath.Join(base, "self"), filepath.Join(base, "self"))
	r := New(Options{Roots: []Root{{base, OriginProject}}})
	r.Refresh()
	if got := strings.Join(r.Names(), " "); got != "linked" {
		t.Errorf("names %q (%v)", got, problems(r))
	}
	got := strings.Join(problems(r), "|")
	if !strings.Contains(got, "skillmd-scan-limit up") || !strings.Contains(got, "skillmd-scan-limit self") {
		t.Errorf("loops not reported: %q", got)
	}
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestResourceSymlinkOutside: a package file linking outside the package
// is left out of the manifest and reported.
func TestResourceSymlinkOutside(t *testing.T) {
	base, elsewhere := t.TempDir(), t.TempDir()
	write(t, elsewhere, map[string]string{"secret.txt": "s3cret"})
	write(t, base, map[string]string{"report/SKILL.md": skillMD("report", "Has a bad link.")})
	mustLink(t, filepath.Join(elsewhere, "secret.txt"), filepath.Join(base, "report", "leak.txt"))
	r := New(Options{Roots: []Root{{base, OriginProject}}})
	r.Refresh()
	rec, ok := r.Lookup("report")
	if !ok || len(rec.Resources) != 1 {
		t.Fatalf("record %+v", rec)
	}
	if got := strings.Join(problems(r), "|"); got != "skillmd-symlink leak.txt" {
		t.Errorf("problems %q", got)
	}
}

// TestWatchRehashes edits a package resource and waits for the watcher to
// refresh the registry with a new digest.
func TestWatchRehashes(t *testing.T) {
	base := t.TempDir()
	write(t, base, map[string]string{"report/SKILL.md": skillMD("report", "v1"), "report/references/a.md": "one"})
	r := New(Options{Roots: []Root{{base, OriginProject}}})
	r.Refresh()
	rec, _ := r.Lookup("report")
	before := rec.Digest
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changed := make(chan struct{}, 4)
	done := make(chan error, 1)
	go func() { done <- r.Watch(ctx, 20*time.Millisecond, func() { changed <- struct{}{} }) }()
	time.Sleep(100 * time.Millisecond) // let the watcher register its directories
	write(t, base, map[string]string{"report/references/a.md": "two, longer"})
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no refresh after an edit")
	}
	rec, _ = r.Lookup("report")
	if rec.Digest == before {
		t.Error("digest did not change")
	}
	write(t, base, map[string]string{"fresh/SKILL.md": skillMD("fresh", "Added later.")})
	deadline := time.After(10 * time.Second)
	for {
		if _, ok := r.Lookup("fresh"); ok {
			break
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatal("new package not picked up")
		}
	}
	cancel()
	<-done
}

// TestWatchAbsentRoot: a root that does not exist when watching starts is
// picked up once it is created.
func TestWatchAbsentRoot(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, ".agents", "skills")
	r := New(Options{Roots: []Root{{root, OriginUser}}})
	r.Refresh()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	changed := make(chan struct{}, 8)
	done := make(chan error, 1)
	go func() { done <- r.Watch(ctx, 20*time.Millisecond, func() { changed <- struct{}{} }) }()
	time.Sleep(100 * time.Millisecond)
	write(t, root, map[string]string{"late/SKILL.md": skillMD("late", "Created after the watch started.")})
	deadline := time.After(10 * time.Second)
	for {
		if _, ok := r.Lookup("late"); ok {
			break
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatal("the new root was not picked up")
		}
	}
	cancel()
	<-done
}

// TestUnloadableDoesNotClaimName indexes a publisher's tree where old
// copies of three packages have no frontmatter (or no description) next
// to the real ones in the same root: the real packages stay visible and
// resolvable by id, and the broken copies report their own error
// instead of a name collision.
func TestUnloadableDoesNotClaimName(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("testdata", "publisher"))
	if err != nil {
		t.Fatal(err)
	}
	r := New(Options{Roots: []Root{{Dir: root, Origin: OriginConfig}}})
	r.Refresh()
	if got := strings.Join(r.Names(), " "); got != "docx pptx xlsx" {
		t.Fatalf("visible names %q, want docx pptx xlsx; problems %v", got, problems(r))
	}
	for _, p := range r.Problems() {
		if p.Rule == agentskills.RuleNameCollision {
			t.Errorf("unloadable package caused a collision: %s: %s", p.File, p.Message)
		}
	}
	for _, name := range []string{"xlsx", "docx", "pptx"} {
		rec, ok := r.Lookup(OriginConfig + "/" + name)
		if !ok || !rec.Visible() || filepath.Base(filepath.Dir(filepath.Dir(rec.Location))) != "office" {
			t.Errorf("%s: Lookup by id = %v, %v; want the office package", name, rec, ok)
		}
	}
	broken := 0
	for _, rec := range r.All() {
		if rec.Loadable {
			continue
		}
		broken++
		if !rec.Diagnostics().HasErrors() {
			t.Errorf("unloadable %s has no error of its own", rec.Location)
		}
		if rec.ShadowedBy != "" {
			t.Errorf("unloadable %s is marked shadowed by %s", rec.Location, rec.ShadowedBy)
		}
	}
	if broken != 3 {
		t.Errorf("want the 3 broken copies in All(), got %d", broken)
	}
}
