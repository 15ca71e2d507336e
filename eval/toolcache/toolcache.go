// Package toolcache is the on-disk format of discovered MCP tool lists:
// one JSON file per connector configuration under a cache directory
// (SKILLSCRIPT_HOME/cache/tools by default). The MCP connector
// (eval/substrate/mcp) writes it after a live tools/list; the linter's
// workspace (internal/workspace) reads it so that the schema rules know
// the tools of connectors that declare none statically. The package is a
// leaf: it imports only the tool description of eval/contract.
package toolcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skillscript/skillc/eval/contract"
)

// DefaultTTL is how long a discovered tool list stays fresh.
const DefaultTTL = 24 * time.Hour

// fileSuffix ends every cache file name.
const fileSuffix = ".tools.json"

// Cache stores discovered tool lists on disk, one file per connector
// configuration. The zero value (empty Dir) caches nothing.
type Cache struct {
	// Dir is the cache directory; empty disables the disk cache.
	Dir string
	// TTL is the freshness window; 0 means DefaultTTL.
	TTL time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// entry is the JSON form of one cache file.
type entry struct {
	Connector string          `json:"connector"`
	FetchedAt time.Time       `json:"fetched_at"`
	Tools     []contract.Tool `json:"tools"`
}

// DefaultDir returns the default cache directory under SKILLSCRIPT_HOME
// (home), or "" when home is unknown.
func DefaultDir(home string) string {
	if home == "" {
		return ""
	}
	return filepath.Join(home, "cache", "tools")
}

// Key derives a stable cache file key from a connector name and the parts
// of its configuration that identify the server.
func Key(name string, identity ...string) string {
	h := sha256.New()
	for _, s := range identity {
		fmt.Fprintf(h, "%s\x00", s)
	}
	return name + "-" + hex.EncodeToString(h.Sum(nil))[:12]
}

func (c Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c Cache) ttl() time.Duration {
	if c.TTL > 0 {
		return c.TTL
	}
	return DefaultTTL
}

func (c Cache) path(key string) string { return filepath.Join(c.Dir, key+fileSuffix) }

// Load returns the cached list and whether it is still fresh; ok is false
// when there is no readable entry.
func (c Cache) Load(key string) (tools []contract.Tool, fresh, ok bool) {
	if c.Dir == "" {
		return nil, false, false
	}
	b, err := os.ReadFile(c.path(key))
	if err != nil {
		return nil, false, false
	}
	var e entry
	if json.Unmarshal(b, &e) != nil {
		return nil, false, false
	}
	return e.Tools, c.now().Sub(e.FetchedAt) < c.ttl(), true
}

// Store writes the list for key (atomically, through a temporary file).
func (c Cache) Store(key, connector string, tools []contract.Tool) error {
	if c.Dir == "" {
		return nil
	}
	b, err := json.MarshalIndent(entry{Connector: connector, FetchedAt: c.now().UTC(), Tools: tools}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.Dir, 0o755); err != nil {
		return err
	}
	tmp := c.path(key) + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, c.path(key))
}

// Newest returns the tools of the newest readable entry of connector conn,
// fresh or stale: a tool surface seen once is better than none for lint.
// ok is false when the cache holds no entry for conn.
func (c Cache) Newest(conn string) ([]contract.Tool, bool) {
	if c.Dir == "" {
		return nil, false
	}
	files, _ := filepath.Glob(filepath.Join(c.Dir, conn+"-*"+fileSuffix))
	sort.Strings(files)
	for i := len(files) - 1; i >= 0; i-- {
		key := strings.TrimSuffix(filepath.Base(files[i]), fileSuffix)
		if tools, _, ok := c.Load(key); ok {
			return tools, true
		}
	}
	return nil, false
}
