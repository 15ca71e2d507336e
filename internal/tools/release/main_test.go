package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// TestReleaseArchive builds the release archive of this machine's
// platform (no SBOM: that needs the module proxy) from the repository
// root and checks what a user downloads: the binaries (skillc and
// skillc-host), LICENSE, README.md and the getting-started guide in the
// archive, and checksums.txt naming it with its sha256.
func TestReleaseArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillc")
	}
	if err := os.Chdir("../../.."); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	stampVersion = "v0.0.0-releasetest"
	defer func() { stampVersion = "" }()
	if err := run(out, []string{runtime.GOOS + "/" + runtime.GOARCH}, false); err != nil {
		t.Fatal(err)
	}
	name := "skillc_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz"
	if runtime.GOOS == "windows" {
		t.Skip("tar.gz checks only")
	}
	data, err := os.ReadFile(filepath.Join(out, name))
	if err != nil {
		t.Fatal(err)
	}
	gz, err := gzip.NewReader(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var names []string
	var license string
	bins := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		names = append(names, h.Name)
		if h.Name == "LICENSE" {
			b := make([]byte, 11)
			_, _ = tr.Read(b)
			license = string(b)
		}
		if h.Name == "skillc" || h.Name == "skillc-host" {
			if bins[h.Name], err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
			if h.Mode&0o111 == 0 {
				t.Errorf("%s is not executable in the archive (mode %o)", h.Name, h.Mode)
			}
		}
	}
	sort.Strings(names)
	if strings.Join(names, " ") != "LICENSE README.md docs/getting-started.md skillc skillc-host" || license != "MIT License" {
		t.Fatalf("archive holds %v, LICENSE starts %q", names, license)
	}
	// the version given to the release tool is what both binaries
	// report, and skillc runs skillc-host's commands from beside it
	dir := t.TempDir()
	for name, bin := range bins {
		if err := os.WriteFile(filepath.Join(dir, name), bin, 0o755); err != nil {
			t.Fatal(err)
		}
		v, err := exec.Command(filepath.Join(dir, name), "--version").Output()
		if err != nil || !strings.HasPrefix(string(v), name+" v0.0.0-releasetest ") {
			t.Errorf("%s --version = %q (%v), want the stamped v0.0.0-releasetest", name, v, err)
		}
	}
	if h, err := exec.Command(filepath.Join(dir, "skillc"), "serve", "--help").Output(); err != nil || !strings.Contains(string(h), "--otel-endpoint") {
		t.Errorf("skillc serve --help from the archive: %v\n%s", err, h)
	}
	sums, _ := os.ReadFile(filepath.Join(out, "checksums.txt"))
	sum := sha256.Sum256(data)
	if strings.TrimSpace(string(sums)) != hex.EncodeToString(sum[:])+"  "+name {
		t.Fatalf("checksums.txt = %q", sums)
	}
}
