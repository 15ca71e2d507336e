// Package discovery feeds MCP tool surfaces discovered at run time (and
// cached on disk by eval/substrate/mcp) into the linter's context, so the
// schema rules (unknown-tool-on-connector, unknown-connector-arg,
// missing-required-connector-arg) work for connectors that declare no
// static tools. `skillc check` and the language server share it.
package discovery

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/substrate/mcp"
	"github.com/skillscript/skillc/lint"
)

// CacheDir returns the default tool cache directory under SKILLSCRIPT_HOME.
func CacheDir(home string) string {
	if home == "" {
		return ""
	}
	return filepath.Join(home, "cache", "tools")
}

// CachedTools reads the newest cache entry of connector conn in dir (stale
// entries count: a tool surface seen once is better than none for lint).
func CachedTools(dir, conn string) ([]contract.Tool, bool) {
	if dir == "" {
		return nil, false
	}
	files, _ := filepath.Glob(filepath.Join(dir, conn+"-*.tools.json"))
	sort.Strings(files)
	cache := mcp.ToolCache{Dir: dir}
	for i := len(files) - 1; i >= 0; i-- {
		key := strings.TrimSuffix(filepath.Base(files[i]), ".tools.json")
		if tools, _, ok := cache.Load(key); ok {
			return tools, true
		}
	}
	return nil, false
}

// AddCachedTools gives every connector of ctx that declares no static tools
// the tool list cached in dir, if any.
func AddCachedTools(ctx *lint.Context, dir string) {
	if ctx == nil {
		return
	}
	for name, c := range ctx.Connectors {
		if c.ToolsKnown {
			continue
		}
		tools, ok := CachedTools(dir, name)
		if !ok {
			continue
		}
		c.ToolsKnown, c.Tools = true, map[string]*lint.Tool{}
		for _, t := range tools {
			c.Tools[t.Name] = &lint.Tool{Name: t.Name, Description: t.Description, Schema: t.InputSchema, Mutating: t.Mutating}
		}
	}
}
