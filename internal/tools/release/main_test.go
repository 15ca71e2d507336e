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
// root and checks what a user downloads: the binary, LICENSE, README.md
// and the getting-started guide in the archive, and checksums.txt naming
// it with its sha256.
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
	var bin []byte
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
		if h.Name == "skillc" {
			if bin, err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
		if h.Name == "skillc" && h.Mode&0o111 == 0 {
			t.Errorf("skillc is not executable in the archive (mode %o)", h.Mode)
		}
	}
	sort.Strings(names)
	if strings.Join(names, " ") != "LICENSE README.md docs/getting-started.md skillc" || license != "MIT License" {
		t.Fatalf("archive holds %v, LICENSE starts %q", names, license)
	}
	// the version given to the release tool is what the binary reports
	exe := filepath.Join(t.TempDir(), "skillc")
	if err := os.WriteFile(exe, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	v, err := exec.Command(exe, "--version").Output()
	if err != nil || !strings.HasPrefix(string(v), "skillc v0.0.0-releasetest ") {
		t.Errorf("skillc --version = %q (%v), want the stamped v0.0.0-releasetest", v, err)
	}
	sums, _ := os.ReadFile(filepath.Join(out, "checksums.txt"))
	sum := sha256.Sum256(data)
	if strings.TrimSpace(string(sums)) != hex.EncodeToString(sum[:])+"  "+name {
		t.Fatalf("checksums.txt = %q", sums)
	}
}
