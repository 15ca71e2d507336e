// Command release builds skillc's release artifacts into a directory: for
// each platform of the matrix the two static binaries, skillc (the
// toolchain) and skillc-host (the runtime host, which skillc serve and
// skillc dashboard run: decision BS1), packed with LICENSE, README.md and
// docs/getting-started.md (skillc_OS_ARCH.tar.gz, .zip for Windows), a
// CycloneDX SBOM of each binary's modules (skillc.cdx.json,
// skillc-host.cdx.json), and checksums.txt (sha256) over all of them. It needs Go and the module
// proxy (the SBOM tool runs with go run at a pinned version).
//
//	go run ./internal/tools/release -out dist [-platforms linux/amd64,...] [-sbom=false]
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// sbomTool is the pinned CycloneDX generator for Go modules.
const sbomTool = "github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@v1.10.0"

// defaultPlatforms is the release matrix (Makefile RELEASE_PLATFORMS).
const defaultPlatforms = "linux/amd64,linux/arm64,darwin/amd64,darwin/arm64,windows/amd64,windows/arm64"

// extraFiles travel in every archive beside the binary.
var extraFiles = []string{"LICENSE", "README.md", "docs/getting-started.md"}

func main() {
	out := flag.String("out", "dist", "output directory (emptied first)")
	platforms := flag.String("platforms", defaultPlatforms, "comma-separated GOOS/GOARCH list")
	sbom := flag.Bool("sbom", true, "write the CycloneDX SBOMs (skillc.cdx.json, skillc-host.cdx.json)")
	flag.StringVar(&stampVersion, "version", "", "version stamped into the binaries (skillc --version), e.g. v1.2.3; empty keeps the module version")
	flag.Parse()
	if err := run(*out, strings.Split(*platforms, ","), *sbom); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(out string, platforms []string, sbom bool) error {
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	var files []string
	for _, p := range platforms {
		goos, goarch, ok := strings.Cut(strings.TrimSpace(p), "/")
		if !ok {
			return fmt.Errorf("platform %q: want GOOS/GOARCH", p)
		}
		name, err := buildArchive(out, goos, goarch)
		if err != nil {
			return err
		}
		fmt.Println("built", filepath.Join(out, name))
		files = append(files, name)
	}
	if sbom {
		for _, b := range binaries {
			name := b + ".cdx.json"
			cmd := exec.Command("go", "run", sbomTool, "app", "-json", "-licenses=false", "-output", filepath.Join(out, name), "-main", "cmd/"+b, ".")
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("sbom of %s: %w", b, err)
			}
			fmt.Println("built", filepath.Join(out, name))
			files = append(files, name)
		}
	}
	return writeChecksums(out, files)
}

// buildTags are the build tags of a release binary: urfave_cli_no_docs
// leaves urfave/cli's man-page and Markdown generators out (skillc never
// calls them; their packages' init work cost every command start-up time,
// issue 25), grpcnotrace leaves golang.org/x/net/trace out of gRPC (linked
// only through the OTLP exporter's configuration; skillc makes no gRPC
// calls). The Makefile's build, internal/tools/image/build.sh and
// internal/tools/wholebench use the same tags.
const buildTags = "urfave_cli_no_docs,grpcnotrace"

// stampVersion is the version the binaries report (-version), or "".
var stampVersion string

// ldflags are the linker flags of a release binary: stripped, and with
// the version stamped in when one is given.
func ldflags() string {
	if stampVersion == "" {
		return "-s -w"
	}
	return "-s -w -X main.stampedVersion=" + stampVersion
}

// binaries are the commands every archive holds (the runtime host's
// binary beside the toolchain's: skillc finds skillc-host there).
var binaries = []string{"skillc", "skillc-host"}

// buildArchive cross-compiles the binaries for goos/goarch (static,
// trimmed) and packs them with extraFiles; it returns the archive's file
// name.
func buildArchive(out, goos, goarch string) (string, error) {
	tmp, err := os.MkdirTemp("", "skillc-release")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	var entries [][2]string
	for _, b := range binaries {
		exe := b
		if goos == "windows" {
			exe += ".exe"
		}
		bin := filepath.Join(tmp, exe)
		cmd := exec.Command("go", "build", "-trimpath", "-tags", buildTags, "-ldflags", ldflags(), "-o", bin, "./cmd/"+b)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("%s/%s: go build %s: %w", goos, goarch, b, err)
		}
		entries = append(entries, [2]string{bin, exe})
	}
	entries = append(entries, pairs(extraFiles)...)
	name := fmt.Sprintf("skillc_%s_%s", goos, goarch)
	if goos == "windows" {
		return name + ".zip", writeZip(filepath.Join(out, name+".zip"), entries)
	}
	return name + ".tar.gz", writeTarGz(filepath.Join(out, name+".tar.gz"), entries)
}

func pairs(names []string) [][2]string {
	out := make([][2]string, len(names))
	for i, n := range names {
		out[i] = [2]string{n, n}
	}
	return out
}

// writeTarGz packs entries (source path, name in the archive).
func writeTarGz(path string, entries [][2]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		st, err := os.Stat(e[0])
		if err != nil {
			return err
		}
		mode := int64(0o644)
		if st.Mode()&0o111 != 0 {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: e[1], Mode: mode, Size: st.Size(), ModTime: st.ModTime()}); err != nil {
			return err
		}
		if err := copyFile(tw, e[0]); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	if err := gz.Close(); err != nil {
		return err
	}
	return f.Close()
}

// writeZip packs entries (source path, name in the archive).
func writeZip(path string, entries [][2]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, e := range entries {
		w, err := zw.Create(e[1])
		if err != nil {
			return err
		}
		if err := copyFile(w, e[0]); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return f.Close()
}

func copyFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

// writeChecksums writes checksums.txt in sha256sum's format.
func writeChecksums(out string, files []string) error {
	sort.Strings(files)
	var b strings.Builder
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	fmt.Print(b.String())
	return os.WriteFile(filepath.Join(out, "checksums.txt"), []byte(b.String()), 0o644)
}
