package serve

import (
	"context"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/format/render"
	"github.com/skillscript/skillc/internal/host/footprint"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/skillscript/skillc/lint"
)

// analyze lints src exactly like skillc check, with the host's skill
// store as the skill index.
func (h *Host) analyze(ctx context.Context, name string, src []byte) (*ast.File, *check.Info, ast.Diagnostics) {
	ws := h.ws
	if store := h.Skills(); store != nil {
		ws = ws.WithSkills(&storeIndex{ctx: ctx, store: store})
	}
	u := ws.Compile(name, src)
	return u.File, u.Info, u.Diags
}

// storeIndex is a lint.SkillIndex over the configured skill store.
type storeIndex struct {
	ctx   context.Context
	store contract.SkillStore
}

// Lookup reads the skill's headers from the store.
func (s *storeIndex) Lookup(name string) (lint.SkillInfo, bool) {
	rec, err := s.store.Get(s.ctx, name)
	if err != nil || rec == nil {
		return lint.SkillInfo{}, false
	}
	f := workspace.Parse(name, []byte(rec.Body)).File
	si := lint.SkillInfo{Name: name, Status: contract.StatusWord(rec.Status), Type: rec.Type}
	if hd := f.Header(ast.HeaderReturns); hd != nil {
		for _, id := range hd.Names {
			si.Returns = append(si.Returns, id.Name)
		}
	}
	return si, true
}

// Names lists the stored skills.
func (s *storeIndex) Names() []string {
	metas, err := s.store.List(s.ctx, contract.SkillQuery{})
	if err != nil {
		return nil
	}
	out := make([]string, len(metas))
	for i, m := range metas {
		out[i] = m.Name
	}
	return out
}

// diagSummary counts diagnostics by severity.
type diagSummary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
}

func summarize(ds ast.Diagnostics) diagSummary {
	var s diagSummary
	for _, d := range ds {
		switch d.Severity {
		case ast.Error:
			s.Errors++
		case ast.Warning:
			s.Warnings++
		default:
			s.Infos++
		}
	}
	return s
}

func errorsOnly(ds ast.Diagnostics) ast.Diagnostics {
	var out ast.Diagnostics
	for _, d := range ds {
		if d.Severity == ast.Error {
			out = append(out, d)
		}
	}
	return out
}

// Footprint is what a skill can touch once approved (package
// internal/host/footprint, which skillc's shell-audit shares).
type Footprint = footprint.Footprint

// diagsJSON renders diagnostics in skillc check's JSON shape.
func diagsJSON(name string, src []byte, ds ast.Diagnostics) []render.Diag {
	return render.Diags(name, src, ds)
}

// headerList returns the comma-separated values of a raw header.
func headerList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
