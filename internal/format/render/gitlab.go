package render

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// gitlabIssue is one entry of a GitLab code quality report (the Code
// Climate issue format, reduced to the members GitLab reads).
type gitlabIssue struct {
	Type        string         `json:"type"`
	CheckName   string         `json:"check_name"`
	Description string         `json:"description"`
	Categories  []string       `json:"categories"`
	Severity    string         `json:"severity"`
	Fingerprint string         `json:"fingerprint"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path      string          `json:"path"`
	Positions gitlabPositions `json:"positions"`
}

type gitlabPositions struct {
	Begin gitlabPos `json:"begin"`
	End   gitlabPos `json:"end"`
}

type gitlabPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

var gitlabDigits = regexp.MustCompile(`[0-9]+`)

// GitLab writes the diagnostics as a GitLab code quality report: a JSON
// array of Code Climate issues. Severities map error → major, warning →
// minor, info → info. The fingerprint hashes the file, rule, enclosing
// target, message (digits removed) and the occurrence number of that
// combination, never the line, so GitLab matches a finding across
// commits that move it. A diagnostic without a position points at line 1.
func GitLab(w io.Writer, results []ast.FileDiagnostics) error {
	issues := []gitlabIssue{}
	seen := map[string]int{}
	for _, r := range results {
		lt := ast.NewLineTable(r.Src)
		for _, d := range r.Diags {
			if d == nil {
				continue
			}
			sp := spanOf(lt, d.Range)
			begin, end := gitlabPos{1, 1}, gitlabPos{1, 1}
			if sp.valid() {
				begin, end = gitlabPos{sp.Line, sp.Col}, gitlabPos{sp.EndLine, sp.EndCol}
			}
			base := strings.Join([]string{r.File, d.Rule, d.Target, gitlabDigits.ReplaceAllString(d.Message, "#")}, "\x00")
			seen[base]++
			sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d", base, seen[base]))
			check := d.Rule
			if check == "" {
				check = "syntax"
			}
			issues = append(issues, gitlabIssue{
				Type: "issue", CheckName: check, Description: sanitizeMessage(d.Message),
				Categories: []string{"Bug Risk"}, Severity: gitlabSeverity(d.Severity),
				Fingerprint: hex.EncodeToString(sum[:16]),
				Location:    gitlabLocation{Path: r.File, Positions: gitlabPositions{Begin: begin, End: end}},
			})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(issues)
}

func gitlabSeverity(s ast.Severity) string {
	switch level(s) {
	case ast.Warning:
		return "minor"
	case ast.Info:
		return "info"
	}
	return "major"
}
