package connectors

import (
	"encoding/json"
	"sort"
	"time"
)

// The typed readers below report a problem and return the zero value when
// a field has the wrong JSON kind.

func (p *parser) str(fl field, path string, scope map[string]string) (string, bool) {
	var s string
	if err := json.Unmarshal(fl.Raw, &s); err != nil {
		p.errorf(kindInvalidValue, fl.ValOff, path, "%s must be a string, not %s", path, kindOf(fl.Raw))
		return "", false
	}
	return p.expand(s, fl.ValOff, path, scope), true
}

func (p *parser) strList(fl field, path string, scope map[string]string) ([]string, bool) {
	var ss []string
	if err := json.Unmarshal(fl.Raw, &ss); err != nil || isNull(fl.Raw) {
		p.errorf(kindInvalidValue, fl.ValOff, path, "%s must be an array of strings, not %s", path, kindOf(fl.Raw))
		return nil, false
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = p.expand(s, fl.ValOff, path, scope)
	}
	return out, true
}

func (p *parser) strMap(fl field, path string, scope map[string]string) map[string]string {
	var m map[string]string
	if err := json.Unmarshal(fl.Raw, &m); err != nil || isNull(fl.Raw) {
		p.errorf(kindInvalidValue, fl.ValOff, path, "%s must be an object of strings, not %s", path, kindOf(fl.Raw))
		return nil
	}
	for _, k := range sortedKeys(m) {
		m[k] = p.expand(m[k], fl.ValOff, path+"."+k, scope)
	}
	return m
}

func (p *parser) nonNegInt(fl field, path string) int {
	var n int
	if err := json.Unmarshal(fl.Raw, &n); err != nil || n < 0 {
		p.errorf(kindInvalidValue, fl.ValOff, path, "%s must be a non-negative integer", path)
		return 0
	}
	return n
}

func (p *parser) millis(fl field, path string) time.Duration {
	return time.Duration(p.nonNegInt(fl, path)) * time.Millisecond
}

func (p *parser) boolean(fl field, path string) bool {
	var b bool
	if err := json.Unmarshal(fl.Raw, &b); err != nil {
		p.errorf(kindInvalidValue, fl.ValOff, path, "%s must be true or false, not %s", path, kindOf(fl.Raw))
	}
	return b
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// closest returns the candidate nearest to s by edit distance when it is
// close enough to be a plausible typo, or "".
func closest(s string, candidates []string) string {
	best, bestD := "", len(s)/2+2
	for _, c := range candidates {
		if d := editDistance(lower(s), lower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
