package gateway

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/skillscript/skillc/internal/host/registry"
)

// The fields of the lexical index. Packages fill name, description,
// tags, headings and paragraph (the body's first paragraph);
// skillscripts fill name, description, tags, headings (their target
// names) and tools (the connector tools they dispatch to).
const (
	fieldName = iota
	fieldDescription
	fieldTags
	fieldHeadings
	fieldParagraph
	fieldTools
	fieldBody
	nFields
)

// BM25 saturation and length normalisation (the usual values).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// docTerms is the analysed text of one skill: the stems of each field,
// in order. It depends only on the skill's content, so it is cached by
// digest.
type docTerms [nFields][]string

// posting is one document's term frequencies, per field, of one term.
type posting struct {
	doc int32
	tf  [nFields]uint16
}

// index is the lexical stage: BM25F over the analysed fields of the
// visible skills, with Snowball stemming and the lexicon's synonyms,
// rebuilt when the registry's generation changes. Document i is recs[i].
type index struct {
	gen   uint64
	recs  []*registry.Record
	terms map[string][]posting
	// lazy and raw are a loaded index file's term directory and bytes:
	// postings not yet in terms are decoded from raw on first use.
	lazy map[string]span
	raw  []byte
	lens [][nFields]int32
	avg  [nFields]float64
	w    Weights
	lex  lexicon
}

// analyze returns the analysed fields of rec.
func analyze(rec *registry.Record) *docTerms {
	var d docTerms
	d[fieldName] = stemAll(words(splitName(rec.Name)))
	d[fieldDescription] = stemAll(words(rec.Description))
	d[fieldTags] = stemAll(words(strings.Join(append(rec.Tags, frontmatterTags(rec)...), " ")))
	d[fieldHeadings] = stemAll(words(strings.Join(rec.HeadingTexts(), "\n")))
	if rec.Kind == registry.KindPackage {
		d[fieldParagraph] = stemAll(words(firstParagraph(rec.Text())))
	}
	d[fieldTools] = stemAll(words(strings.Join(rec.Tools, " ")))
	if rec.Kind == registry.KindPackage {
		d[fieldBody] = bodyStems(rec.Text())
	}
	return &d
}

// frontmatterTags returns the strings of a package's top-level tags
// key (a Claude Code convention, outside the specification, where
// metadata.tags is the standard place): a list or a comma-separated
// string.
func frontmatterTags(rec *registry.Record) []string {
	switch v := rec.FrontmatterMap()["tags"].(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// firstParagraph returns the first paragraph of a Markdown body: the
// first run of non-blank lines that is not a heading, a fence, a list
// of links or front matter, joined by blanks.
func firstParagraph(body string) string {
	var out []string
	fence := false
	for _, line := range strings.Split(body, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			if len(out) > 0 {
				break
			}
			fence = !fence
			continue
		}
		switch {
		case fence:
		case t == "" || strings.HasPrefix(t, "#"):
			if len(out) > 0 {
				return strings.Join(out, " ")
			}
		default:
			out = append(out, t)
		}
	}
	return strings.Join(out, " ")
}

// maxBodyWords bounds what the body field indexes of one package: the
// first words of its body (real bodies run to thousands of words; the
// opening sections say what the skill is for).
var maxBodyWords = 2000

// bodyStems returns the stems of the words of a package body, code
// blocks included (their identifiers are what people paste), up to
// maxBodyWords; each distinct word is stemmed once.
func bodyStems(body string) []string {
	ws := firstWords(body, maxBodyWords)
	memo := make(map[string]string, len(ws)/3)
	for i, w := range ws {
		s, ok := memo[w]
		if !ok {
			s = stem(w)
			memo[w] = s
		}
		ws[i] = s
	}
	return ws
}

// buildIndex indexes recs; terms returns each record's analysed fields
// (a cache in front of analyze).
func buildIndex(_ context.Context, recs []*registry.Record, gen uint64, w Weights, terms func(*registry.Record) *docTerms) (*index, error) {
	ix := &index{gen: gen, recs: recs, terms: map[string][]posting{}, lens: make([][nFields]int32, len(recs)), w: w, lex: defaultLexicon()}
	var total [nFields]float64
	for i, rec := range recs {
		d := terms(rec)
		seen := map[string]int{}
		for f, ts := range d {
			ix.lens[i][f] = int32(len(ts))
			total[f] += float64(len(ts))
			for _, t := range ts {
				k, ok := seen[t]
				if !ok {
					k = len(ix.terms[t])
					seen[t] = k
					ix.terms[t] = append(ix.terms[t], posting{doc: int32(i)})
				}
				if p := &ix.terms[t][k]; p.tf[f] < math.MaxUint16 {
					p.tf[f]++
				}
			}
		}
	}
	for f := range total {
		if len(recs) > 0 {
			ix.avg[f] = math.Max(total[f]/float64(len(recs)), 1)
		}
	}
	return ix, nil
}

func splitName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r == ':' || r == '/' {
			return ' '
		}
		return r
	}, s)
}

// hit is one lexical match: the record and its BM25F relevance (higher
// is better).
type hit struct {
	rec  *registry.Record
	bm25 float64
	// cover has bit i set when the skill matched terms[i] of the search
	// (directly or through a synonym; the first 64 terms): the words the
	// reason names.
	cover uint64
}

// concepts returns, for each intent term, the stems to search for it
// with their weights: the term's stem at 1, the lexicon's synonyms of it
// (or of a phrase starting with it, when the next terms complete the
// phrase) at weights.lexicon, then the related list's topic words at
// weights.lexicon_related. A stem is searched once: a stem the intent
// typed belongs to the term that typed it, a stem only implied to the
// first term implying it, at the higher weight.
func (ix *index) concepts(terms []string) [][]qterm {
	out := make([][]qterm, len(terms))
	seen := map[string]bool{}
	stems := make([]string, len(terms))
	for i, t := range terms {
		s := stem(t)
		stems[i] = s
		if !seen[s] {
			seen[s] = true
			out[i] = append(out[i], qterm{stem: s, w: 1})
		}
	}
	for _, related := range []bool{false, true} {
		w := ix.w.Lexicon
		if related {
			w = ix.w.LexiconRelated
		}
		if w <= 0 {
			continue
		}
		for i, s := range stems {
			for _, r := range ix.lex.rules[s] {
				if r.related != related || len(stems) < i+1+len(r.rest) || !slices.Equal(stems[i+1:i+1+len(r.rest)], r.rest) {
					continue
				}
				for _, syn := range r.to {
					if k := strings.Join(syn, " "); !seen[k] {
						seen[k] = true
						out[i] = append(out[i], qterm{stem: syn[0], rest: syn[1:], w: w})
					}
				}
			}
		}
	}
	return out
}

// qterm is a searched stem, or phrase (stem and rest), and its weight.
type qterm struct {
	stem string
	rest []string
	w    float64
}

// phrasePostings returns the documents holding every stem of a phrase,
// each field's frequency the least of its words' there: a phrase
// matches where all of its words are (the index keeps no positions), so
// "graphics card" does not match every mention of "card".
func (ix *index) phrasePostings(q qterm) []posting {
	ps := ix.postings(q.stem)
	for _, s := range q.rest {
		if len(ps) == 0 {
			return nil
		}
		qs := ix.postings(s)
		var out []posting
		for i, j := 0, 0; i < len(ps) && j < len(qs); {
			switch {
			case ps[i].doc < qs[j].doc:
				i++
			case ps[i].doc > qs[j].doc:
				j++
			default:
				p := ps[i]
				for f := range nFields {
					p.tf[f] = min(p.tf[f], qs[j].tf[f])
				}
				out = append(out, p)
				i++
				j++
			}
		}
		ps = out
	}
	return ps
}

// search returns up to limit matches of any of the terms, best first:
// BM25F, each field's term frequency weighted and length-normalised
// before one saturation per intent term. An intent term and the
// lexicon's synonyms of it count as one term (a concept): their
// frequencies add up, a synonym's at the lexicon weight, before the one
// saturation, with the inverse document frequency of the typed word (or,
// when the catalog does not use that word, of the most common synonym).
// So a word with many synonyms weighs no more than a word with none, and
// a rare synonym cannot outweigh the word the user typed; a synonym
// commoner than the typed word is further scaled by the ratio of its
// IDF to the typed word's, so a broad synonym does not carry a rare
// word's weight to every skill that uses it. A phrase synonym matches
// the skills holding all of its words (frequency: the least of theirs).
func (ix *index) search(_ context.Context, terms []string, limit int) ([]hit, error) {
	if len(terms) == 0 || len(ix.recs) == 0 {
		return nil, nil
	}
	fw := [nFields]float64{ix.w.BM25Name, ix.w.BM25Description, ix.w.BM25Tags, ix.w.BM25Headings, ix.w.BM25Paragraph, ix.w.BM25Tools, ix.w.BM25Body}
	n := float64(len(ix.recs))
	scores := make([]float64, len(ix.recs))
	// coverage: which intent terms each document matches (bit i for
	// terms[i], the first 64)
	cover := make([]uint64, len(ix.recs))
	// the concept's weighted, length-normalised frequency per document,
	// and the documents it touched
	tfs := make([]float64, len(ix.recs))
	var touched []int32
	for i, concept := range ix.concepts(terms) {
		touched = touched[:0]
		typed, common := 0.0, 0.0
		for k, q := range concept {
			ps := ix.phrasePostings(q)
			if len(ps) == 0 {
				continue
			}
			df := float64(len(ps))
			if k == 0 && q.w == 1 {
				typed = df
			}
			common = math.Max(common, df)
			// a synonym commoner than the word typed counts at the share
			// of the typed word's IDF its own IDF makes up
			qw := q.w
			if typed > 0 && df > typed {
				qw *= bm25IDF(n, df) / bm25IDF(n, typed)
			}
			for _, p := range ps {
				tf := 0.0
				for f := range nFields {
					if p.tf[f] == 0 {
						continue
					}
					norm := 1 - bm25B + bm25B*float64(ix.lens[p.doc][f])/ix.avg[f]
					tf += fw[f] * float64(p.tf[f]) / norm
				}
				if tf == 0 {
					continue // only in fields weighted 0
				}
				if tfs[p.doc] == 0 {
					touched = append(touched, p.doc)
				}
				tfs[p.doc] += qw * tf
			}
		}
		df := typed
		if df == 0 {
			df = common
		}
		idf := bm25IDF(n, df)
		for _, d := range touched {
			scores[d] += idf * tfs[d] / (bm25K1 + tfs[d])
			cover[d] |= 1 << (i % 64)
			tfs[d] = 0
		}
	}
	var out []hit
	for i, s := range scores {
		if s > 0 {
			// coordination: a document matching more of the intent's
			// terms ranks above one matching a single rare term
			s *= math.Pow(float64(bits.OnesCount64(cover[i]))/float64(min(len(terms), 64)), ix.w.Coordination)
			out = append(out, hit{rec: ix.recs[i], bm25: s, cover: cover[i]})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].bm25 != out[j].bm25 {
			return out[i].bm25 > out[j].bm25
		}
		return out[i].rec.ID < out[j].rec.ID
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (ix *index) close() {}

// bm25IDF is the BM25 inverse document frequency of a term in df of n
// documents.
func bm25IDF(n, df float64) float64 { return math.Log(1 + (n-df+0.5)/(df+0.5)) }

// firstWords is words(s) up to its first n words, reading no further
// into s.
func firstWords(s string, n int) []string {
	if n <= 0 {
		return nil
	}
	var out []string
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, strings.ToLower(s[start:i]))
			start = -1
			if len(out) == n {
				return out
			}
		}
	}
	if start >= 0 && len(out) < n {
		out = append(out, strings.ToLower(s[start:]))
	}
	return out
}

// words splits text into lower-case letter/digit words.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
