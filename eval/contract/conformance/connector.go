package conformance

import (
	"context"
	"errors"
	"testing"

	"github.com/skillscript/skillc/eval/contract"
)

// ConnectorProbe names tools the connector under test exposes.
type ConnectorProbe struct {
	// Tool is a tool that succeeds with Args.
	Tool string
	Args map[string]any
	// ErrorTool, when set, is a tool that returns an error result.
	ErrorTool string
}

// TestConnector runs the Connector conformance suite.
func TestConnector(t *testing.T, newConn func(t *testing.T) contract.Connector, probe ConnectorProbe) {
	t.Run("HealthCheck", func(t *testing.T) {
		if err := newConn(t).HealthCheck(context.Background()); err != nil {
			t.Error(err)
		}
	})
	t.Run("ToolsListsProbe", func(t *testing.T) {
		tools, err := newConn(t).Tools(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range tools {
			if tl.Name == probe.Tool {
				return
			}
		}
		t.Errorf("Tools() does not list %q", probe.Tool)
	})
	t.Run("Call", func(t *testing.T) {
		if _, err := newConn(t).Call(context.Background(), probe.Tool, probe.Args); err != nil {
			t.Error(err)
		}
	})
	t.Run("ErrorResultIsToolError", func(t *testing.T) {
		if probe.ErrorTool == "" {
			t.Skip("no error tool")
		}
		_, err := newConn(t).Call(context.Background(), probe.ErrorTool, nil)
		var te *contract.ToolError
		if !errors.As(err, &te) {
			t.Errorf("err = %v, want *contract.ToolError", err)
		}
	})
	t.Run("CloseIsIdempotent", func(t *testing.T) {
		c := newConn(t)
		if err := c.Close(); err != nil {
			t.Error(err)
		}
		if err := c.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
	})
}
