package syntax

import (
	"bytes"
	"regexp"
	"slices"
	"testing"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/google/go-cmp/cmp"
	"github.com/skillscript/skillc/ast"
)

// checkFast compares the fast path with the slow path (participle, then
// the conversion) on toks, a token slice of src ending in EOF, as a line, a
// condition, a value and a requirement's trailers. The fast path may
// decline anything, but whatever it builds the slow path must parse to the
// identical tree with the identical diagnostics. It returns how many of
// the four the fast path took.
func checkFast(t *testing.T, what string, src []byte, toks []tok) int {
	t.Helper()
	n := 0
	fast, slow := newParser("fast", src), newParser("slow", src)
	if got, ok := fast.fastStmts(toks, nil); fast.fastOK(ok, 0) {
		n++
		var want []ast.Stmt
		g, err := lineParser().ParseFromLexer(mustUpgrade(slow.tokens(toks)))
		if err == nil {
			for _, s := range g.Stmts {
				want = append(want, slow.convStmt(s))
			}
		}
		compareFast(t, what, "line", want, got, err, slow.diags, fast.diags)
	}
	fast, slow = newParser("fast", src), newParser("slow", src)
	if got, ok := fast.fastCond(toks); fast.fastOK(ok, 0) {
		n++
		var want ast.Cond
		g, err := condParser().ParseFromLexer(mustUpgrade(slow.tokens(toks)))
		if err == nil {
			want = slow.convCond(g)
		}
		compareFast(t, what, "condition", want, got, err, slow.diags, fast.diags)
	}
	fast, slow = newParser("fast", src), newParser("slow", src)
	if got, ok := fast.fastValue(toks); fast.fastOK(ok, 0) {
		n++
		var want ast.Expr
		g, err := valueParser().ParseFromLexer(mustUpgrade(slow.tokens(toks)))
		if err == nil {
			want = slow.convValue(g)
		}
		compareFast(t, what, "value", want, got, err, slow.diags, fast.diags)
	}
	fast, slow = newParser("fast", src), newParser("slow", src)
	if bind, fb, ok := fast.fastTrailers(toks); fast.fastOK(ok, 0) {
		n++
		type trailers struct {
			Bind     *ast.Binding
			Fallback *ast.Fallback
		}
		var want trailers
		dollar := lexer.Token{Type: tDollar, Value: "$"}
		g, err := lineParser().ParseFromLexer(mustUpgrade(append([]lexer.Token{dollar}, slow.tokens(toks)...)))
		if err == nil {
			want.Bind, want.Fallback = slow.convTrailers(g.Stmts[0].Dispatch.Trailer)
		}
		compareFast(t, what, "trailers", want, trailers{bind, fb}, err, slow.diags, fast.diags)
	}
	return n
}

// lexToks lexes all of src into statement tokens.
func lexToks(src []byte) []tok {
	toks, _ := lexStmtIn(src, string(src), 0, nil)
	return toks
}

func compareFast[T any](t *testing.T, what, kind string, want, got T, err error, slowDiags, fastDiags ast.Diagnostics) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: the fast path builds it as a %s, participle rejects it: %v", what, kind, err)
	}
	if diff := cmp.Diff(slowDiags, fastDiags); diff != "" {
		t.Fatalf("%s: the fast path's %s diagnostics differ from the slow path's (-slow +fast):\n%s", what, kind, diff)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: the fast path's %s tree differs from the slow path's (-slow +fast):\n%s", what, kind, diff)
	}
}

// checkFastSource runs checkFast on every line of src, on every token
// suffix of it, and on the line without a trailing ":" (the condition of an
// if line). It returns the number of accepted inputs.
func checkFastSource(t *testing.T, name string, src []byte) int {
	t.Helper()
	n := 0
	for _, line := range bytes.Split(src, []byte("\n")) {
		line = bytes.TrimSpace(line)
		what := name + ": " + string(line)
		toks := lexToks(line)
		for k := range min(len(toks), 24) {
			n += checkFast(t, what, line, toks[k:])
		}
		if c := bytes.TrimSuffix(line, []byte(":")); len(c) < len(line) {
			toks := lexToks(c)
			for k := range min(len(toks), 3) {
				n += checkFast(t, what, c, toks[k:])
			}
		}
	}
	return n
}

// TestFastPath checks the fast path against the slow path on every line
// of the testdata and the shared corpus, and on lines it must decline.
func TestFastPath(t *testing.T) {
	files := append(testdataFiles(t), corpusFiles(t, "")...)
	t.Run("shared", func(t *testing.T) {
		for _, p := range sharedCorpusFiles(t, "") {
			checkFastSource(t, p, readFile(t, p))
		}
	})
	accepted := 0
	for _, p := range files {
		accepted += checkFastSource(t, p, readFile(t, p))
	}
	t.Logf("%d files, %d inputs taken by the fast path", len(files), accepted)
	if accepted == 0 {
		t.Fatal("the fast path took nothing")
	}
	for _, src := range []string{
		`emit(text="a") -> X (fallback: "b")`,
		`$ search.query q="${Q}" limit=5 -> R (fallback: [])`,
		`$set N = {a: 1, "b": [1, 2, {c: ${X}}]}`,
		`$append L ${X}`,
		`emit(foo, bar=1, key:value, k: 2)`,
		`${A} == 1 and not (${B} not in ${C} or ${D})`,
		`not ${X}`,
		`emit(text="a ${ b and ${ c")`,
		`$set X = ["${", "b ${"]`,
		`${A} == "${"`,
		// reported by both paths: a single "=" and bare-word operands
		`$(VERDICT) = "urgent"`,
		`${A} = 1`,
		`not ${A} = "x"`,
		`(${A} = "x") and ${B}`,
		`${A} == 1 or not (${B} = ${C} and ${D} = "d")`,
		`not (not ${A} = 2)`,
		`${V} == urgent`,
		`urgent = ${V}`,
		`not (true)`,
		`a.b != ${X} or k:v in ${L} and w not in ${M}`,
		`${A} = bare`,
	} {
		toks := lexToks([]byte(src))
		if checkFast(t, src, []byte(src), toks) == 0 {
			t.Errorf("%s: the fast path should take this well-formed input", src)
		}
	}
	for _, src := range []string{
		`emit(text="a"`,
		`emit text="a"`,
		`$ a.b (x)`,
		`${X} not ${Y}`,
		`not == ${X}`,
		`{a 1}`,
		`[1, 2`,
		`$set X = 1 =`,
		`${A} = and`,
		`in == ${X}`,
		`${A} not = ${B}`,
		`${A} = = ${B}`,
	} {
		toks := lexToks([]byte(src))
		if checkFast(t, src, []byte(src), toks) != 0 {
			t.Errorf("%s: the fast path should leave this to the slow path", src)
		}
	}
}

// FuzzFastPath checks that whatever the fast path builds cleanly, the slow path
// parses to the identical tree.
func FuzzFastPath(f *testing.F) {
	addSeeds(f)
	f.Add([]byte(`$ a.b x=1, [2, {c: "d"}] -> R (fallback: 0)`))
	f.Add([]byte(`not ${A} in ${B} or (${C} >= 2 and ${D})`))
	f.Add([]byte("t:\n\tif $(V) = \"u\":\n\t\temit(text=\"a\")\n\telif not (${A} = 1 or ${B}) and c = d:\n\t\temit(text=\"b\")\n"))
	f.Add([]byte(`while ${A} = x and not (y in ${L}) or ${B} not in ${C}:`))
	f.Add([]byte(`${V} == urgent or not (true) and a.b = k:v`))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkFastSource(t, "fuzz", src)
	})
}

// The regular expressions the hand-written classifiers replaced; the
// classifiers must agree with them on every input.
const (
	numberPattern   = `^[-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$`
	dottedPattern   = `^[A-Za-z_][A-Za-z0-9_-]*\.[A-Za-z_][A-Za-z0-9_-]*$`
	colonKeyPattern = `^[A-Za-z_][A-Za-z0-9_-]*:$`
	colonWdPattern  = `^[A-Za-z_][A-Za-z0-9_-]*:.+$`
	ifKwPattern     = `^(if|elif)\b`
	foreachPattern  = `^foreach\b`
	elsePattern     = `^else[ \t]*:$`
	needsPattern    = `^needs[ \t]*:`
	foreachFull     = `^foreach[ \t]+([^ \t]+)[ \t]+in[ \t]+(.+?)[ \t]*:$`
)

// reIdent is the expression isIdent implements.
var reIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// checkClassifiers compares the classifiers with the regexps on s.
func checkClassifiers(t *testing.T, s string) {
	t.Helper()
	want := tWord
	switch {
	case regexp.MustCompile(numberPattern).MatchString(s):
		want = tNumber
	case reIdent.MatchString(s):
		want = tIdent
	case regexp.MustCompile(dottedPattern).MatchString(s):
		want = tDotted
	case regexp.MustCompile(colonKeyPattern).MatchString(s):
		want = tColonKey
	case regexp.MustCompile(colonWdPattern).MatchString(s):
		want = tColonWord
	}
	if got := classifyRun(s, 0, true); got != want {
		t.Errorf("classifyRun(%q) = %d, the regexps say %d", s, got, want)
	}
	if m := regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(.*)$`).FindStringSubmatch(s); true {
		rest, ok := targetHeaderRest(s)
		if ok != (m != nil) || (ok && rest != m[2]) {
			t.Errorf("targetHeaderRest(%q) = %q, %v; the regexp says %q", s, rest, ok, m)
		}
	}
	m, ok := matchForeach(s)
	var got []int
	if ok {
		got = m[:]
	}
	if want := regexp.MustCompile(foreachFull).FindStringSubmatchIndex(s); !slices.Equal(got, want) {
		t.Errorf("matchForeach(%q) = %v, the regexp says %v", s, got, want)
	}
	if got, want := isIdent(s), reIdent.MatchString(s); got != want {
		t.Errorf("isIdent(%q) = %v, want %v", s, got, want)
	}
	for _, c := range []struct {
		pattern string
		got     bool
	}{
		{ifKwPattern, isIfKw(s)},
		{foreachPattern, hasKeyword(s, "foreach")},
		{elsePattern, isElseStmt(s)},
		{needsPattern, isNeedsStmt(s)},
	} {
		if want := regexp.MustCompile(c.pattern).MatchString(s); c.got != want {
			t.Errorf("%q against %s: got %v, want %v", s, c.pattern, c.got, want)
		}
	}
}

func TestClassifiers(t *testing.T) {
	for _, s := range []string{
		"", "0", "-1", "+2.5", "1.", ".5", "1e5", "1E-3", "1e", "1.5e+", "--1", "12a",
		"a", "_x", "a-b", "1a", "a.b", "a.b.c", "a.", ".a", "a:", "a:b", "a::", ":a", "a:\n", "a:\r",
		"if", "if:", "if x", "ifx", "if-x", "elif(", "elifx", "if\u00e9", "foreach", "foreach x", "foreachx",
		"else:", "else :", "else\t:", "else: ", "else", "needs:", "needs :a", "needs", "needsx:",
		"foreach x in y:", "foreach x in  :", "foreach x in :", "foreach x in   :", "foreach\tx\tin\t${L}\t:",
		"foreach x in [1, 2]:", "foreach  x  in  y  :", "foreach x iny:", "foreach x in y", "foreach x\nin y:",
		"foreach x in a\nb:", "foreach x in a :b:", "foreachx in y:", "foreach in y:", "foreach x in:", "foreach x in \t :",
	} {
		checkClassifiers(t, s)
	}
}

func FuzzClassifiers(f *testing.F) {
	for _, s := range []string{"1.5e-3", "a-b.c_d", "key:${X}", "if x", "else :", "needs: a", "foreach x in  :", "foreach I in [\"a\"]:"} {
		f.Add(s)
	}
	f.Fuzz(checkClassifiers)
}

// BenchmarkCondGrammarBuild is what a process paid once, before the fast
// matcher took a single "=" and bare-word operands, for the first such
// condition: building the participle condition grammar.
func BenchmarkCondGrammarBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		participle.MustBuild[gCond](participle.Lexer(stmtLexerDef{}), participle.UseLookahead(4))
	}
}

// BenchmarkSingleEqualsSkill parses a skill whose conditions use a single
// "=" (the conformance corpus's single-equals case), grammar built.
func BenchmarkSingleEqualsSkill(b *testing.B) {
	src := []byte("# Skill: triage\n# Vars: VERDICT\n\nt:\n    if $(VERDICT) = \"urgent\":\n        emit(text=\"now\")\n    elif ${VERDICT} = \"later\" and not ${X}:\n        emit(text=\"later\")\n\ndefault: t\n")
	b.ReportAllocs()
	for b.Loop() {
		if _, ds := Parse("t.skill.md", src); !hasRule(ds, "single-equals") {
			b.Fatal("no single-equals finding")
		}
	}
}
