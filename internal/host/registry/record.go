// Package registry is the one skill registry behind every skill tool: it
// indexes Agent Skills packages (a directory holding SKILL.md) and
// skillscripts (*.skill.md) from several roots into one catalog of
// records, resolves names by origin precedence, reports shadowed and
// colliding skills, hashes every package file, and reloads when files
// change.
//
// The kind of a skill is decided by file name, never by content: a
// directory holding SKILL.md is a package and is not descended into (a
// *.skill.md inside it is one of its resources); any other *.skill.md is a
// skillscript. Compiled *.skill files and provenance files are ignored.
package registry

import (
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/classification"
)

// Kind is the kind of a skill.
type Kind string

// The two kinds.
const (
	KindPackage Kind = "agentskill"  // a directory with SKILL.md
	KindScript  Kind = "skillscript" // a <name>.skill.md file
)

// The origin labels of local roots; remote skills use "mcp:<server>".
const (
	OriginProject = "project"
	OriginUser    = "user"
	OriginConfig  = "config"
)

// Resource is one file of a package: its path relative to the package
// root (slash-separated), its size and the sha256 of its bytes.
type Resource struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Contract is what a skillscript declares to its callers.
type Contract struct {
	Vars    []string `json:"vars,omitempty"`
	Returns []string `json:"returns,omitempty"`
	Output  []string `json:"output,omitempty"`
	Type    string   `json:"type,omitempty"`
}

// Record is one indexed skill of either kind.
type Record struct {
	Kind        Kind   `json:"kind"`
	Name        string `json:"name"`
	Origin      string `json:"origin"`
	ID          string `json:"id"` // origin + "/" + name
	Description string `json:"description"`
	Location    string `json:"location"`           // SKILL.md or .skill.md, absolute
	Root        string `json:"root_dir,omitempty"` // package directory (packages only)
	// Frontmatter is the raw frontmatter. A record loaded from the cache
	// file (Options.CacheFile) has it nil until read: read it with
	// FrontmatterMap.
	Frontmatter map[string]any `json:"frontmatter,omitempty"`
	Status      string         `json:"status,omitempty"`
	Tags        []string       `json:"tags,omitempty"`
	Resources   []Resource     `json:"resources"`
	Digest      string         `json:"digest"` // "sha256:<hex>"
	Contract    *Contract      `json:"contract,omitempty"`
	// Class is the gateway classification (# Classification:, or the
	// classification.* metadata keys); nil when the skill declares none.
	Class *classification.Classification `json:"classification,omitempty"`
	// ClassProblems are the classification errors ("line:col: message");
	// the gateway refuses to run or attach a skill that has any.
	ClassProblems []string `json:"classification_problems,omitempty"`
	// Domain is the package's metadata domain ("" for skillscripts).
	Domain string `json:"domain,omitempty"`
	// Headings are the package body's Markdown headings, or the
	// skillscript's target names (the gateway's lexical index reads them).
	// A record loaded from the cache file has them nil until read: read
	// them with HeadingTexts.
	Headings []string `json:"headings,omitempty"`
	// Requires are the connectors the skill dispatches to ($ conn.tool)
	// or, for a package, its metadata requires (space-separated).
	Requires []string `json:"requires,omitempty"`
	// Tools are the connector tools a skillscript dispatches to
	// ("conn.tool", sorted; the gateway's lexical index reads them).
	Tools []string `json:"tools,omitempty"`
	// Env are the environment variables a caller of skills_run_script
	// may set for the package's scripts: its metadata env
	// (space-separated names; packages only).
	Env []string `json:"env,omitempty"`
	// Body is the package's Markdown body (packages only). A record
	// loaded from the cache file (Options.CacheFile) has it empty until
	// read: read it with Text.
	Body string `json:"-"`
	// Loadable is false when the skill cannot be used (see
	// agentskills.Skill.Loadable; collisions and disabled skills too).
	Loadable bool `json:"loadable"`
	// ShadowedBy is the id of the visible skill that hides this one.
	ShadowedBy string `json:"shadowed_by,omitempty"`
	// Diags are the validation diagnostics of Location (Src holds its
	// bytes for rendering). A record loaded from the cache file has Diags
	// and Src nil until read: read them with Diagnostics and Source.
	Diags ast.Diagnostics `json:"-"`
	Src   []byte          `json:"-"`
	rank  int
	lazy  *lazySrc // where a cached record's Src and Body are
}

// Source returns the bytes of Location (Src), read from the cache file
// the first time a cached record is asked for them.
func (r *Record) Source() []byte {
	if r.lazy == nil {
		return r.Src
	}
	r.lazy.load()
	return r.lazy.loadedSrc
}

// Text returns the package's Markdown body (Body), read from the cache
// file the first time a cached record is asked for it.
func (r *Record) Text() string {
	if r.lazy == nil {
		return r.Body
	}
	r.lazy.load()
	return r.lazy.loadedBody
}

// FrontmatterMap returns the raw frontmatter (Frontmatter), read from
// the cache file the first time a cached record is asked for it.
func (r *Record) FrontmatterMap() map[string]any {
	if r.lazy == nil {
		return r.Frontmatter
	}
	r.lazy.loadExtra()
	return r.lazy.fm
}

// HeadingTexts returns the headings (Headings), read from the cache
// file the first time a cached record is asked for them.
func (r *Record) HeadingTexts() []string {
	if r.lazy == nil {
		return r.Headings
	}
	r.lazy.loadExtra()
	return r.lazy.heads
}

// Diagnostics returns the validation diagnostics (Diags), read from the
// cache file the first time a cached record is asked for them.
func (r *Record) Diagnostics() ast.Diagnostics {
	if r.lazy == nil {
		return r.Diags
	}
	r.lazy.loadExtra()
	return r.lazy.diags
}

// Visible reports whether the model may see and load the skill.
func (r *Record) Visible() bool {
	return r.Loadable && r.ShadowedBy == "" && r.Status != "Disabled"
}

// inFile returns d as a registry-level problem about the file or folder
// at path (a scan limit, a collision, a shadowed skill): the one
// diagnostic type, with its File set.
func inFile(path string, d *ast.Diagnostic) *ast.Diagnostic {
	d.File = path
	return d
}

// originRank orders origins: project, user, configured roots, then MCP.
func originRank(origin string) int {
	switch {
	case origin == OriginProject:
		return 0
	case origin == OriginUser:
		return 1
	case len(origin) >= 4 && origin[:4] == "mcp:":
		return 3
	}
	return 2
}
