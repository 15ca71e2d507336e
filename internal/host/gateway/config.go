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
