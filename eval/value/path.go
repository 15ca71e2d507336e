package value

// Path follows segs from v: a segment selects a key of an object, or an
// element of a list by canonical decimal index ("0", "7", not "07" or "-1").
// It reports false when any step is missing; it never parses JSON text, so
// a string has no fields. A present null is returned as (nil, true).
func Path(v any, segs []string) (any, bool) {
	cur := v
	for _, seg := range segs {
		next, ok := step(cur, seg)
		if !ok {
			return nil, false
		}
		cur = next
	}
	return cur, true
}

func step(v any, seg string) (any, bool) {
	switch x := v.(type) {
	case *Object:
		return x.Get(seg)
	case map[string]any:
		e, ok := x[seg]
		return e, ok
	case []any:
		i, ok := index(seg)
		if !ok || i >= len(x) {
			return nil, false
		}
		return x[i], true
	}
	return nil, false
}

// index parses a canonical non-negative decimal index.
func index(seg string) (int, bool) {
	if seg == "" || len(seg) > 9 || (len(seg) > 1 && seg[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
