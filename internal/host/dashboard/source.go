package dashboard

import (
	"html/template"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/format/highlight"
)

// srcLine is one line of a skill's source, coloured, with the worst
// diagnostic that starts on it.
type srcLine struct {
	N    int
	HTML template.HTML
	Sev  string // "error", "warning", "info", "hint" or ""
}

// colour renders src as escaped HTML lines, wrapping each classified
// range in <span class="t-KIND">; a token spanning lines is closed at the
// end of each line and reopened on the next. Only the class names (from a
// fixed list) and escaped source text reach the output.
func colour(src []byte, toks []highlight.Token) []srcLine {
	var lines []srcLine
	var b strings.Builder
	open := "" // class of the span open on this line
	n := 1
	ti := 0
	flush := func() {
		if open != "" {
			b.WriteString("</span>")
		}
		lines = append(lines, srcLine{N: n, HTML: template.HTML(b.String())})
		b.Reset()
		n++
	}
	for off := 0; off < len(src); {
		for ti < len(toks) && toks[ti].Range.To.Offset() <= off {
			ti++
		}
		cls := ""
		end := len(src)
		if ti < len(toks) {
			from, to := toks[ti].Range.From.Offset(), toks[ti].Range.To.Offset()
			if from <= off {
				cls, end = "t-"+toks[ti].Kind.String(), to
			} else {
				end = from
			}
		}
		if nl := strings.IndexByte(string(src[off:end]), '\n'); nl >= 0 {
			end = off + nl
		}
		if cls != open {
			if open != "" {
				b.WriteString("</span>")
			}
			if cls != "" {
				b.WriteString(`<span class="` + cls + `">`)
			}
			open = cls
		}
		template.HTMLEscape(&b, src[off:end])
		off = end
		if off < len(src) && src[off] == '\n' {
			flush()
			off++
			if open != "" {
				b.WriteString(`<span class="` + open + `">`)
			}
		}
	}
	if len(src) == 0 || src[len(src)-1] != '\n' {
		flush()
	}
	return lines
}

// markDiagnostics sets each line's severity to the worst diagnostic
// starting on it.
func markDiagnostics(lines []srcLine, f *ast.File, diags ast.Diagnostics) {
	rank := map[string]int{"": 0, "hint": 1, "info": 2, "warning": 3, "error": 4}
	for _, dg := range diags {
		if !dg.Range.From.IsValid() {
			continue
		}
		ln := f.Lines.Position(dg.Range.From).Line
		if ln < 1 || ln > len(lines) {
			continue
		}
		sev := dg.Severity.String()
		if rank[sev] > rank[lines[ln-1].Sev] {
			lines[ln-1].Sev = sev
		}
	}
}
