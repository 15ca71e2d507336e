package telemetry

import (
	"context"
	"testing"
)

// The endpoint follows the flag, then the standard variables: a base URL
// gets /v1/traces, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as is,
// OTEL_SDK_DISABLED and no endpoint turn tracing off, a URL that is not
// http(s) is refused.
func TestOpenEndpoint(t *testing.T) {
	for _, tc := range []struct {
		name, flag string
		env        map[string]string
		want       string // "" : off
		err        bool
	}{
		{name: "off by default"},
		{name: "flag base URL", flag: "http://127.0.0.1:4318", want: "http://127.0.0.1:4318/v1/traces"},
		{name: "flag full URL", flag: "http://127.0.0.1:4318/custom", want: "http://127.0.0.1:4318/custom"},
		{name: "flag over env", flag: "http://a:1", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://b:2"}, want: "http://a:1/v1/traces"},
		{name: "base env", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://b:2/"}, want: "http://b:2/v1/traces"},
		{name: "traces env", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://b:2", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://c:3/t"}, want: "https://c:3/t"},
		{name: "disabled", flag: "http://a:1", env: map[string]string{"OTEL_SDK_DISABLED": "true"}},
		{name: "not http", flag: "grpc://a:1", err: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := Open(context.Background(), Options{Endpoint: tc.flag, Getenv: func(k string) string { return tc.env[k] }})
			if tc.err {
				if err == nil {
					t.Errorf("Open(%q) = %v, want an error", tc.flag, tr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer tr.Shutdown(context.Background())
			got := ""
			if tr != nil {
				got = tr.Endpoint
			}
			if got != tc.want {
				t.Errorf("endpoint = %q, want %q", got, tc.want)
			}
		})
	}
}
