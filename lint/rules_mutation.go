package lint

import (
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// mutationKind says why op mutates state, or "" when it does not.
func mutationKind(ctx *Context, s ast.Stmt) string {
	switch s := s.(type) {
	case *ast.CallStmt:
		return callMutation(s)
	case *ast.DispatchStmt:
		if s.Tool == nil {
			return ""
		}
		conn := "primary" // a bare "$ tool" routes to the primary connector
		if s.Connector == nil {
			if isTypedOp(s.Tool.Name) {
				return languageOpMutation(s.Tool.Name)
			}
		} else {
			conn = s.Connector.Name
		}
		return lang.ToolMutation(s.Tool.Name, ctx.Connectors[conn].ToolFacts(s.Tool.Name))
	}
	return ""
}

// languageOpMutation says why the bare "$ name" language op mutates, or "".
func languageOpMutation(name string) string {
	if lang.Mutates(name) == lang.Always {
		return "$ " + name + " writes to the store"
	}
	return ""
}

// mayMutate reports whether callMutation can say that a call named name
// mutates.
func mayMutate(name string) bool { return name == "file_write" || name == "shell" }

func callMutation(c *ast.CallStmt) string {
	switch callName(c) {
	case "file_write":
		return "file_write writes a file"
	case "shell":
		if isUnsafeShell(c) {
			return "unsafe shell can change anything"
		}
		if argv, ok := check.ShellArgv(c); ok {
			return lang.ClassifyShell(argv).Mutating
		}
	}
	return ""
}

func ruleUnconfirmedMutation() *Rule {
	return &Rule{
		ID: "unconfirmed-mutation", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A mutating op (`file_write`, `$ data_write`, `$ skill_write`, a tool with a mutating verb or declared `\"mutating\": true`, unsafe or destructive `shell`) with neither `approved=\"...\"` nor `# Autonomous: true`.",
			Why:     "Mutations need an explicit authorization signal: per call (`approved=\"reason\"`) or for the whole skill (`# Autonomous: true`).",
			Bad:     "$ tickets.delete_issue id=\"42\"\n",
			Good:    "$ tickets.delete_issue id=\"42\" approved=\"cleanup requested in INFRA-7\"\n",
		},
		local: true,
		Run: func(p *Pass) {
			if p.Info.Autonomous {
				return
			}
			for _, s := range p.st.idx().argOps {
				if p.skip(s.Span()) {
					continue
				}
				if c, ok := s.(*ast.CallStmt); ok && !mayMutate(callName(c)) {
					continue // the cheap test first: most calls are emit(...)
				}
				why := mutationKind(p.Ctx, s)
				if why == "" || hasApproval(opArgs(s)) {
					continue
				}
				p.Reportf(opAnchor(s), "%s mutates state (%s) without authorization: add approved=\"reason\" or declare # Autonomous: true", opLabel(s), why)
			}
		},
	}
}

func ruleApprovalNotLiteral() *Rule {
	return &Rule{
		ID: "approval-not-literal", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`approved=` whose value is not a literal string: a `${...}` substitution, a list or an object.",
			Why:     "Approval is the author's signature on one op. A value computed at run time lets a caller input (`approved=\"${WHY}\"`) or a tool's answer grant the approval; the runtime refuses it.",
			Bad:     "file_write(path=\"out.txt\", content=\"x\", approved=\"${WHY}\")\n",
			Good:    "file_write(path=\"out.txt\", content=\"x\", approved=\"nightly export, INFRA-12\")\n",
		},
		local: true,
		Run: func(p *Pass) {
			for _, s := range p.st.idx().argOps {
				if p.skip(s.Span()) {
					continue
				}
				a := argOf(opArgs(s), "approved")
				if a == nil || a.Value == nil {
					continue
				}
				if _, ok := litString(a.Value); !ok {
					p.Reportf(a.Value, "approved= must be a literal string written by the author, not a computed value: write the reason itself, e.g. approved=\"cleanup requested in INFRA-7\"")
				}
			}
		},
	}
}

func hasApproval(args []*ast.Arg) bool {
	a := argOf(args, "approved")
	if a == nil || a.Value == nil {
		return false
	}
	if v, ok := litString(a.Value); ok {
		return strings.TrimSpace(v) != ""
	}
	return true
}

// opAnchor is the part of an op that diagnostics about the whole op
// underline: the op name.
func opAnchor(s ast.Stmt) Spanner {
	switch s := s.(type) {
	case *ast.DispatchStmt:
		if s.Tool != nil {
			if s.Connector != nil {
				return ast.Range{From: s.Connector.Pos(), To: s.Tool.End()}
			}
			return s.Tool
		}
	case *ast.CallStmt:
		if s.Name != nil {
			return s.Name
		}
	}
	return s
}
