package skillcli

import (
	"runtime/debug"
	"testing"
)

func TestFormatBuildInfo(t *testing.T) {
	cases := []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.4.1"}}, "v0.4.1 (go1.26.0)"},
		{debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-25T06:00:00Z"}, {Key: "vcs.modified", Value: "true"},
		}}, "(devel) (rev 0123456789ab-dirty, 2026-11-25T06:00:00Z, go1.26.0)"},
		{debug.BuildInfo{GoVersion: "go1.26.0", Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}}, "(devel) (rev abc, go1.26.0)"},
	}
	for _, c := range cases {
		if got := formatBuildInfo(&c.bi); got != c.want {
			t.Errorf("formatBuildInfo = %q, want %q", got, c.want)
		}
	}
}
