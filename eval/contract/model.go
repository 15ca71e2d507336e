package contract

import "context"

// RunOptions tunes one LocalModel.Run call. The zero value asks for the
// model's defaults.
type RunOptions struct {
	// Model is the underlying model tag to use; empty means the instance's
	// default model.
	Model string
	// MaxTokens caps the completion length; 0 means no explicit cap.
	MaxTokens int
	// System is an optional system prompt.
	System string
	// Temperature, when non-nil, sets the sampling temperature.
	Temperature *float64
}

// ModelInfo describes one model a LocalModel can run.
type ModelInfo struct {
	Name string `json:"name"`
	// Size is the model size in bytes when the backend reports it.
	Size int64 `json:"size,omitempty"`
}

// ModelManifest describes a LocalModel instance.
type ModelManifest struct {
	// Implementation names the backend ("ollama", "openai").
	Implementation string `json:"implementation"`
	// DefaultModel is the model tag used when RunOptions.Model is empty.
	DefaultModel string `json:"default_model"`
	// Models are the models the backend reports as available.
	Models []ModelInfo `json:"models"`
}

// LocalModel is the contract behind `$ llm`.
type LocalModel interface {
	// Run completes prompt and returns the generated text.
	Run(ctx context.Context, prompt string, opts RunOptions) (string, error)
	// Manifest reports the instance's default model and available models.
	Manifest(ctx context.Context) (ModelManifest, error)
}
