package serve

import (
	"context"
	"sort"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/format/render"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/syntax"
)

// analyze lints src exactly like skillc check, with the host's skill
// store as the skill index.
func (h *Host) analyze(ctx context.Context, name string, src []byte) (*ast.File, *check.Info, ast.Diagnostics) {
	ws := h.ws
	if store := h.Skills(); store != nil {
		ws = ws.WithSkills(&storeIndex{ctx: ctx, store: store})
	}
	return ws.Check(name, src)
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
	f, _ := syntax.Parse(name, []byte(rec.Body))
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

// Footprint is what a skill can touch once approved: the approval
// gate's effect list (the same enumeration the approver reviews) and a
// summary of it.
type Footprint struct {
	Connectors    []string          `json:"connectors"`
	BuiltinOps    []string          `json:"builtin_ops"`
	ShellBinaries []string          `json:"shell_binaries"`
	DynamicShell  int               `json:"dynamic_shell"`
	FileReads     int               `json:"file_reads"`
	FileWrites    int               `json:"file_writes"`
	Notifies      int               `json:"notifies"`
	ChildSkills   []string          `json:"child_skills"`
	Effectful     bool              `json:"effectful"`
	Effects       []approval.Effect `json:"effects"`
}

// FootprintOf summarizes the effects of a checked skill.
func FootprintOf(f *ast.File, info *check.Info) Footprint {
	af := approval.FootprintOf(f, info, nil)
	fp := Footprint{Effects: af.Effects, Effectful: af.Effectful(), ChildSkills: af.Children()}
	conns, builtins, bins := set{}, set{}, set{}
	for _, e := range af.Effects {
		switch e.Kind {
		case approval.EffectDispatch:
			if e.Connector != "" {
				conns[e.Connector] = true
			} else {
				builtins[e.Tool] = true
			}
		case approval.EffectShell:
			if e.Dynamic {
				fp.DynamicShell++
			} else {
				bins[e.Subject] = true
			}
		case approval.EffectFileRead:
			fp.FileReads++
		case approval.EffectFileWrite:
			fp.FileWrites++
		case approval.EffectNotify:
			fp.Notifies++
		}
	}
	fp.Connectors, fp.BuiltinOps, fp.ShellBinaries = conns.list(), builtins.list(), bins.list()
	if fp.ChildSkills == nil {
		fp.ChildSkills = []string{}
	}
	return fp
}

type set map[string]bool

func (s set) list() []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

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

// FootprintOfSource parses and checks a skill source and returns its
// footprint.
func FootprintOfSource(src string) Footprint {
	f, _ := syntax.Parse("skill", []byte(src))
	return FootprintOf(f, check.Check(f))
}
