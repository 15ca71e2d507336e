package render

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// SARIF constants.
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
)

// ToolInfo describes the tool and its rules for SARIF output.
type ToolInfo struct {
	Name           string
	Version        string
	InformationURI string
	Rules          []RuleMeta
	// Root, when set, is the directory that file paths are made relative to
	// (normally the repository root); paths outside it are kept as given.
	Root string
}

// RuleMeta describes one rule in the SARIF rule table.
type RuleMeta struct {
	ID       string
	Severity ast.Severity
	Short    string
	HelpURI  string
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	ShortDescription     *sarifText      `json:"shortDescription,omitempty"`
	HelpURI              string          `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifText       `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	Fixes            []sarifFix      `json:"fixes,omitempty"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

type sarifFix struct {
	Description     *sarifText            `json:"description,omitempty"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifRegion `json:"deletedRegion"`
	InsertedContent sarifText   `json:"insertedContent"`
}

// SARIF writes results as a SARIF 2.1.0 log with a single run, in the shape
// GitHub code scanning accepts: the rule table comes from tool.Rules (rules
// seen only in results are appended), each result points at its rule by id
// and index, and locations use relative forward-slash URIs. Columns count
// Unicode code points (columnKind "unicodeCodePoints").
func SARIF(w io.Writer, results []ast.FileDiagnostics, tool ToolInfo) error {
	rules, index := sarifRules(tool.Rules, results)
	run := sarifRun{
		Tool:       sarifTool{Driver: sarifDriver{Name: tool.Name, Version: tool.Version, InformationURI: tool.InformationURI, Rules: rules}},
		ColumnKind: "unicodeCodePoints",
		Results:    []sarifResult{},
	}
	files := newFileLines(results)
	for _, r := range results {
		at := sarifPlace{file: r.File, lt: ast.NewLineTable(r.Src), root: tool.Root, files: files}
		for _, d := range r.Diags {
			if d != nil {
				run.Results = append(run.Results, sarifResultOf(at, d, index))
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}})
}

// sarifRules builds the rule table and an index from rule id to position.
// Declared rules keep their order; undeclared rule ids found in results are
// appended in order of first appearance with the severity of that result.
func sarifRules(declared []RuleMeta, results []ast.FileDiagnostics) ([]sarifRule, map[string]int) {
	rules := []sarifRule{}
	index := map[string]int{}
	add := func(m RuleMeta) {
		if _, dup := index[m.ID]; dup {
			return
		}
		r := sarifRule{ID: m.ID, HelpURI: m.HelpURI, DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(m.Severity)}}
		if m.Short != "" {
			r.ShortDescription = &sarifText{Text: m.Short}
		}
		index[m.ID] = len(rules)
		rules = append(rules, r)
	}
	for _, m := range declared {
		add(m)
	}
	for _, res := range results {
		for _, d := range res.Diags {
			if d != nil {
				add(RuleMeta{ID: ruleID(d), Severity: d.Severity})
			}
		}
	}
	return rules, index
}

// ruleID returns the rule of d, or a placeholder: SARIF results need one.
func ruleID(d *ast.Diagnostic) string {
	if d.Rule == "" {
		return "unknown"
	}
	return d.Rule
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s ast.Severity) string {
	switch level(s) {
	case ast.Warning:
		return "warning"
	case ast.Info:
		return "note"
	}
	return "error"
}

// sarifPlace is the file a SARIF result is reported in.
type sarifPlace struct {
	file  string
	lt    *ast.LineTable
	root  string
	files *fileLines
}

// sarifResultOf converts one diagnostic.
func sarifResultOf(at sarifPlace, d *ast.Diagnostic, index map[string]int) sarifResult {
	uri, lt := artifactURI(at.file, at.root), at.lt
	id := ruleID(d)
	msg := d.Message
	if msg == "" {
		msg = id
	}
	res := sarifResult{
		RuleID: id, RuleIndex: index[id], Level: sarifLevel(d.Severity), Message: sarifText{Text: msg},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: uri}, Region: sarifRegionOf(lt, d.Range)}}},
	}
	for i, rel := range d.Related {
		id := i + 1
		rfile, rlt := at.files.relatedPlace(at.file, lt, rel)
		loc := sarifLocation{ID: &id, PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: artifactURI(rfile, at.root)}, Region: sarifRegionOf(rlt, rel.Range)}}
		if rel.Message != "" {
			loc.Message = &sarifText{Text: rel.Message}
		}
		res.RelatedLocations = append(res.RelatedLocations, loc)
	}
	for _, f := range d.Fixes {
		if len(f.Edits) > 0 { // SARIF requires at least one replacement
			res.Fixes = append(res.Fixes, sarifFixOf(uri, lt, f))
		}
	}
	return res
}

// sarifFixOf converts a fix into one artifact change with a replacement per edit.
func sarifFixOf(uri string, lt *ast.LineTable, f ast.Fix) sarifFix {
	ch := sarifArtifactChange{ArtifactLocation: sarifArtifact{URI: uri}, Replacements: []sarifReplacement{}}
	for _, e := range f.Edits {
		ch.Replacements = append(ch.Replacements, sarifReplacement{DeletedRegion: sarifRegionOf(lt, e.Range), InsertedContent: sarifText{Text: e.NewText}})
	}
	fix := sarifFix{ArtifactChanges: []sarifArtifactChange{ch}}
	if f.Title != "" {
		fix.Description = &sarifText{Text: f.Title}
	}
	return fix
}

// sarifRegionOf converts a range; a missing position becomes the start of
// the file because code-scanning services require a start line.
func sarifRegionOf(lt *ast.LineTable, r ast.Range) sarifRegion {
	sp := spanOf(lt, r)
	if !sp.valid() {
		return sarifRegion{StartLine: 1, StartColumn: 1, EndLine: 1, EndColumn: 1}
	}
	return sarifRegion{StartLine: sp.Line, StartColumn: sp.Col, EndLine: sp.EndLine, EndColumn: sp.EndCol}
}

// artifactURI makes file relative to root when it lies inside it, switches
// to forward slashes and percent-encodes what a URI reference cannot hold.
func artifactURI(file, root string) string {
	p := file
	if root != "" {
		if rel, err := filepath.Rel(root, file); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			p = rel
		}
	}
	p = filepath.ToSlash(p)
	if filepath.IsAbs(file) && p == filepath.ToSlash(file) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return (&url.URL{Path: p}).String()
}
