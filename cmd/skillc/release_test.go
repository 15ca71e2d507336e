package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReleaseCrossBuild builds skillc for one platform of the release
// matrix other than the host, as `make release-dry-run` and .goreleaser.yaml
// do (CGO off, -trimpath), and checks the result is a static executable
// for that platform. The whole matrix is `make release-dry-run`.
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

// TestVersionFromBuildInfo builds skillc from this checkout with VCS
// stamping on and checks that --version prints the commit it was built
// from (the revision comes from the build info, not a constant).
func TestVersionFromBuildInfo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillc; run without -short")
	}
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout (git rev-parse HEAD: %v)", err)
	}
	out := filepath.Join(t.TempDir(), "skillc")
	cmd := exec.Command("go", "build", "-buildvcs=true", "-o", out, ".")
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -buildvcs=true: %v\n%s", err, b)
	}
	got, err := exec.Command(out, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	short := strings.TrimSpace(string(rev))[:12]
	if !strings.HasPrefix(string(got), "skillc ") || !strings.Contains(string(got), "rev "+short) || !strings.Contains(string(got), runtime.Version()) {
		t.Errorf("skillc --version = %q, want the revision %s and %s", got, short, runtime.Version())
	}
}
