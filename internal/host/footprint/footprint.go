// Package footprint summarizes what a checked skill can touch once
// approved: the approval gate's effect list and counts of it. The
// runtime host's skill tools and skillc shell-audit share it.
package footprint

import (
	"sort"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/check/effects"
	"github.com/skillscript/skillc/internal/workspace"
)

// Footprint is what a skill can touch once approved: the approval
// gate's effect list (the same enumeration the approver reviews) and a
// summary of it.
type Footprint struct {
	Connectors    []string         `json:"connectors"`
	BuiltinOps    []string         `json:"builtin_ops"`
	ShellBinaries []string         `json:"shell_binaries"`
	DynamicShell  int              `json:"dynamic_shell"`
	FileReads     int              `json:"file_reads"`
	FileWrites    int              `json:"file_writes"`
	Notifies      int              `json:"notifies"`
	ChildSkills   []string         `json:"child_skills"`
	Effectful     bool             `json:"effectful"`
	Effects       []effects.Effect `json:"effects"`
}

// Of summarizes the effects of a checked skill.
func Of(f *ast.File, info *check.Info) Footprint {
	af := effects.Of(f, info, nil)
	fp := Footprint{Effects: af.Effects, Effectful: af.Effectful(), ChildSkills: af.Children()}
	conns, builtins, bins := set{}, set{}, set{}
	for _, e := range af.Effects {
		switch e.Kind {
		case effects.Dispatch:
			if e.Connector != "" {
				conns[e.Connector] = true
			} else {
				builtins[e.Tool] = true
			}
		case effects.Shell:
			if e.Dynamic {
				fp.DynamicShell++
			} else {
				bins[e.Subject] = true
			}
		case effects.FileRead:
			fp.FileReads++
		case effects.FileWrite:
			fp.FileWrites++
		case effects.Notify:
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

// OfSource parses and checks a skill source and returns its footprint.
func OfSource(src string) Footprint {
	u := workspace.Parse("skill", []byte(src))
	return Of(u.File, u.Info)
}
