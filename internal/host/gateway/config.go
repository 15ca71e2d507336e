package gateway

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
)

// Weights are the ranking weights: the lexical stage's column weights
// (bm25_*) and the bonus of each tier. A result's score is
// lexical*normalised_bm25 plus the bonuses it earns; score_breakdown
// lists each term.
type Weights struct {
	Lexical           float64 `json:"lexical"`
	RoleProcedure     float64 `json:"role_procedure"`
	RoleUtility       float64 `json:"role_utility"`
	RoleSidecarAttach float64 `json:"role_sidecar_attach"`
	StatusStable      float64 `json:"status_stable"`
	StatusExperiment  float64 `json:"status_experimental"`
	TagExact          float64 `json:"tag_exact"`
	TagPartial        float64 `json:"tag_partial"`
	NameToken         float64 `json:"name_token"`
	ReadOnly          float64 `json:"read_only"`
	// TierWindow bounds what the tiers (role, status, read_only) add
	// together: they re-rank results whose text scores are within it
	// and never lift a skill over a clearly better text match.
	TierWindow      float64 `json:"tier_window"`
	BM25Name        float64 `json:"bm25_name"`
	BM25Description float64 `json:"bm25_description"`
	BM25Tags        float64 `json:"bm25_tags"`
	BM25Headings    float64 `json:"bm25_headings"`
	// BM25Paragraph weighs a package body's first paragraph, BM25Tools
	// a skillscript's connector tools.
	BM25Paragraph float64 `json:"bm25_first_paragraph"`
	BM25Tools     float64 `json:"bm25_tools"`
	// BM25Body weighs the words of a package's whole body (its first
	// maxBodyWords).
	BM25Body float64 `json:"bm25_body"`
	// Lexicon is the weight of a synonym the lexicon adds to an intent
	// (the typed word weighs 1).
	Lexicon float64 `json:"lexicon"`
	// LexiconRelated is the weight of a topic word the related list
	// (related.txt) adds for a symptom or goal word of the intent (0:
	// off).
	LexiconRelated float64 `json:"lexicon_related"`
	// Coordination is the exponent of the share of intent terms a skill
	// matches, multiplied into its BM25F score (0: off).
	Coordination float64 `json:"coordination"`
}

// Config is the gateway's configuration: ranking weights, the word lists
// that classify an intent, and limits. Defaults come from the embedded
// defaults.json; LoadConfig overlays an operator's file on them.
type Config struct {
	Weights        Weights  `json:"weights"`
	ReadOnlyWords  []string `json:"read_only_words"`
	MutatingWords  []string `json:"mutating_words"`
	AttachWords    []string `json:"attach_words"`
	StopWords      []string `json:"stop_words"`
	MaxLimit       int      `json:"max_limit"`
	DefaultLimit   int      `json:"default_limit"`
	MaxCandidates  int      `json:"max_candidates"`
	MaxIntentBytes int      `json:"max_intent_bytes"`
	MaxTargetBytes int64    `json:"max_target_bytes"`
	// MaxScanDirs bounds the registry's scan of each skill root (the
	// --max-scan-dirs flag and SKILLSCRIPT_SKILLS_MAX_SCAN_DIRS win).
	MaxScanDirs int `json:"max_scan_dirs"`
	// CatalogBudget caps the bytes of the <available_skills> prompt block
	// (the --catalog-budget flag and SKILLSCRIPT_SKILLS_CATALOG_BUDGET win).
	CatalogBudget int `json:"catalog_budget_bytes"`
	// IndexCache is the directory of the persisted skill index of the
	// CLI ("" for the user cache directory, "off" for none; the
	// --index-cache flag and SKILLSCRIPT_SKILLS_INDEX_CACHE win).
	IndexCache string `json:"index_cache"`
	// Embeddings turns on the semantic stage of discover in the skills
	// subcommands and in skillc serve (nil: off, the default).
	Embeddings *EmbeddingsConfig `json:"embeddings,omitempty"`
}

// EmbeddingsConfig names the embeddings endpoint of the semantic stage.
// The base URL and key follow the model connector settings:
// OPENAI_BASE_URL (default https://api.openai.com/v1) and OPENAI_API_KEY
// for "openai", OLLAMA_BASE_URL (default http://127.0.0.1:11434) for
// "ollama"; base_url here wins over the environment.
//
// LocalModel instead names a localModels entry of connectors.json (the
// model connector settings): its type is the protocol and its model,
// baseUrl and apiKey are used; model and base_url here still win, and
// the environment fills what neither sets.
type EmbeddingsConfig struct {
	Protocol   string `json:"protocol,omitempty"` // "openai" or "ollama"
	Model      string `json:"model,omitempty"`
	BaseURL    string `json:"base_url,omitempty"`
	LocalModel string `json:"local_model,omitempty"`
}

//go:embed defaults.json
var defaultsJSON []byte

// DefaultConfig returns the embedded defaults.
func DefaultConfig() Config {
	var c Config
	if err := json.Unmarshal(defaultsJSON, &c); err != nil {
		panic("gateway: defaults.json: " + err.Error()) // embedded, covered by tests
	}
	return c
}

// LoadConfig reads a JSON file over the defaults: keys it sets replace
// the default values, unknown keys are an error. An empty path returns
// the defaults.
func LoadConfig(path string) (Config, error) {
	c := DefaultConfig()
	if path == "" {
		return c, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("gateway config: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("gateway config %s: %w", path, err)
	}
	if c.MaxLimit <= 0 || c.DefaultLimit <= 0 || c.DefaultLimit > c.MaxLimit || c.MaxCandidates <= 0 || c.MaxIntentBytes <= 0 || c.MaxTargetBytes <= 0 ||
		c.MaxScanDirs <= 0 || c.CatalogBudget <= 0 {
		return c, fmt.Errorf("gateway config %s: limits must be positive and default_limit at most max_limit", path)
	}
	return c, nil
}
