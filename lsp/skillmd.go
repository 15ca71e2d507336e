package lsp

import (
	"os"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/agentskills"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
	"github.com/skillscript/skillc/lint/skillmd"
)

// isSkillMD reports whether a document is an Agent Skills package file.
// Those get SKILL.md diagnostics, frontmatter hover and key completion;
// skillscript features find nothing in them and formatting leaves them
// alone.
func isSkillMD(name string) bool {
	return strings.EqualFold(filepath.Base(name), agentskills.FileName)
}

// skillMDAnalysis validates a SKILL.md (compat mode, links checked
// against the package directory when the document is a file) with the
// environment's lint options and suppressions.
func skillMDAnalysis(name string, src []byte, env *Env) Analysis {
	dir := filepath.Dir(name)
	abs, _ := filepath.Abs(dir)
	in := agentskills.Input{Path: name, DirName: filepath.Base(abs), Src: src}
	if root, err := os.OpenRoot(dir); err == nil {
		defer root.Close()
		in.Exists = func(rel string) bool { _, err := root.Stat(rel); return err == nil }
	}
	s, ds := agentskills.Parse(in, agentskills.Options{})
	var opts lint.Options
	if env != nil && env.Env != nil {
		opts = env.LintOptions
	}
	if opts.Rules == nil {
		opts.Rules = rulesets.All()
	}
	f := &ast.File{Name: name, Src: src, Lines: s.Lines, Comments: s.Comments}
	return Analysis{File: f, Info: check.Check(f), Diags: skillmd.Finish(s, ds, opts)}
}

// frontmatterKeyDocs documents the frontmatter keys for hover and
// completion.
func frontmatterKeyDocs() map[string]string {
	return map[string]string{
		"name":          "**name** (required): lowercase letters, digits and single hyphens, at most 64 characters; must equal the package directory name.",
		"description":   "**description** (required): 1 to 1024 characters saying what the skill does and when to use it. Models choose skills by it.",
		"license":       "**license** (optional): a license name or the name of a bundled license file.",
		"compatibility": "**compatibility** (optional): 1 to 500 characters of environment requirements (products, system packages, network access).",
		"metadata":      "**metadata** (optional): a map of string keys to string values for anything else (owner, version, status, tags).",
		"allowed-tools": "**allowed-tools** (optional, experimental): one space-separated string of pre-approved tools, e.g. `Bash(git:*) Read`. Advisory; it never grants permissions.",
	}
}

// skillMDKeyAt returns the top-level frontmatter key whose name covers
// off, with its range.
func (snap *snapshot) skillMDKeyAt(off int) (string, ast.Range, bool) {
	line := snap.lines.Position(ast.PosOf(off)).Line
	if line < 2 || !snap.inFrontmatter(line) {
		return "", ast.Range{}, false
	}
	text := string(snap.lines.Line(line))
	key, _, ok := strings.Cut(text, ":")
	start := snap.lines.LineStart(line)
	if !ok || key == "" || key != strings.TrimSpace(key) || off > start+len(key) {
		return "", ast.Range{}, false
	}
	return key, ast.RangeOf(start, start+len(key)), true
}

// inFrontmatter reports whether line lies between the delimiter lines.
func (snap *snapshot) inFrontmatter(line int) bool {
	if strings.TrimSpace(strings.TrimPrefix(string(snap.lines.Line(1)), "\ufeff")) != "---" {
		return false
	}
	for l := 2; l < line; l++ {
		if strings.TrimSpace(string(snap.lines.Line(l))) == "---" {
			return false
		}
	}
	return true
}

// skillMDHover documents the frontmatter key under the cursor and the
// rules of the diagnostics there.
func (s *Server) skillMDHover(snap *snapshot, off int) (any, error) {
	var parts []string
	key, rng, ok := snap.skillMDKeyAt(off)
	if doc := frontmatterKeyDocs()[key]; ok && doc != "" {
		parts = append(parts, doc)
	}
	parts = append(parts, s.diagnosticDocs(snap, off)...)
	if len(parts) == 0 {
		return nil, nil
	}
	h := &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: strings.Join(parts, "\n---\n")}}
	if ok {
		r := lspRange(snap.lines, rng)
		h.Range = &r
	}
	return h, nil
}

// skillMDCompletion offers the frontmatter keys not written yet at the
// start of a frontmatter line.
func (snap *snapshot) skillMDCompletion(off int) []protocol.CompletionItem {
	line := snap.lines.Position(ast.PosOf(off)).Line
	prefix := string(snap.src[snap.lines.LineStart(line):off])
	if line < 2 || !snap.inFrontmatter(line) || strings.ContainsAny(prefix, ": \t") {
		return []protocol.CompletionItem{}
	}
	present := map[string]bool{}
	for l := 2; l <= snap.lines.LineCount() && snap.inFrontmatter(l); l++ {
		if k, _, ok := strings.Cut(string(snap.lines.Line(l)), ":"); ok && l != line {
			present[k] = true
		}
	}
	docs := frontmatterKeyDocs()
	var items []protocol.CompletionItem
	for _, k := range agentskills.SpecKeys() {
		if !present[k] && strings.HasPrefix(k, prefix) {
			items = append(items, protocol.CompletionItem{Label: k, Kind: protocol.CompletionItemKindProperty, InsertText: protocol.NewOptional(k + ": "),
				Documentation: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: docs[k]}})
		}
	}
	return items
}
