package mcp

import (
	"testing"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/contract/conformance"
)

var probe = conformance.ConnectorProbe{Tool: "echo", Args: map[string]any{"text": "x"}, ErrorTool: "fail"}

func TestStdioConformance(t *testing.T) {
	conformance.TestConnector(t, func(t *testing.T) contract.Connector { return newStdio(t, StdioOptions{}) }, probe)
}

func TestHTTPConformance(t *testing.T) {
	conformance.TestConnector(t, func(t *testing.T) contract.Connector {
		srv, _ := newHTTPServer(t)
		c := NewHTTP(HTTPOptions{Name: "h", URL: srv.URL})
		t.Cleanup(func() { c.Close() })
		return c
	}, probe)
}
