package conformance

import (
	"context"
	"testing"

	"github.com/skillscript/skillc/eval/contract"
)

// TestLocalModel runs the LocalModel conformance suite against a model
// whose backend answers prompts.
func TestLocalModel(t *testing.T, newModel func(t *testing.T) contract.LocalModel) {
	t.Run("RunReturnsText", func(t *testing.T) {
		out, err := newModel(t).Run(context.Background(), "Say hello.", contract.RunOptions{MaxTokens: 16})
		if err != nil || out == "" {
			t.Errorf("Run = %q, %v", out, err)
		}
	})
	t.Run("ManifestNamesDefault", func(t *testing.T) {
		m, err := newModel(t).Manifest(context.Background())
		if err != nil || m.DefaultModel == "" || m.Implementation == "" {
			t.Errorf("Manifest = %+v, %v", m, err)
		}
	})
	t.Run("CancelledContextFails", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := newModel(t).Run(ctx, "x", contract.RunOptions{}); err == nil {
			t.Error("Run with a cancelled context succeeded")
		}
	})
}
