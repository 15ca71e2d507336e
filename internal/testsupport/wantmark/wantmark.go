// Package wantmark reads the inline expectations of skill testdata:
// "# want: rule-a, rule-b" on the line a diagnostic starts on,
// "# want-above: rule" for the previous line and "# want-below: rule" for
// the next one. The lint and spec-corpus tests share it.
package wantmark

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/skillscript/skillc/ast"
)

var marker = regexp.MustCompile(`#\s*want(-above|-below)?:\s*([a-z0-9][a-z0-9, -]*)`)

// Expectations returns the sorted "line rule" pairs the markers of src expect.
func Expectations(src []byte) []string {
	var out []string
	for i, line := range strings.Split(string(src), "\n") {
		m := marker.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n := i + 1
		switch m[1] {
		case "-above":
			n--
		case "-below":
			n++
		}
		for _, id := range strings.FieldsFunc(m[2], func(r rune) bool { return r == ',' || r == ' ' }) {
			out = append(out, fmt.Sprintf("%d %s", n, id))
		}
	}
	sort.Strings(out)
	return out
}

// Got returns the sorted "line rule" pairs of ds (lines from lt).
func Got(lt *ast.LineTable, ds ast.Diagnostics) []string {
	out := make([]string, 0, len(ds))
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%d %s", lt.Position(d.Range.From).Line, d.Rule))
	}
	sort.Strings(out)
	return out
}
