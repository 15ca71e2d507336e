package gateway

import (
	"bufio"
	"bytes"
	_ "embed"
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

// lexicon maps a stemmed word to the stemmed words of its groups'
// other members (phrases contribute each of their words).
type lexicon map[string][]string

// parseLexicon reads lexicon.txt: comment lines start with '#', members
// are separated by commas.
func parseLexicon(data []byte) (lexicon, [][]string) {
	lx := lexicon{}
	var groups [][]string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var group []string
		for _, m := range strings.Split(line, ",") {
			if m = strings.TrimSpace(m); m != "" {
				group = append(group, m)
			}
		}
		groups = append(groups, group)
		var stems [][]string
		for _, m := range group {
			stems = append(stems, stemAll(words(m)))
		}
		for i, mi := range stems {
			if len(mi) != 1 {
				continue // a phrase is expanded to, not from
			}
			for j, mj := range stems {
				if i == j {
					continue
				}
				for _, s := range mj {
					if s != mi[0] && !slices.Contains(lx[mi[0]], s) {
						lx[mi[0]] = append(lx[mi[0]], s)
					}
				}
			}
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

// defaultLexicon returns the embedded lexicon.
func defaultLexicon() lexicon {
	lexOnce.Do(func() { lexMap, _ = parseLexicon(lexiconText) })
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
