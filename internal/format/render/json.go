package render

import (
	"encoding/json"
	"io"

	"github.com/skillscript/skillc/ast"
)

// jsonReport is the document written by [JSON].
type jsonReport struct {
	Diagnostics []jsonDiagnostic `json:"diagnostics"`
	Summary     Summary          `json:"summary"`
}

// jsonDiagnostic is one diagnostic of the JSON format.
type jsonDiagnostic struct {
	File      string        `json:"file"`
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"end_line"`
	EndColumn int           `json:"end_column"`
	Severity  string        `json:"severity"`
	Rule      string        `json:"rule"`
	Message   string        `json:"message"`
	Target    string        `json:"target"`
	Related   []jsonRelated `json:"related,omitempty"`
	Fixes     []jsonFix     `json:"fixes,omitempty"`
}

// jsonRelated is a related location of the JSON format.
type jsonRelated struct {
	File      string `json:"file,omitempty"` // set when not the diagnostic's file
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Message   string `json:"message"`
}

// jsonFix is a fix of the JSON format.
type jsonFix struct {
	Title string     `json:"title"`
	Edits []jsonEdit `json:"edits"`
}

// jsonEdit is a text edit of the JSON format.
type jsonEdit struct {
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	NewText   string `json:"new_text"`
}

// JSON writes every diagnostic of results as one indented JSON document:
//
//	{"diagnostics": [{"file", "line", "column", "end_line", "end_column",
//	  "severity", "rule", "message", "target", "related"?, "fixes"?}, ...],
//	 (a related location: {"file"?, "line", "column", "end_line",
//	  "end_column", "message"}; "file" appears when the location lies in
//	  another file than the diagnostic)
//	 "summary": {"files", "errors", "warnings", "infos"}}
//
// Lines and columns are 1-based, columns count characters and end columns
// are exclusive; a diagnostic without a position has zeros. "related" and
// "fixes" appear only when the diagnostic has them.
func JSON(w io.Writer, results []ast.FileDiagnostics) error {
	rep := jsonReport{Diagnostics: []jsonDiagnostic{}, Summary: Summarize(results)}
	files := newFileLines(results)
	for _, r := range results {
		lt := ast.NewLineTable(r.Src)
		for _, d := range r.Diags {
			if d != nil {
				rep.Diagnostics = append(rep.Diagnostics, jsonDiag(r.File, lt, d, files))
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// jsonDiag converts one diagnostic.
func jsonDiag(file string, lt *ast.LineTable, d *ast.Diagnostic, files *fileLines) jsonDiagnostic {
	sp := spanOf(lt, d.Range)
	out := jsonDiagnostic{
		File: file, Line: sp.Line, Column: sp.Col, EndLine: sp.EndLine, EndColumn: sp.EndCol,
		Severity: level(d.Severity).String(), Rule: d.Rule, Message: d.Message, Target: d.Target,
	}
	for _, rel := range d.Related {
		rfile, rlt := files.relatedPlace(file, lt, rel)
		rs := spanOf(rlt, rel.Range)
		if !elsewhere(file, rel) {
			rfile = ""
		}
		out.Related = append(out.Related, jsonRelated{rfile, rs.Line, rs.Col, rs.EndLine, rs.EndCol, rel.Message})
	}
	for _, f := range d.Fixes {
		jf := jsonFix{Title: f.Title, Edits: []jsonEdit{}}
		for _, e := range f.Edits {
			es := spanOf(lt, e.Range)
			jf.Edits = append(jf.Edits, jsonEdit{es.Line, es.Col, es.EndLine, es.EndCol, e.NewText})
		}
		out.Fixes = append(out.Fixes, jf)
	}
	return out
}
