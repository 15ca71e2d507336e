package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// GitHub writes one GitHub Actions workflow command per diagnostic:
//
//	::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=rule-id::message
//
// Warnings use ::warning and infos ::notice. A diagnostic without a position
// carries only the file. Related locations in other files are appended to
// the message as "note: file:line:col: message" lines. Property values and the message are escaped the way
// the Actions runner expects.
func GitHub(w io.Writer, results []ast.FileDiagnostics) error {
	files := newFileLines(results)
	for _, r := range results {
		lt := ast.NewLineTable(r.Src)
		for _, d := range r.Diags {
			if d == nil {
				continue
			}
			if _, err := io.WriteString(w, githubLine(r.File, lt, d, files)); err != nil {
				return err
			}
		}
	}
	return nil
}

// githubLine formats one annotation, newline included.
func githubLine(file string, lt *ast.LineTable, d *ast.Diagnostic, files *fileLines) string {
	cmd := "error"
	switch level(d.Severity) {
	case ast.Warning:
		cmd = "warning"
	case ast.Info:
		cmd = "notice"
	}
	props := []string{"file=" + escapeProperty(file)}
	if sp := spanOf(lt, d.Range); sp.valid() {
		props = append(props,
			fmt.Sprintf("line=%d", sp.Line), fmt.Sprintf("col=%d", sp.Col),
			fmt.Sprintf("endLine=%d", sp.EndLine), fmt.Sprintf("endColumn=%d", sp.EndCol))
	}
	if d.Rule != "" {
		props = append(props, "title="+escapeProperty(d.Rule))
	}
	msg := d.Message
	for _, r := range d.Related {
		if !elsewhere(file, r) {
			continue // an annotation already sits on this file
		}
		rfile, rlt := files.relatedPlace(file, lt, r)
		msg += "\nnote: " + location(rfile, spanOf(rlt, r.Range)) + ": " + r.Message
	}
	return "::" + cmd + " " + strings.Join(props, ",") + "::" + escapeData(sanitizeMessage(msg)) + "\n"
}

// escapeData escapes a workflow command message.
func escapeData(s string) string { return percentEscape(s, "%\r\n") }

// escapeProperty escapes a workflow command property value.
func escapeProperty(s string) string { return percentEscape(s, "%\r\n:,") }

// percentEscape replaces each byte of s found in set by %XX.
func percentEscape(s, set string) string {
	if !strings.ContainsAny(s, set) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(set, s[i]) >= 0 {
			fmt.Fprintf(&b, "%%%02X", s[i])
		} else {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
