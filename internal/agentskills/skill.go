package agentskills

import (
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/classification"
)

// FileName is the name of the file that makes a directory a package.
const FileName = "SKILL.md"

// Skill is a parsed SKILL.md: the frontmatter fields, the raw frontmatter
// and the body, with the source and its line table for positions.
type Skill struct {
	Path    string // the SKILL.md path as given
	DirName string // the package directory name the name is compared with
	Src     []byte
	Lines   *ast.LineTable

	Name          string
	Description   string
	License       string
	Compatibility string
	Metadata      map[string]string
	AllowedTools  []string
	// Class is the gateway classification read from the
	// classification.* metadata keys; nil when there are none.
	Class *classification.Classification
	// Frontmatter is every frontmatter key with its value as YAML decodes
	// it (nested maps and lists kept), for JSON output and SEP-2640.
	Frontmatter map[string]any
	// Keys holds the range of every top-level frontmatter key.
	Keys map[string]ast.Range

	// FrontmatterRange covers the YAML between the delimiter lines;
	// Body is the Markdown after the closing delimiter, LF line endings.
	FrontmatterRange ast.Range
	BodyRange        ast.Range
	Body             string

	// Comments are the YAML comments of the frontmatter and the HTML
	// comments of the body that carry "skillc:ignore" suppressions.
	Comments []*ast.Comment

	// Loadable is set when a compat loader may use the skill: the
	// frontmatter parsed and it has a name and a description.
	Loadable bool
}

// Input is what Parse reads: the file path and bytes, the name of the
// package directory (empty: not checked) and, optionally, a function
// telling whether a package-relative path exists (nil: links are not
// checked against the file system).
type Input struct {
	Path    string
	DirName string
	Src     []byte
	Exists  func(rel string) bool
}
