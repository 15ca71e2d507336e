package filter

import (
	"slices"
	"testing"

	"github.com/skillscript/skillc/internal/lang"
)

// TestNamesMatchCatalog keeps the implemented filters and the language
// catalog (which the linter uses) in agreement.
func TestNamesMatchCatalog(t *testing.T) {
	got, want := Names(), lang.Filters()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("filter.Names() = %v, lang.Filters() = %v", got, want)
	}
}
