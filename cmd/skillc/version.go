package main

import "github.com/skillscript/skillc/internal/skillcli"

// stampedVersion is the release version stamped in by the release tool
// and the container image build (-ldflags "-X main.stampedVersion=v1.2.3");
// empty for other builds, which report the module version instead.
var stampedVersion string

// buildVersion is the stamped version, else the module version recorded
// in the binary (skillcli.BuildVersion).
func buildVersion() string { return skillcli.BuildVersion(stampedVersion) }

// versionLine is what `skillc version` and `skillc --version` print after
// the name (skillcli.VersionLine).
func versionLine() string { return skillcli.VersionLine(stampedVersion) }
