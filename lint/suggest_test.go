package lint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/leaf/textdist"
)

// TestClosestTransposition pins that "did you mean" counts a swap of two
// adjacent letters as one edit (Damerau–Levenshtein): NAEM suggests NAME.
func TestClosestTransposition(t *testing.T) {
	for _, c := range []struct {
		name       string
		candidates []string
		want       string
	}{
		{"NAEM", []string{"NAME", "LIMIT"}, "NAME"},
		{"PORJECT", []string{"PROJECT", "OBJECT2"}, "PROJECT"},
		{"tirm", []string{"trim", "lines"}, "trim"},
		{"ZZZZ", []string{"NAME"}, ""},
	} {
		if got := closest(c.name, c.candidates); got != c.want {
			t.Errorf("closest(%q, %v) = %q, want %q", c.name, c.candidates, got, c.want)
		}
	}
}

// refDistance is distance as it was before the allocation-free ASCII path:
// the reference the fast path must agree with wherever closest looks.
func refDistance(a, b string, limit int) int {
	if strings.EqualFold(a, b) {
		return 0
	}
	if abs(len(a)-len(b)) > limit {
		return limit + 2
	}
	return textdist.Distance(strings.ToLower(a), strings.ToLower(b)) + 1
}

// TestDistanceMatchesReference compares distance with the reference on
// random names: equal wherever the answer is at most limit+1 (the only
// answers closest tells apart), above limit+1 together otherwise; and
// closest's choice over random candidate lists.
func TestDistanceMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 4))
	alphabet := "aAbBnNeEmM_1K\u212a\u00e9"
	word := func() string {
		var b strings.Builder
		for n := rng.IntN(10); n > 0; n-- {
			r := []rune(alphabet)
			b.WriteRune(r[rng.IntN(len(r))])
		}
		return b.String()
	}
	var rows []int
	for i := 0; i < 20000; i++ {
		a, b := word(), word()
		limit := maxDistance(a)
		got, want := distance(a, b, limit, &rows), refDistance(a, b, limit)
		if (got <= limit+1 || want <= limit+1) && got != want {
			t.Fatalf("distance(%q, %q, %d) = %d, want %d", a, b, limit, got, want)
		}
	}
	for i := 0; i < 3000; i++ {
		name := word()
		cands := make([]string, rng.IntN(12))
		for j := range cands {
			cands[j] = word()
		}
		want := refClosest(name, cands)
		if got := closest(name, cands); got != want {
			t.Fatalf("closest(%q, %q) = %q, want %q", name, cands, got, want)
		}
		if got := closestScan(name, newNameSet(cands)); got != want {
			t.Fatalf("closestScan(%q, %q) = %q, want %q", name, cands, got, want)
		}
		// repeats do not change the answer (namesVisible lists a name
		// bound in two scopes twice)
		if got := closestScan(name, newNameSet(append(slices.Clone(cands), cands...))); got != want {
			t.Fatalf("closestScan(%q, %q twice) = %q, want %q", name, cands, got, want)
		}
		// the memo answers for the set, whatever its order
		rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
		for range 2 {
			if got := closestIn(name, newNameSet(cands)); got != want {
				t.Fatalf("closestIn(%q, %q) = %q, want %q", name, cands, got, want)
			}
		}
	}
}

// refClosest is closest over refDistance.
func refClosest(name string, candidates []string) string {
	if name == "" {
		return ""
	}
	best, bestDist, ties := "", 1<<30, 0
	limit := maxDistance(name)
	for _, c := range candidates {
		if c == name || c == "" {
			continue
		}
		d := refDistance(name, c, limit)
		switch {
		case d < bestDist:
			best, bestDist, ties = c, d, 0
		case d == bestDist && c != best:
			ties++
		}
	}
	if bestDist > limit+1 || ties > 0 {
		return ""
	}
	return best
}
