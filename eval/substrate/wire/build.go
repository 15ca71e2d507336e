package wire

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/substrate/agent"
	"github.com/skillscript/skillc/eval/substrate/datastore"
	"github.com/skillscript/skillc/eval/substrate/mcp"
	"github.com/skillscript/skillc/eval/substrate/model"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/eval/toolcache"
	"github.com/skillscript/skillc/internal/leaf/connectors"
)

func buildConnectors(r *contract.Registry, f *connectors.File, s Settings) error {
	r.Connectors = map[string]contract.ConnectorEntry{}
	cache := toolcache.Cache{Dir: s.CacheDir, TTL: s.CacheTTL, Now: s.Now}
	for _, c := range f.Connectors {
		conn, err := mcp.FromConfig(c, cache)
		if err != nil {
			return err
		}
		r.Connectors[c.Name] = contract.ConnectorEntry{
			Connector: conn, AllowedTools: c.AllowedTools, Mutating: c.Mutating,
			MutatingTools: c.MutatingTools, ReadOnly: c.ReadOnly, Tools: mcp.StaticTools(c.Tools),
		}
	}
	return nil
}

// buildModels registers one instance per model spec; with none, a default
// Ollama at OLLAMA_BASE_URL without a model tag (so only model= calls
// work, and an absent server gives a clear error at use).
func buildModels(r *contract.Registry, f *connectors.File, s Settings) error {
	r.Models = map[string]contract.LocalModel{}
	if f.Substrate.LocalModel.Null {
		return nil
	}
	if f.Substrate.LocalModel.Type == "custom" {
		s.warn("substrate.local_model of type custom cannot be loaded by skillc; wire it programmatically (using the default)")
	}
	if len(f.Models) == 0 {
		m, _ := model.NewOllama(model.OllamaOptions{BaseURL: s.env("OLLAMA_BASE_URL")})
		r.Models["default"], r.DefaultModel = m, "default"
		return nil
	}
	for _, spec := range f.Models {
		m, err := newModel(spec, s)
		if err != nil {
			return fmt.Errorf("local model %q: %w", spec.Name, err)
		}
		r.Models[spec.Name] = m
	}
	r.DefaultModel = f.DefaultModel
	return nil
}

func newModel(spec *connectors.ModelSpec, s Settings) (contract.LocalModel, error) {
	if spec.Type == "openai" {
		return model.NewOpenAI(model.OpenAIOptions{
			BaseURL: first(spec.BaseURL, s.env("OPENAI_BASE_URL")), APIKey: first(spec.APIKey, s.env("OPENAI_API_KEY")),
			Model: spec.Model, MaxTokens: spec.MaxTokens, Timeout: spec.Timeout,
		})
	}
	return model.NewOllama(model.OllamaOptions{
		BaseURL: first(spec.BaseURL, s.env("OLLAMA_BASE_URL")), Model: spec.Model, MaxTokens: spec.MaxTokens, Timeout: spec.Timeout,
	})
}

func buildDataStore(slot connectors.Slot, s Settings) (contract.DataStore, error) {
	if slot.Null {
		return nil, nil
	}
	if slot.Type == "custom" {
		s.warn("substrate.data_store of type custom cannot be loaded by skillc; wire it programmatically (using the embedded sqlite store)")
	}
	path := first(slot.ConfigString("dbPath"), s.env("DATA_DB"), filepath.Join(s.Home, "data.db"))
	st, err := datastore.Open(path, datastore.Options{Now: s.Now})
	if err != nil {
		return nil, err
	}
	return st, nil
}

func buildSkillStore(slot connectors.Slot, s Settings) (contract.SkillStore, error) {
	// a cluster's shared store: SKILLSCRIPT_SKILL_STORE_URL over a
	// {"type": "postgres", "config": {"url": ...}} slot
	if u := first(s.env(skillstore.EnvURL), postgresSlotURL(slot)); u != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return skillstore.OpenPostgres(ctx, u, s.Now)
	}
	if slot.Null {
		return nil, nil
	}
	if slot.Type == "custom" {
		s.warn("substrate.skill_store of type custom cannot be loaded by skillc; wire it programmatically (using the filesystem store)")
	}
	if slot.Type == "sqlite" {
		return skillstore.OpenSQLite(first(slot.ConfigString("dbPath"), filepath.Join(s.Home, "skills", "skills.db")), s.Now)
	}
	return skillstore.NewFS(first(slot.ConfigString("dir"), filepath.Join(s.Home, "skills")), s.Now)
}

// postgresSlotURL is the url of a postgres skill store slot, "" for any
// other slot.
func postgresSlotURL(slot connectors.Slot) string {
	if slot.Type != "postgres" {
		return ""
	}
	return slot.ConfigString("url")
}

func buildAgents(r *contract.Registry, slot connectors.Slot, s Settings) error {
	switch slot.Type {
	case "webhook":
		w, err := webhookFrom(slot.Config)
		if err != nil {
			return err
		}
		r.Agents = []contract.AgentConnector{w}
	case "filedrop":
		dir := first(slot.ConfigString("dir"), filepath.Join(s.Home, "outbox"))
		r.Agents = []contract.AgentConnector{&agent.FileDrop{Dir: dir, Agents: stringList(slot.Config["agents"]), Now: s.Now}}
	default:
		if slot.Type == "custom" {
			s.warn("substrate.agent_connector of type custom cannot be loaded by skillc; wire it programmatically (using the NoOp connector)")
		}
		r.Agents = []contract.AgentConnector{&agent.NoOp{Log: s.Log, Now: s.Now}}
	}
	return nil
}

// webhookFrom reads {"agents": {id: {"url", "wake_url", "name"}},
// "bearer_token", "hmac_secret", "signature_header"}.
func webhookFrom(cfg map[string]any) (*agent.Webhook, error) {
	raw, _ := cfg["agents"].(map[string]any)
	if len(raw) == 0 {
		return nil, fmt.Errorf("substrate.agent_connector (webhook) needs config.agents: {\"<agent-id>\": {\"url\": ...}}")
	}
	agents := map[string]agent.WebhookAgent{}
	ids := make([]string, 0, len(raw))
	for id := range raw {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		a, _ := raw[id].(map[string]any)
		url, _ := a["url"].(string)
		if url == "" {
			return nil, fmt.Errorf("substrate.agent_connector (webhook): agent %q needs a url", id)
		}
		wake, _ := a["wake_url"].(string)
		name, _ := a["name"].(string)
		agents[id] = agent.WebhookAgent{URL: url, WakeURL: wake, Name: name}
	}
	str := func(k string) string { v, _ := cfg[k].(string); return v }
	return agent.NewWebhook(agent.WebhookOptions{Agents: agents, BearerToken: str("bearer_token"), HMACSecret: str("hmac_secret"), SignatureHeader: str("signature_header")}), nil
}

func stringList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
