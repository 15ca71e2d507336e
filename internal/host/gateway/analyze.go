package gateway

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kljensen/snowball/english"
)

// lexiconText is the synonym and abbreviation lexicon (lexicon.txt): one
// group of equivalent words or phrases per line.
//
//go:embed lexicon.txt
var lexiconText []byte

// relatedText is the related-vocabulary list (related.txt): words and
// phrases people use for a symptom, a goal or a part of a topic, each
// line mapping them to the words a skill about the topic uses.
//
//go:embed related.txt
var relatedText []byte

// lexicon is the parsed lexicon and related list.
type lexicon struct {
	// same maps a stemmed word to the stems of its groups' other members
	// (phrases contribute each of their words but stop words).
	same map[string][]string
	// rules maps the first stem of a source (a word or a phrase) to what
	// it expands to, for the query: the lexicon's groups first, then the
	// related list.
	rules map[string][]lexRule
}

// lexRule is one expansion: when the intent's terms hold the source's
// stems consecutively (rest follows the key), the members of to (each
// the stems of a word or a phrase) are searched with the term that
// starts the source, at the lexicon weight or, when related, at the
// related weight.
type lexRule struct {
	rest    []string
	to      [][]string
	related bool
}

// relatedEntry is one line of related.txt: the words and phrases of its
// left side point to those of its right side.
type relatedEntry struct {
	from, to []string
}

// splitMembers returns the trimmed non-empty comma-separated members of
// s.
func splitMembers(s string) []string {
	var out []string
	for _, m := range strings.Split(s, ",") {
		if m = strings.TrimSpace(m); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// dataLines returns the non-blank, non-comment ('#') lines of data.
func dataLines(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// parseRelated reads related.txt: "from, from -> to, to" per line.
func parseRelated(data []byte) ([]relatedEntry, error) {
	var out []relatedEntry
	for _, line := range dataLines(data) {
		l, r, ok := strings.Cut(line, "->")
		e := relatedEntry{from: splitMembers(l), to: splitMembers(r)}
		if !ok || len(e.from) == 0 || len(e.to) == 0 {
			return nil, fmt.Errorf("related.txt: %q is not \"words -> topic words\"", line)
		}
		out = append(out, e)
	}
	return out, nil
}

// memberStems returns the stems of a lexicon member's words, stop words
// and one-letter words left out (a phrase's function words would match
// every document).
func memberStems(m string, stop map[string]bool) []string {
	var out []string
	for _, w := range words(m) {
		if !stop[w] && len(w) > 1 {
			out = append(out, stem(w))
		}
	}
	return out
}

// parseLexicon reads lexicon.txt (comment lines start with '#', members
// are separated by commas) and the related entries into a lexicon; it
// also returns the groups as written.
func parseLexicon(data []byte, related []relatedEntry, stop map[string]bool) (lexicon, [][]string) {
	lx := lexicon{same: map[string][]string{}, rules: map[string][]lexRule{}}
	var groups [][]string
	addRule := func(from []string, to [][]string, rel bool) {
		if len(from) == 0 {
			return
		}
		r := lexRule{rest: from[1:], related: rel}
		for _, t := range to {
			if len(t) > 0 && !slices.Equal(t, from) && !slices.ContainsFunc(r.to, func(x []string) bool { return slices.Equal(x, t) }) {
				r.to = append(r.to, t)
			}
		}
		if len(r.to) > 0 {
			lx.rules[from[0]] = append(lx.rules[from[0]], r)
		}
	}
	for _, line := range dataLines(data) {
		group := splitMembers(line)
		groups = append(groups, group)
		var stems [][]string
		for _, m := range group {
			stems = append(stems, memberStems(m, stop))
		}
		for i, mi := range stems {
			var others [][]string
			for j, mj := range stems {
				if i != j {
					others = append(others, mj)
				}
			}
			addRule(mi, others, false)
			if len(mi) != 1 {
				continue
			}
			for _, mj := range others {
				for _, s := range mj {
					if s != mi[0] && !slices.Contains(lx.same[mi[0]], s) {
						lx.same[mi[0]] = append(lx.same[mi[0]], s)
					}
				}
			}
		}
	}
	for _, e := range related {
		var to [][]string
		for _, m := range e.to {
			to = append(to, memberStems(m, stop))
		}
		for _, m := range e.from {
			addRule(memberStems(m, stop), to, true)
		}
	}
	return lx, groups
}

var (
	lexOnce  sync.Once
	lexMap   lexicon
	stemMu   sync.RWMutex
	stemMemo = map[string]string{}
)

// defaultLexicon returns the embedded lexicon and related list, with the
// default stop words left out of phrases.
func defaultLexicon() lexicon {
	lexOnce.Do(func() {
		rel, err := parseRelated(relatedText)
		if err != nil {
			panic("gateway: " + err.Error()) // embedded, covered by tests
		}
		lexMap, _ = parseLexicon(lexiconText, rel, set(DefaultConfig().StopWords))
	})
	return lexMap
}

// stem returns the Snowball (Porter 2) English stem of a lower-case
// word, memoised: a catalog's vocabulary is small.
func stem(w string) string {
	stemMu.RLock()
	s, ok := stemMemo[w]
	stemMu.RUnlock()
	if ok {
		return s
	}
	s = english.Stem(w, true)
	if s == "" {
		s = w
	}
	// Porter 2 keeps the s of a plural without a vowel before it; those
	// are acronyms (pdfs, csvs, prs): drop it
	if len(s) > 2 && s[len(s)-1] == 's' && s[len(s)-2] != 's' && !strings.ContainsAny(s[:len(s)-1], "aeiouy") {
		s = s[:len(s)-1]
	}
	stemMu.Lock()
	if len(stemMemo) < 1<<18 {
		stemMemo[w] = s
	}
	stemMu.Unlock()
	return s
}

// stemAll stems every word.
func stemAll(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = stem(w)
	}
	return out
}
