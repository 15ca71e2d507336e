package skillcli

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/substrate/model"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	ihost "github.com/skillscript/skillc/internal/host"
	"github.com/skillscript/skillc/internal/host/gateway"
	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/leaf/connectors"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/urfave/cli/v2"
)

// ConfigFlags are the configuration flags shared by check, fmt and run.
func ConfigFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "config", Usage: "path of skillscript.config.json, trusted for policy (default: nearest upward, lint options only, then $SKILLSCRIPT_HOME)"},
		&cli.StringFlag{Name: "connectors", Usage: "path of connectors.json, trusted to start servers (default: nearest upward, lint only, then $SKILLSCRIPT_HOME)"},
		&cli.StringFlag{Name: "skills", Usage: "directory of *.skill.md files used as the skill store"},
	}
}

// DatabaseFlag is --database of the trace commands: a postgres:// URL
// reads the store several hosts share.
func DatabaseFlag() cli.Flag {
	return &cli.StringFlag{Name: "database", Usage: "trace store: postgres://... shared by the hosts given it (default: $SKILLSCRIPT_DATABASE_URL, else $SKILLSCRIPT_HOME/traces/traces.db)"}
}

// LoadOptions are the workspace loading options of a command's
// configuration flags (ConfigFlags) over the process environment.
func LoadOptions(c *cli.Context) workspace.LoadOptions {
	home, _ := os.UserHomeDir()
	return workspace.LoadOptions{
		ConfigPath: c.String("config"), ConnectorsPath: c.String("connectors"), SkillsDir: c.String("skills"),
		Env: os.LookupEnv, Home: home,
	}
}

// SkillStore opens the operator's skill store of the approval commands
// and the dashboard: the cluster's shared Postgres store when the
// configuration names one (and --skills does not), else the skill
// directory of cfg; nil when there is neither.
func SkillStore(c *cli.Context, cfg *config.Config) (contract.SkillStore, error) {
	if u, _ := cfg.Getenv(skillstore.EnvURL); u != "" && !c.IsSet("skills") {
		// the cluster's shared store: approve once, every host sees it
		return skillstore.OpenPostgres(c.Context, u, nil)
	}
	if dir := cfg.SkillsDir; dir != "" {
		return skillstore.NewFS(dir, nil)
	}
	return nil, nil
}

// HostConfig is the assembly's configuration of a command: the trace
// directory of cfg and the trace database decided by ihost.Resolve from
// the command's --database flag (when it has one),
// SKILLSCRIPT_DATABASE_URL and configDB (a configuration file's value),
// the one place the CLI chooses between them.
func HostConfig(c *cli.Context, cfg *config.Config, configDB string) ihost.Config {
	env, envSet := os.LookupEnv(ihost.EnvDatabaseURL)
	db, _ := ihost.Resolve(ihost.Layers{Flag: c.String("database"), FlagSet: c.IsSet("database"), Env: env, EnvSet: envSet, Config: configDB})
	return ihost.Config{TraceDir: cfg.TraceDir, DatabaseURL: db}
}

// Embedder builds the semantic stage's client from the gateway
// configuration's embeddings entry and the model connector settings
// (a connectors.json localModels entry named by local_model, then
// OPENAI_BASE_URL and OPENAI_API_KEY, or OLLAMA_BASE_URL).
func Embedder(e *gateway.EmbeddingsConfig, conns *connectors.File) (*gateway.HTTPEmbedder, error) {
	out := &gateway.HTTPEmbedder{Protocol: e.Protocol, Model: e.Model, BaseURL: e.BaseURL}
	if e.LocalModel != "" {
		var m *connectors.ModelSpec
		if conns != nil {
			m = conns.Model(e.LocalModel)
		}
		if m == nil {
			return nil, fmt.Errorf("gateway config: embeddings.local_model %q: connectors.json has no localModels entry of that name", e.LocalModel)
		}
		if e.Protocol != "" && e.Protocol != m.Type {
			return nil, fmt.Errorf("gateway config: embeddings.protocol %q differs from the type %q of localModels.%s: leave protocol out", e.Protocol, m.Type, e.LocalModel)
		}
		out.Protocol, out.Model, out.BaseURL, out.APIKey = m.Type, cmp.Or(e.Model, m.Model), cmp.Or(e.BaseURL, m.BaseURL), m.APIKey
	}
	switch out.Protocol {
	case "openai":
		out.BaseURL = cmp.Or(out.BaseURL, os.Getenv("OPENAI_BASE_URL"), model.DefaultOpenAIURL)
		out.APIKey = cmp.Or(out.APIKey, os.Getenv("OPENAI_API_KEY"))
	case "ollama":
		out.BaseURL = cmp.Or(out.BaseURL, os.Getenv("OLLAMA_BASE_URL"), model.DefaultOllamaURL)
	default:
		return nil, fmt.Errorf("gateway config: embeddings.protocol %q: use openai or ollama (or name a connectors.json localModels entry in embeddings.local_model)", out.Protocol)
	}
	if out.Model == "" {
		return nil, fmt.Errorf("gateway config: embeddings.model is empty: name the embedding model")
	}
	return out, nil
}

// CacheFiles names the registry's and the gateway's cache files for
// these roots and validation profile in dir ("" for the user cache
// directory's skillc folder, "off" for none): `skills` subcommands and
// skillc serve over the same roots share them.
func CacheFiles(dir string, roots []registry.Root, profile string) (reg, gw string) {
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return "", ""
		}
		dir = filepath.Join(base, "skillc")
	}
	if dir == "off" {
		return "", ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", profile)
	for _, r := range roots {
		abs, _ := filepath.Abs(r.Dir)
		fmt.Fprintf(h, "%s\x00%s\n", abs, r.Origin)
	}
	key := hex.EncodeToString(h.Sum(nil))[:16]
	return filepath.Join(dir, "registry-"+key+".gob"), filepath.Join(dir, "gateway-"+key+".idx")
}
