package lint

import (
	"hash/maphash"
	"math/bits"
	"strings"
	"sync"

	"github.com/skillscript/skillc/internal/leaf/textdist"
)

// closest returns the one candidate close to name ("did you mean"), or ""
// when there is none or when several are equally close. A candidate that
// differs only in case is always close.
func closest(name string, candidates []string) string {
	if name == "" {
		return ""
	}
	p := newPick()
	var rows []int // distance's scratch
	limit := maxDistance(name)
	for _, c := range candidates {
		if c == name || c == "" {
			continue
		}
		p.offer(c, distance(name, c, limit, &rows))
	}
	return p.result(limit)
}

// pick keeps the closest candidate offered so far and how many others
// were as close.
type pick struct {
	best       string
	dist, ties int
}

func newPick() pick { return pick{dist: 1 << 30} }

// offer considers candidate c at distance d.
func (p *pick) offer(c string, d int) {
	switch {
	case d < p.dist:
		p.best, p.dist, p.ties = c, d, 0
	case d == p.dist && c != p.best:
		p.ties++
	}
}

// result is the single closest candidate within limit+1, or "" when there
// is none or several tie.
func (p *pick) result(limit int) string {
	if p.dist > limit+1 || p.ties > 0 {
		return ""
	}
	return p.best
}

// nameSet is a list of did-you-mean candidates prepared for many look-ups
// (closestIn): each ASCII name's set of lowered bytes as a 64-bit
// signature, which bounds its distance to another name from below.
type nameSet struct {
	names []string
	sigs  []uint64 // 0 for a name that is not ASCII (always compared)
	// key identifies the names (not their order) for the memo of
	// answers: two sums of per-name hashes under independent seeds, over
	// the names as given to addKey (a repeated name counts again: another
	// key for the same set only misses the memo)
	key [2]uint64
	// fill, when not nil, makes names on first need (the key is known
	// without them)
	fill func() []string
	// mu guards the fill: the language server's lane and whole analysis
	// of one document may share the skill scope's set (Kept.root)
	mu sync.Mutex
}

// newNameSet prepares names for closestIn.
func newNameSet(names []string) *nameSet {
	ns := &nameSet{}
	for _, n := range names {
		ns.addKey(n)
	}
	ns.setNames(names)
	return ns
}

// addKey adds name to the key of ns.
func (ns *nameSet) addKey(name string) {
	ns.key[0] += maphash.String(memoSeeds[0], name)
	ns.key[1] += maphash.String(memoSeeds[1], name)
}

// setNames sets the names of ns and their signatures.
func (ns *nameSet) setNames(names []string) {
	ns.names, ns.sigs = names, make([]uint64, len(names))
	for i, n := range names {
		if isASCII(n) {
			ns.sigs[i] = signature(n)
		}
	}
}

// memoSeeds are the seeds of nameSet.key.
var memoSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// suggestMemo remembers closestIn's answers by name and candidate set:
// the language server analyses the same text again after every edit,
// and a file with hundreds of unresolved references (each compared with
// thousands of names) asks the same questions each time. Bounded: it
// starts over once full.
var suggestMemo struct {
	sync.Mutex
	m map[memoKey]string
}

// memoKey is one question of closestIn.
type memoKey struct {
	name string
	set  [2]uint64
}

// maxSuggestMemo bounds the answers remembered.
const maxSuggestMemo = 1 << 14

// signature returns the set of lowered bytes of the ASCII s, folded onto
// 64 bits (distinct bytes may share a bit), with bit 63 always set so
// that no ASCII signature is 0.
func signature(s string) uint64 {
	sig := uint64(1) << 63
	for i := 0; i < len(s); i++ {
		sig |= 1 << (lowerASCII(s[i]) % 63)
	}
	return sig
}

// closestIn is closest over the names of ns. A name whose signature shows
// more than limit bytes of one string missing from the other is skipped:
// each such byte needs an edit of its own (a deletion or substitution;
// a transposition adds or removes none), so its distance exceeds limit
// and closest would neither suggest it nor count it as a tie.
func closestIn(name string, ns *nameSet) string {
	if name == "" {
		return ""
	}
	key := memoKey{name, ns.key}
	suggestMemo.Lock()
	s, ok := suggestMemo.m[key]
	suggestMemo.Unlock()
	if ok {
		return s
	}
	s = closestScan(name, ns)
	suggestMemo.Lock()
	if len(suggestMemo.m) >= maxSuggestMemo || suggestMemo.m == nil {
		suggestMemo.m = make(map[memoKey]string)
	}
	suggestMemo.m[key] = s
	suggestMemo.Unlock()
	return s
}

// closestScan is closestIn without the memo.
func closestScan(name string, ns *nameSet) string {
	ns.mu.Lock()
	if ns.fill != nil {
		ns.setNames(ns.fill())
		ns.fill = nil
	}
	ns.mu.Unlock()
	p := newPick()
	var rows []int // distance's scratch
	limit := maxDistance(name)
	var sig uint64
	if isASCII(name) {
		sig = signature(name)
	}
	for i, c := range ns.names {
		if c == name || c == "" {
			continue
		}
		if cs := ns.sigs[i]; sig != 0 && cs != 0 &&
			max(bits.OnesCount64(sig&^cs), bits.OnesCount64(cs&^sig)) > limit {
			continue
		}
		p.offer(c, distance(name, c, limit, &rows))
	}
	return p.result(limit)
}

// maxDistance is the largest edit distance still considered a typo.
func maxDistance(name string) int {
	switch n := len(name); {
	case n <= 2:
		return 0 // only a case-only difference is a plausible typo
	case n <= 4:
		return 1
	case n <= 8:
		return 2
	default:
		return 3
	}
}

// distance is one more than the edit distance between a and b, and 0 for
// a case-only difference; it gives up with limit+2 once the lengths differ
// by more than limit. Any answer above limit+1 is as good as another to
// closest (such a candidate is never suggested nor a tie of one), so the
// ASCII path stops with limit+2 as soon as the distance exceeds limit.
func distance(a, b string, limit int, rows *[]int) int {
	if isASCII(a) && isASCII(b) {
		return asciiDistance(a, b, limit, rows)
	}
	if strings.EqualFold(a, b) {
		return 0
	}
	if abs(len(a)-len(b)) > limit {
		return limit + 2
	}
	// a case-only difference is a closer match than any real edit
	return textdist.Distance(strings.ToLower(a), strings.ToLower(b)) + 1
}

// maxCompared is the length beyond which textdist.Distance does not
// compare (its answer is then a large number).
const maxCompared = 128

// asciiDistance is distance for ASCII a and b without allocating (rows
// is scratch space kept by the caller across calls): the
// Damerau–Levenshtein distance (optimal string alignment) of the lowered
// bytes, as textdist.Distance computes it, row by row, stopping once a
// whole row exceeds limit (a row's minimum never decreases).
func asciiDistance(a, b string, limit int, rows *[]int) int {
	if len(a) == len(b) && asciiEqualFold(a, b) {
		return 0
	}
	if abs(len(a)-len(b)) > limit || len(a) > maxCompared || len(b) > maxCompared {
		return limit + 2
	}
	n := len(b) + 1
	if cap(*rows) < 3*n {
		*rows = make([]int, 3*(maxCompared+1))
	}
	r := (*rows)[:3*n]
	prev2, prev, cur := r[:n], r[n:2*n], r[2*n:3*n]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := i
		ai := lowerASCII(a[i-1])
		for j := 1; j <= len(b); j++ {
			bj := lowerASCII(b[j-1])
			cost := 1
			if ai == bj {
				cost = 0
			}
			c := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ai == lowerASCII(b[j-2]) && lowerASCII(a[i-2]) == bj {
				c = min(c, prev2[j-2]+1)
			}
			cur[j] = c
			low = min(low, c)
		}
		if low > limit {
			return limit + 2
		}
		prev2, prev, cur = prev, cur, prev2
	}
	if d := prev[len(b)]; d <= limit {
		return d + 1
	}
	return limit + 2
}

// isASCII reports whether s is all ASCII.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// asciiEqualFold is strings.EqualFold for ASCII strings of equal length.
func asciiEqualFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

// lowerASCII lowers an ASCII letter.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// didYouMean formats " — did you mean X?" or "".
func didYouMean(s string) string {
	if s == "" {
		return ""
	}
	return " — did you mean " + s + "?"
}
