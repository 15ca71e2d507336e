package lsp

import (
	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	wsenv "github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/lint"
)

// Analysis is the front end's view of one document.
type Analysis struct {
	File  *ast.File
	Info  *check.Info
	Diags ast.Diagnostics
}

// Analyzer computes the analysis of a document. name is the document's
// path (or URI for documents that are not files).
type Analyzer func(name string, src []byte, env *Env) Analysis

// snapshot is the analysis of one version of one document together with
// the environment it was computed in.
type snapshot struct {
	uri     string
	version int32
	gen     int
	edit    int
	deps    int
	parsed  ast.Diagnostics // the parser's findings, when parsed apart
	src     []byte
	lines   *ast.LineTable
	env     *Env
	Analysis
}

// docName is the name a document is analysed under.
func docName(u string) string {
	if p := filePath(u); p != "" {
		return p
	}
	return u
}

// analyze runs the analyzer, turning a panic into a single diagnostic so
// that a bug in one rule never takes the server down. stop, when not nil,
// is the checkpoint question of the default analysis of a parse (pre):
// the rules stop early once it answers true, and the caller discards the
// result.
func analyze(a Analyzer, name string, src []byte, env *Env, pre *preParse, stop func() bool) (res Analysis) {
	defer func() {
		if r := recover(); r != nil {
			u := wsenv.Parse(name, src)
			res = Analysis{File: u.File, Info: u.Info, Diags: append(u.ParsedCopy(),
				ast.Errorf("internal-error", ast.RangeOf(0, 0), "analysis failed: %v", r))}
		}
	}()
	if isSkillMD(name) {
		return skillMDAnalysis(name, src, env)
	}
	if pre != nil {
		return analyzeParsed(name, pre.file, pre.info, pre.diags, env, stop, pre.reuse)
	}
	return a(name, src, env)
}

// preParse is the parse of a document's text made for the quick
// publication, handed once to the full analysis of the same text.
type preParse struct {
	file  *ast.File
	diags ast.Diagnostics // the parser's diagnostics, before any filtering
	// info are the checker's facts when the parse is a compiled unit's
	// (nil for the quick publication's parse: the analysis checks).
	info *check.Info
	// reuse is the incremental rule phase's link to the analysis of the
	// previous parse (nil: none; see lint.Reuse).
	reuse *lint.Reuse
}

// typer returns a lint.Typer for the snapshot: static types from the
// outputSchema of the tools in the document's environment.
func (snap *snapshot) typer() *lint.Typer {
	var ctx *lint.Context
	if snap.env != nil {
		ctx = snap.env.Lint
	}
	return lint.NewTyper(snap.Info, ctx)
}
