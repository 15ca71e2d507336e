package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// stampedVersion is the release version stamped in by the release tool
// and the container image build (-ldflags "-X main.stampedVersion=v1.2.3");
// empty for other builds, which report the module version instead.
var stampedVersion string

// buildVersion is the stamped version, else the module version recorded
// in the binary: a release tag for `go install ...@vX.Y.Z`, a
// pseudo-version for a commit, or "(devel)" for a build from a checkout.
func buildVersion() string {
	if stampedVersion != "" {
		return stampedVersion
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok || bi.Main.Version == "" {
		return "(devel)"
	}
	return bi.Main.Version
}

// versionLine is what `skillc version` and `skillc --version` print after
// the name: the module version, the VCS revision and whether the tree
// was modified (when the build recorded them), and the Go version.
func versionLine() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return buildVersion() + " " + runtime.Version()
	}
	if stampedVersion != "" {
		b := *bi
		b.Main.Version = stampedVersion
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
