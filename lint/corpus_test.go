package lint

import (
	"sort"
	"strings"

	"github.com/skillscript/skillc/ast"
)

// rulesOf returns the sorted, comma-separated rule ids of ds.
func rulesOf(ds ast.Diagnostics) string {
	set := map[string]bool{}
	for _, d := range ds {
		set[d.Rule] = true
	}
	var out []string
	for r := range set {
		out = append(out, r)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
