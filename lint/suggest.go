package lint

import (
	"strings"

	"github.com/skillscript/skillc/internal/leaf/textdist"
)

// closest returns the one candidate close to name ("did you mean"), or ""
// when there is none or when several are equally close. A candidate that
// differs only in case is always close.
func closest(name string, candidates []string) string {
	if name == "" {
		return ""
	}
	best, bestDist, ties := "", 1<<30, 0
	limit := maxDistance(name)
	for _, c := range candidates {
		if c == name || c == "" {
			continue
		}
		d := distance(name, c, limit)
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
// by more than limit.
func distance(a, b string, limit int) int {
	if strings.EqualFold(a, b) {
		return 0
	}
	if abs(len(a)-len(b)) > limit {
		return limit + 2
	}
	// a case-only difference is a closer match than any real edit
	return textdist.Distance(strings.ToLower(a), strings.ToLower(b)) + 1
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
