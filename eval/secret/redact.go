package secret

import (
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/skillscript/skillc/eval/value"
)

// Redactor replaces secret values with their markers. The zero value knows
// no secrets. It is safe for concurrent use.
type Redactor struct {
	mu       sync.Mutex
	pairs    map[string]string // spelling of a value -> marker
	replacer *strings.Replacer
}

// Add registers the value of secret name. Empty values are ignored: they
// would match everywhere.
func (r *Redactor) Add(name, v string) {
	if v == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pairs == nil {
		r.pairs = make(map[string]string)
	}
	marker := MarkerFor(name)
	for _, spelling := range spellings(v) {
		r.pairs[spelling] = marker
	}
	r.replacer = nil
}

// snapshot returns the known spellings and their markers.
func (r *Redactor) snapshot() map[string]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]string, len(r.pairs))
	for k, v := range r.pairs {
		out[k] = v
	}
	return out
}

// addSpelling registers one spelling of a secret value.
func (r *Redactor) addSpelling(spelling, marker string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pairs == nil {
		r.pairs = make(map[string]string)
	}
	r.pairs[spelling] = marker
	r.replacer = nil
}

// spellings returns v and the encoded forms under which it tends to show
// up in error text.
func spellings(v string) []string {
	quoted := value.QuoteJSON(v)
	out := []string{v, quoted[1 : len(quoted)-1], url.QueryEscape(v), url.PathEscape(v)}
	slices.Sort(out)
	return slices.Compact(out)
}

// Redact returns s with every known secret spelling replaced by its marker.
func (r *Redactor) Redact(s string) string {
	if r == nil {
		return s
	}
	rep := r.current()
	if rep == nil {
		return s
	}
	return rep.Replace(s)
}

// current returns the replacer, building it after changes. Longer
// spellings come first so a secret that contains another is replaced whole.
func (r *Redactor) current() *strings.Replacer {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.replacer != nil || len(r.pairs) == 0 {
		return r.replacer
	}
	olds := make([]string, 0, len(r.pairs))
	for k := range r.pairs {
		olds = append(olds, k)
	}
	slices.SortFunc(olds, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	args := make([]string, 0, 2*len(olds))
	for _, o := range olds {
		args = append(args, o, r.pairs[o])
	}
	r.replacer = strings.NewReplacer(args...)
	return r.replacer
}
