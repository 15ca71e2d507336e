package syntax

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestGrammarGolden pins the participle grammars (grammar.go) as
// participle prints them, in testdata/syntax/golden/grammar.txtar. The
// fast matcher (fast.go) mirrors these grammars by hand, so a change here
// must be reviewed against fast.go; run with -update after doing so.
func TestGrammarGolden(t *testing.T) {
	golden(t, "grammar.txtar", []txtar.File{
		{Name: "line", Data: []byte(lineParser().String() + "\n")},
		{Name: "cond", Data: []byte(condParser().String() + "\n")},
		{Name: "value", Data: []byte(valueParser().String() + "\n")},
	})
}

// minFastShare is the share of statement lines, conditions and values in
// the repository's testdata that the fast matcher must take. It was 0.994
// when measured (1,192 of 1,199 inputs in 340 files; see the test's log);
// the bar sits a little below so that only a real regression trips it.
const minFastShare = 0.97

// TestFastPathShare parses every .skill.md under testdata and checks that
// the fast matcher, not participle, parses most statements: a grammar
// change the matcher does not follow still parses (through participle) but
// shows up here as a drop in the share.
func TestFastPathShare(t *testing.T) {
	var total parseStats
	files := 0
	err := filepath.WalkDir("../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".skill.md") {
			return err
		}
		p := newParser(path, readFile(t, path))
		p.parseFile()
		total.add(p.stats)
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct {
		name string
		c    pathCount
	}{{"lines", total.lines}, {"conds", total.conds}, {"values", total.values}} {
		t.Logf("%s: %d fast, %d participle (%.3f fast)", k.name, k.c.fast, k.c.slow, k.c.share())
	}
	all := total.lines.plus(total.conds).plus(total.values)
	t.Logf("%d files: %d of %d inputs took the fast path (%.3f)", files, all.fast, all.fast+all.slow, all.share())
	if all.fast+all.slow < 500 {
		t.Fatalf("only %d inputs parsed in %d files: the testdata walk found too little", all.fast+all.slow, files)
	}
	if all.share() < minFastShare {
		t.Errorf("the fast matcher took %.3f of the inputs, below the bar of %.2f: did the grammar change without fast.go following?", all.share(), minFastShare)
	}
}

func (s *parseStats) add(o parseStats) {
	s.lines = s.lines.plus(o.lines)
	s.conds = s.conds.plus(o.conds)
	s.values = s.values.plus(o.values)
}

func (c pathCount) plus(o pathCount) pathCount {
	return pathCount{fast: c.fast + o.fast, slow: c.slow + o.slow}
}

func (c pathCount) share() float64 {
	if c.fast+c.slow == 0 {
		return 0
	}
	return float64(c.fast) / float64(c.fast+c.slow)
}
