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
	"encoding/json"

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
//
// A record's frontmatter, headings, body, diagnostics and source are
// reached only through FrontmatterMap, HeadingTexts, Text, Diagnostics
// and Source: a record loaded from the cache file (Options.CacheFile)
// reads them from that file when first asked for, so a field read
// directly would be empty. Records built outside the registry (an MCP
// server's skills in Options.External) set them with SetFrontmatter and
// SetBody. The record's JSON carries the frontmatter and headings (see
// MarshalJSON).
type Record struct {
	Kind        Kind       `json:"kind"`
	Name        string     `json:"name"`
	Origin      string     `json:"origin"`
	ID          string     `json:"id"` // origin + "/" + name
	Description string     `json:"description"`
	Location    string     `json:"location"`           // SKILL.md or .skill.md, absolute
	Root        string     `json:"root_dir,omitempty"` // package directory (packages only)
	Status      string     `json:"status,omitempty"`
	Tags        []string   `json:"tags,omitempty"`
	Resources   []Resource `json:"resources"`
	Digest      string     `json:"digest"` // "sha256:<hex>"
	Contract    *Contract  `json:"contract,omitempty"`
	// Class is the gateway classification (# Classification:, or the
	// classification.* metadata keys); nil when the skill declares none.
	Class *classification.Classification `json:"classification,omitempty"`
	// ClassProblems are the classification errors ("line:col: message");
	// the gateway refuses to run or attach a skill that has any.
	ClassProblems []string `json:"classification_problems,omitempty"`
	// Domain is the package's metadata domain ("" for skillscripts).
	Domain string `json:"domain,omitempty"`
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
	// Loadable is false when the skill cannot be used (see
	// agentskills.Skill.Loadable; collisions and disabled skills too).
	Loadable bool `json:"loadable"`
	// ShadowedBy is the id of the visible skill that hides this one.
	ShadowedBy string `json:"shadowed_by,omitempty"`

	// frontmatter is the raw frontmatter; headings are the package
	// body's Markdown headings, or the skillscript's target names; body
	// is the package's Markdown body (packages only); diags are the
	// validation diagnostics of Location and src its bytes. On a record
	// loaded from the cache file all five are unset and lazy says where
	// they are.
	frontmatter map[string]any
	headings    []string
	body        string
	diags       ast.Diagnostics
	src         []byte
	rank        int
	lazy        *lazySrc
}

// Source returns the bytes of Location, read from the cache file the
// first time a cached record is asked for them. Safe for concurrent use.
func (r *Record) Source() []byte {
	if r.lazy == nil {
		return r.src
	}
	r.lazy.load()
	return r.lazy.loadedSrc
}

// Text returns the package's Markdown body, read from the cache file
// the first time a cached record is asked for it. Safe for concurrent
// use.
func (r *Record) Text() string {
	if r.lazy == nil {
		return r.body
	}
	r.lazy.load()
	return r.lazy.loadedBody
}

// FrontmatterMap returns the raw frontmatter, read from the cache file
// the first time a cached record is asked for it. Safe for concurrent
// use; the map is shared, not copied: do not modify it.
func (r *Record) FrontmatterMap() map[string]any {
	if r.lazy == nil {
		return r.frontmatter
	}
	r.lazy.loadExtra()
	return r.lazy.fm
}

// HeadingTexts returns the package body's Markdown headings, or the
// skillscript's target names (the gateway's lexical index reads them),
// read from the cache file the first time a cached record is asked for
// them. Safe for concurrent use; do not modify the slice.
func (r *Record) HeadingTexts() []string {
	if r.lazy == nil {
		return r.headings
	}
	r.lazy.loadExtra()
	return r.lazy.heads
}

// Diagnostics returns the validation diagnostics of Location (render
// them with Source), read from the cache file the first time a cached
// record is asked for them. Safe for concurrent use; do not modify
// them.
func (r *Record) Diagnostics() ast.Diagnostics {
	if r.lazy == nil {
		return r.diags
	}
	r.lazy.loadExtra()
	return r.lazy.diags
}

// SetFrontmatter sets the raw frontmatter of a record built outside the
// registry (Options.External); like the other setters it is for a
// record no other goroutine reads yet, and a cached record ignores it.
func (r *Record) SetFrontmatter(fm map[string]any) { r.frontmatter = fm }

// SetBody sets the Markdown body of a package record built outside the
// registry.
func (r *Record) SetBody(body string) { r.body = body }

// recordJSON is a Record as JSON has it: the exported fields with the
// frontmatter and headings in their places (TestRecordJSONFields keeps
// it in step with Record).
type recordJSON struct {
	Kind          Kind                           `json:"kind"`
	Name          string                         `json:"name"`
	Origin        string                         `json:"origin"`
	ID            string                         `json:"id"`
	Description   string                         `json:"description"`
	Location      string                         `json:"location"`
	Root          string                         `json:"root_dir,omitempty"`
	Frontmatter   map[string]any                 `json:"frontmatter,omitempty"`
	Status        string                         `json:"status,omitempty"`
	Tags          []string                       `json:"tags,omitempty"`
	Resources     []Resource                     `json:"resources"`
	Digest        string                         `json:"digest"`
	Contract      *Contract                      `json:"contract,omitempty"`
	Class         *classification.Classification `json:"classification,omitempty"`
	ClassProblems []string                       `json:"classification_problems,omitempty"`
	Domain        string                         `json:"domain,omitempty"`
	Headings      []string                       `json:"headings,omitempty"`
	Requires      []string                       `json:"requires,omitempty"`
	Tools         []string                       `json:"tools,omitempty"`
	Env           []string                       `json:"env,omitempty"`
	Loadable      bool                           `json:"loadable"`
	ShadowedBy    string                         `json:"shadowed_by,omitempty"`
}

// MarshalJSON encodes the record's exported fields with its frontmatter
// ("frontmatter") and headings ("headings"), read through
// FrontmatterMap and HeadingTexts so that a cached record's JSON is the
// same as a freshly parsed one's. Body, diagnostics and source are not
// part of it.
func (r Record) MarshalJSON() ([]byte, error) {
	return json.Marshal(recordJSON{
		Kind: r.Kind, Name: r.Name, Origin: r.Origin, ID: r.ID, Description: r.Description,
		Location: r.Location, Root: r.Root, Frontmatter: r.FrontmatterMap(), Status: r.Status,
		Tags: r.Tags, Resources: r.Resources, Digest: r.Digest, Contract: r.Contract, Class: r.Class,
		ClassProblems: r.ClassProblems, Domain: r.Domain, Headings: r.HeadingTexts(), Requires: r.Requires,
		Tools: r.Tools, Env: r.Env, Loadable: r.Loadable, ShadowedBy: r.ShadowedBy,
	})
}

// UnmarshalJSON decodes what MarshalJSON encodes (the frontmatter and
// headings included).
func (r *Record) UnmarshalJSON(b []byte) error {
	var j recordJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Record{
		Kind: j.Kind, Name: j.Name, Origin: j.Origin, ID: j.ID, Description: j.Description,
		Location: j.Location, Root: j.Root, frontmatter: j.Frontmatter, Status: j.Status,
		Tags: j.Tags, Resources: j.Resources, Digest: j.Digest, Contract: j.Contract, Class: j.Class,
		ClassProblems: j.ClassProblems, Domain: j.Domain, headings: j.Headings, Requires: j.Requires,
		Tools: j.Tools, Env: j.Env, Loadable: j.Loadable, ShadowedBy: j.ShadowedBy,
	}
	return nil
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
