package contract

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"one\ntwo", "one"},
		{"\n\nlead  \r\nrest", "lead"},
		{strings.Repeat("x", 250), strings.Repeat("x", 200)},
		{"", ""},
	}
	for _, tc := range tests {
		if got := Summarize(tc.in); got != tc.want {
			t.Errorf("Summarize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCheckFilters(t *testing.T) {
	m := DataManifest{SupportedFilters: []string{"recipient", "metadata.*"}}
	if err := CheckFilters(m, map[string]any{"recipient": "a", "metadata.team": "x"}, false); err != nil {
		t.Errorf("declared filters rejected: %v", err)
	}
	err := CheckFilters(m, map[string]any{"vault": 1, "metadata.": 2, "tenant": 3}, false)
	var ufe *UnsupportedFilterError
	if !errors.As(err, &ufe) || strings.Join(ufe.Keys, ",") != "metadata.,tenant,vault" {
		t.Errorf("err = %v", err)
	}
	if err := CheckFilters(m, map[string]any{"vault": 1}, true); err != nil {
		t.Errorf("permissive: %v", err)
	}
}

func TestExpiryFromValue(t *testing.T) {
	sec := time.Unix(1700000000, 0).UTC()
	tests := []struct {
		in   any
		want *time.Time
	}{
		{nil, nil},
		{"null", nil},
		{float64(1700000000), &sec},
		{int64(1700000000000), &sec},
		{"1700000000", &sec},
		{"2023-11-14T22:13:20Z", &sec},
	}
	for _, tc := range tests {
		got, err := ExpiryFromValue(tc.in)
		if err != nil || (got == nil) != (tc.want == nil) || (got != nil && !got.Equal(*tc.want)) {
			t.Errorf("ExpiryFromValue(%v) = %v, %v", tc.in, got, err)
		}
	}
	for _, bad := range []any{"tomorrow", true, "12abc"} {
		if _, err := ExpiryFromValue(bad); err == nil {
			t.Errorf("ExpiryFromValue(%v) accepted", bad)
		}
	}
}

func TestCanonicalStatus(t *testing.T) {
	for in, want := range map[string]string{"draft": "Draft", "APPROVED v3:sig": "Approved v3:sig", " Disabled ": "Disabled"} {
		if got, ok := CanonicalStatus(in); !ok || got != want {
			t.Errorf("CanonicalStatus(%q) = %q, %v", in, got, ok)
		}
	}
	if _, ok := CanonicalStatus("shipped"); ok {
		t.Error("unknown status accepted")
	}
}

func TestRegistryLookups(t *testing.T) {
	r := &Registry{Connectors: map[string]ConnectorEntry{
		"gh": {Connector: nilConnector{}, AllowedTools: []string{}},
		"yt": {Connector: nilConnector{}, MutatingTools: []string{"create_comment"}, Tools: []Tool{{Name: "drop", Mutating: true}}},
	}}
	if _, err := r.Connector("gh", "anything"); !errors.As(err, new(*ToolNotAllowedError)) {
		t.Errorf("empty allowlist: %v", err)
	}
	e, err := r.Connector("yt", "list")
	if err != nil || !e.IsMutating("create_comment") || !e.IsMutating("drop") || e.IsMutating("list") {
		t.Errorf("yt: %v %+v", err, e)
	}
	var nf *ConnectorNotFoundError
	if _, err := r.Connector("primary", ""); !errors.As(err, &nf) || !strings.Contains(err.Error(), "primary") {
		t.Errorf("primary: %v", err)
	}
	var zero Registry
	if _, err := zero.Model(""); err == nil {
		t.Error("zero registry has a model")
	}
	if err := zero.Close(); err != nil {
		t.Errorf("zero Close: %v", err)
	}
}

func TestAddresses(t *testing.T) {
	if a, s := SplitAgentAddress("alice@tab-3"); a != "alice" || s != "tab-3" || !IsSessionAddress("alice@tab-3") {
		t.Errorf("split = %q %q", a, s)
	}
	if ResolveSession("alice@t1", WakeOptions{SessionID: "t2"}) != "t2" || ResolveSession("alice@t1", WakeOptions{}) != "t1" {
		t.Error("ResolveSession precedence wrong")
	}
	p := DeliveryPayload{Kind: KindTemplate, Content: "play", Meta: DeliveryMeta{DispatchID: "d"}}
	if w := p.Wire(); w["prompt"] != "play" || w["content"] != nil {
		t.Errorf("template wire = %v", w)
	}
}

type nilConnector struct{ Connector }

func (nilConnector) Close() error { return nil }
