package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestReleaseCrossBuild builds skillc for one platform of the release
// matrix other than the host, as `make release` (internal/tools/release)
// does (CGO off, -trimpath), and checks the result is a static executable
// for that platform. The whole matrix is `make release`.
func TestReleaseCrossBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles skillc (a minute or more); run without -short")
	}
	goarch := "arm64"
	if runtime.GOARCH == "arm64" {
		goarch = "amd64"
	}
	out := filepath.Join(t.TempDir(), "skillc")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+goarch)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=linux GOARCH=%s go build: %v\n%s", goarch, err, b)
	}
	f, err := elf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]elf.Machine{"arm64": elf.EM_AARCH64, "amd64": elf.EM_X86_64}[goarch]
	if f.Machine != want || f.Type != elf.ET_EXEC {
		t.Errorf("linux/%s binary: machine %v type %v, want %v ET_EXEC", goarch, f.Machine, f.Type, want)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("linux/%s binary has an interpreter: it is not static", goarch)
		}
	}
}

// TestReleaseBuildTags checks that the release, the image, `make build`
// and the whole-process benchmark use the same build tags, and that the
// tags still keep urfave/cli's man-page and Markdown generators
// (blackfriday, go-md2man) and gRPC's golang.org/x/net/trace out of
// skillc and skillc-host, whose start-up paid for their init work
// (issue 25).
func TestReleaseBuildTags(t *testing.T) {
	const tags = "urfave_cli_no_docs,grpcnotrace"
	for file, want := range map[string]string{
		"../../internal/tools/release/main.go":    `const buildTags = "` + tags + `"`,
		"../../internal/tools/image/build.sh":     "-tags " + tags + " ",
		"../../Makefile":                          "BUILD_TAGS := " + tags + "\n",
		"../../internal/tools/wholebench/main.go": `"-tags", "` + tags + `"`,
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s does not build with the tags %s (want %q in it)", file, tags, want)
		}
	}
	for _, pkg := range []string{".", "../skillc-host"} {
		out, err := exec.Command("go", "list", "-deps", "-tags", tags, pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps -tags %s %s: %v\n%s", tags, pkg, err, out)
		}
		for _, p := range []string{"github.com/russross/blackfriday/v2", "github.com/cpuguy83/go-md2man/v2/md2man", "golang.org/x/net/trace"} {
			if strings.Contains(string(out), p+"\n") {
				t.Errorf("%s built with -tags %s still links %s", pkg, tags, p)
			}
		}
	}
}

// TestVersionFromBuildInfo builds skillc with VCS stamping from a fresh
// clone of this checkout's HEAD (the go command does not stamp builds in
// a git worktree, whose .git is a file) and checks that --version prints
// that commit: the revision comes from the build info, not a constant.
func TestVersionFromBuildInfo(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository and builds skillc; run without -short")
	}
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout (git rev-parse HEAD: %v)", err)
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(t.TempDir(), "src")
	if out, err := exec.Command("git", "clone", "-q", "--no-local", "--depth", "1", "file://"+strings.TrimSpace(string(top)), clone).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	out := filepath.Join(t.TempDir(), "skillc")
	cmd := exec.Command("go", "build", "-buildvcs=true", "-o", out, "./cmd/skillc")
	cmd.Dir = clone
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -buildvcs=true: %v\n%s", err, b)
	}
	got, err := exec.Command(out, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("skillc --version: %s", strings.TrimSpace(string(got)))
	short := strings.TrimSpace(string(rev))[:12]
	if !strings.HasPrefix(string(got), "skillc ") || !strings.Contains(string(got), "rev "+short+" ") && !strings.Contains(string(got), "rev "+short+",") || !strings.Contains(string(got), runtime.Version()) {
		t.Errorf("skillc --version = %q, want the revision %s and %s", got, short, runtime.Version())
	}
	if strings.Contains(string(got), "dirty") {
		t.Errorf("skillc --version = %q: a fresh clone is not modified", got)
	}
}

// TestDistributionFiles checks that the release, action and pre-commit
// files parse and agree with each other: the licence is in the image and
// the extension, the release tool builds the six static targets, the
// action installs with its script, runs check with SARIF and uploads it,
// and the pre-commit hooks run skillc check and fmt.
func TestDistributionFiles(t *testing.T) {
	read := func(name string, v any) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("../..", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	// the licence travels with every archive (internal/tools/release
	// TestReleaseArchive), the image and the extension
	if df, err := os.ReadFile("../../Containerfile"); err != nil || !regexp.MustCompile(`(?m)^COPY LICENSE `).Match(df) {
		t.Errorf("Containerfile does not copy LICENSE into the image (%v)", err)
	}
	// the image build stamps its version into the binary (skillc --version
	// is not "(devel)"); internal/tools/image/build.sh runs it in the image
	if sh, err := os.ReadFile("../../internal/tools/image/build.sh"); err != nil || !strings.Contains(string(sh), "-X main.stampedVersion=$VERSION") {
		t.Errorf("internal/tools/image/build.sh does not stamp the version (%v)", err)
	}
	for _, f := range []string{"../../LICENSE", "../../editors/vscode/LICENSE"} {
		if b, err := os.ReadFile(f); err != nil || !strings.HasPrefix(string(b), "MIT License") {
			t.Errorf("%s: not the MIT licence (%v)", f, err)
		}
	}
	// skillc-host, which skillc serve and skillc dashboard run (decision
	// BS1), is built and shipped beside skillc everywhere skillc is
	for file, want := range map[string]string{
		"../../Containerfile":                  "COPY skillc-host /usr/local/bin/skillc-host\n",
		"../../internal/tools/image/build.sh":  "for bin in skillc skillc-host; do",
		"../../internal/tools/release/main.go": `var binaries = []string{"skillc", "skillc-host"}`,
		"../../Makefile":                       "-o bin/ ./cmd/skillc ./cmd/skillc-host\n",
	} {
		if b, err := os.ReadFile(file); err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s does not build or ship skillc-host beside skillc (want %q in it; %v)", file, want, err)
		}
	}
	// the release tool builds the six targets the Action downloads
	rel, err := os.ReadFile("../../internal/tools/release/main.go")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`defaultPlatforms = "([^"]+)"`).FindSubmatch(rel)
	if m == nil || len(strings.Split(string(m[1]), ",")) != 6 || !strings.Contains(string(rel), `"CGO_ENABLED=0"`) {
		t.Errorf("internal/tools/release: want six static targets, got %q", m)
	}

	var action struct {
		Runs struct {
			Using string `yaml:"using"`
			Steps []struct {
				ID   string            `yaml:"id"`
				Uses string            `yaml:"uses"`
				Run  string            `yaml:"run"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"runs"`
	}
	read("action.yml", &action)
	var install, check, upload bool
	for _, s := range action.Runs.Steps {
		install = install || strings.Contains(s.Run, "internal/tools/action/install.sh")
		check = check || (s.ID == "check" && strings.Contains(s.Run, "skillc check --format sarif"))
		upload = upload || strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@")
	}
	if action.Runs.Using != "composite" || !install || !check || !upload {
		t.Errorf("action.yml: composite=%v install=%v check=%v upload=%v", action.Runs.Using == "composite", install, check, upload)
	}

	var hooks []struct {
		ID    string `yaml:"id"`
		Entry string `yaml:"entry"`
		Files string `yaml:"files"`
	}
	read(".pre-commit-hooks.yaml", &hooks)
	entries := map[string]string{}
	for _, h := range hooks {
		entries[h.ID] = h.Entry
		re, err := regexp.Compile(h.Files)
		if err != nil || !re.MatchString("skills/a.skill.md") || re.MatchString("README.md") {
			t.Errorf("hook %s: files %q should match skills/a.skill.md and not README.md", h.ID, h.Files)
		}
	}
	if entries["skillc-check"] != "skillc check" || entries["skillc-fmt"] != "skillc fmt -w" {
		t.Errorf("pre-commit hooks: %v", entries)
	}
}
