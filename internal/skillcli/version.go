package skillcli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// BuildVersion is stamped, the release version stamped into the binary
// by the release tool and the container image build (-ldflags "-X
// main.stampedVersion=v1.2.3", in both binaries), when set; else the
// module version recorded in the binary: a release tag for `go install
// ...@vX.Y.Z`, a pseudo-version for a commit, or "(devel)" for a build
// from a checkout.
func BuildVersion(stamped string) string {
	if stamped != "" {
		return stamped
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" {
		return "(devel)"
	}
	return bi.Main.Version
}

// VersionLine is what `skillc version` and `--version` print after the
// name: the module version (stamped, when set), the VCS revision and
// whether the tree was modified (when the build recorded them), and the
// Go version.
func VersionLine(stamped string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return BuildVersion(stamped) + " " + runtime.Version()
	}
	if stamped != "" {
		b := *bi
		b.Main.Version = stamped
		bi = &b
	}
	return formatBuildInfo(bi)
}

func formatBuildInfo(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	var extra []string
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		r := "rev " + rev
		if dirty {
			r += "-dirty"
		}
		extra = append(extra, r)
	}
	if when != "" {
		extra = append(extra, when)
	}
	extra = append(extra, bi.GoVersion)
	return fmt.Sprintf("%s (%s)", v, strings.Join(extra, ", "))
}
