package lint

import (
	"strconv"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// shippedFilters are the names of the shipped filters (internal/leaf/lang).
var shippedFilters = lang.Filters()

// isTypedOp reports whether a bare "$ name" is a language op (a
// typed-contract op or $ execute_skill) rather than an external tool.
func isTypedOp(name string) bool { return lang.IsBareDispatch(name) }

// opKwargs returns the keyword arguments the catalog lists for op.
func opKwargs(op string) []string { return lang.Kwargs(op) }

// codeList renders names as one code span: `a b c`.
func codeList(names []string) string { return "`" + strings.Join(names, " ") + "`" }

// litString returns the literal text of a value (a string without
// substitutions, a bare word, a number or a boolean).
func litString(e ast.Expr) (string, bool) {
	return check.LitString(e)
}

// textOf returns the Text of a string or bare word, or nil.
func textOf(e ast.Expr) *ast.Text {
	return check.TextOf(e)
}

// argValue returns the value of the kwarg key of a call or dispatch.
func argOf(args []*ast.Arg, key string) *ast.Arg {
	for _, a := range args {
		if a.Key != nil && a.Key.Name == key {
			return a
		}
	}
	return nil
}

// callName returns the name of a call statement, or "".
func callName(s ast.Stmt) string {
	if c, ok := s.(*ast.CallStmt); ok && c.Name != nil {
		return c.Name.Name
	}
	return ""
}

// dispatchName returns "conn.tool" or "tool" for a dispatch statement.
func dispatchName(d *ast.DispatchStmt) string {
	tool := ""
	if d.Tool != nil {
		tool = d.Tool.Name
	}
	if d.Connector != nil {
		return d.Connector.Name + "." + tool
	}
	return tool
}

// isUnsafeShell reports whether c is shell(..., unsafe=true).
func isUnsafeShell(c *ast.CallStmt) bool {
	return check.IsUnsafeShell(c)
}

// bindingOp returns the statement that binds b with "-> NAME", or nil.
func bindingOp(b *check.Binding) ast.Stmt {
	if b == nil || b.Kind != check.BindOp {
		return nil
	}
	s, _ := b.Node.(ast.Stmt)
	return s
}

// refBinders returns the non-append bindings a reference resolves to.
func refBinders(r *check.Ref) []*check.Binding {
	var out []*check.Binding
	for _, b := range r.Bindings {
		if b.Kind != check.BindAppend {
			out = append(out, b)
		}
	}
	return out
}

// outputKinds returns the # Output: kinds of f ("agent", "text", ...).
func outputSpecs(f *ast.File) []*ast.OutputSpec {
	var out []*ast.OutputSpec
	for _, h := range f.HeadersOf(ast.HeaderOutput) {
		out = append(out, h.Outputs...)
	}
	return out
}

func outputKind(o *ast.OutputSpec) string {
	if o.Kind == nil {
		return ""
	}
	return strings.ToLower(o.Kind.Name)
}

// hasAgentOutput reports whether f delivers to an agent (agent: or template:).
func hasAgentOutput(f *ast.File) (*ast.OutputSpec, bool) {
	for _, o := range outputSpecs(f) {
		if k := outputKind(o); k == "agent" || k == "template" {
			return o, true
		}
	}
	return nil, false
}

// hasTemplate reports whether f has a body template with any non-blank line.
func hasTemplate(f *ast.File) bool {
	for _, t := range f.Templates {
		for _, l := range t.Lines {
			if !l.Blank {
				return true
			}
		}
	}
	return false
}

// skillRefName returns the skill named by execute_skill(name=...)/
// inline(skill=...)/$ execute_skill name=..., with the argument.
func skillRefArg(s ast.Stmt) (*ast.Arg, string) {
	var args []*ast.Arg
	var op string
	switch s := s.(type) {
	case *ast.CallStmt:
		args, op = s.Args, callName(s)
	case *ast.DispatchStmt:
		if s.Connector != nil || s.Tool == nil || !lang.IsBareDispatch(s.Tool.Name) {
			return nil, ""
		}
		args, op = s.Args, s.Tool.Name
	default:
		return nil, ""
	}
	for _, k := range lang.SkillArgs(op) {
		if a := argOf(args, k); a != nil {
			return a, k
		}
	}
	return nil, ""
}

// skillRefLit returns the literal skill name of an execute_skill/inline op.
func skillRefLit(s ast.Stmt) (*ast.Arg, string, bool) {
	a, _ := skillRefArg(s)
	if a == nil || a.Value == nil {
		return nil, "", false
	}
	v, ok := litString(a.Value)
	return a, v, ok && v != ""
}

func itoa(i int) string { return strconv.Itoa(i) }
