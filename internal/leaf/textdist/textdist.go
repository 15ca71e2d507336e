// Package textdist measures how far apart two short strings are, for the
// "did you mean" suggestions of the parser, the linter, the filter docs and
// the configuration loader.
package textdist

// maxLen bounds the inputs compared: longer strings are never typos of
// each other worth suggesting, and the bound keeps the cost constant.
const maxLen = 128

// Levenshtein returns the edit distance (insertions, deletions and
// substitutions of bytes) between a and b. Inputs longer than 128 bytes
// are not compared: the result is then a large number.
func Levenshtein(a, b string) int {
	if len(a) > maxLen || len(b) > maxLen {
		return 1 << 20
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Distance returns the Damerau–Levenshtein distance (optimal string
// alignment) between a and b: insertions, deletions, substitutions and
// transpositions of adjacent bytes each cost one, so "NAEM" is one edit
// from "NAME". Every "did you mean" suggestion uses it. Inputs longer than
// 128 bytes are not compared: the result is then a large number.
func Distance(a, b string) int {
	if len(a) > maxLen || len(b) > maxLen {
		return 1 << 20
	}
	n := len(b) + 1
	rows := make([]int, 3*n) // the rows i-2, i-1 and i
	prev2, prev, cur := rows[:n], rows[n:2*n], rows[2*n:]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
