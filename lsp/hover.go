package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/check/types"
	"github.com/skillscript/skillc/internal/classification"
	"github.com/skillscript/skillc/internal/leaf/lang"
	"github.com/skillscript/skillc/lint"
)

// hover answers textDocument/hover.
func (s *Server) hover(_ context.Context, p *protocol.HoverParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	off := byteOffset(snap.lines, p.Position)
	if isSkillMD(snap.uri) {
		return s.skillMDHover(snap, off)
	}
	sym := snap.symbolAt(off)
	var parts []string
	if md := snap.hoverText(sym); md != "" {
		parts = append(parts, md)
	}
	parts = append(parts, s.diagnosticDocs(snap, off)...)
	if len(parts) == 0 {
		return nil, nil
	}
	h := &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: strings.Join(parts, "\n---\n")}}
	if sym.kind != symNone && sym.rng.IsValid() {
		r := lspRange(snap.lines, sym.rng)
		h.Range = &r
	}
	return h, nil
}

// hoverText renders the documentation of a symbol.
func (snap *snapshot) hoverText(sym symbol) string {
	switch sym.kind {
	case symVar:
		return snap.varHover(sym)
	case symPath:
		return snap.pathHover(sym)
	case symTarget:
		return snap.targetHover(sym)
	case symOp:
		if o, ok := lang.Op(sym.name); ok {
			return opMarkdown(o)
		}
		return fmt.Sprintf("`%s(...)` is not a runtime op; external tools are called as `$ connector.tool`.", sym.name)
	case symTool:
		return snap.toolHover(sym)
	case symConnector:
		return snap.connectorHover(sym.name)
	case symKwarg:
		return snap.kwargHover(sym)
	case symFilter:
		return filterHover(sym.name)
	case symHeader:
		if sym.header != nil {
			if h, ok := lang.Header(sym.header.Kind); ok {
				return joinNonEmpty(joinNonEmpty(headerMarkdown(h), snap.statusHover(sym.header)), classificationHover(sym.header))
			}
		}
	case symSecret:
		return snap.secretHover(sym.name)
	case symSkill:
		return snap.skillHover(sym.name)
	}
	return ""
}

// varHover describes a variable: where it is bound, its default and type.
func (snap *snapshot) varHover(sym symbol) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**variable** `%s`", sym.name)
	if len(sym.binds) == 0 {
		switch {
		case sym.name == "ERROR_CONTEXT" || check.IsAmbient(sym.name):
			fmt.Fprintf(&b, " (ambient)\n\n%s", lang.AmbientDoc(sym.name))
		default:
			b.WriteString("\n\nNot declared or bound in this skill.")
		}
		return b.String()
	}
	if t := snap.typeOf(sym.binds); t != "" {
		fmt.Fprintf(&b, ": %s", t)
	}
	if ty := snap.typer().Bindings(sym.binds); ty != nil {
		fmt.Fprintf(&b, "\n\ntype `%s` (from the tool's outputSchema)", ty)
	}
	b.WriteString("\n\n")
	for _, bd := range sym.binds {
		fmt.Fprintf(&b, "- line %d: %s", snap.line(bd.Ident.Pos()), bd.Kind)
		if bd.Target != nil && bd.Target.Name != nil {
			fmt.Fprintf(&b, " in `%s`", bd.Target.Name.Name)
		}
		if bd.Value != nil {
			label := "value"
			if bd.Kind == check.BindVar {
				label = "default"
			}
			fmt.Fprintf(&b, ", %s `%s`", label, oneLine(snap.text(bd.Value.Span())))
		} else if bd.Kind == check.BindVar {
			b.WriteString(", required input")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// typeOf infers a type description from the bindings, when known.
func (snap *snapshot) typeOf(binds []*check.Binding) string {
	for _, bd := range binds {
		switch bd.Kind {
		case check.BindIter:
			return "loop iterator"
		case check.BindOp:
			if op := opName(bd.Node); op != "" {
				return "result of `" + op + "`"
			}
		case check.BindVar, check.BindSet:
			if t := exprType(bd.Value); t != "" {
				return t
			}
		}
	}
	return ""
}

// exprType names the static type of a literal.
func exprType(e ast.Expr) string {
	switch e.(type) {
	case *ast.StringLit, *ast.BareWord:
		return "string"
	case *ast.NumberLit:
		return "number"
	case *ast.BoolLit:
		return "boolean"
	case *ast.NullLit:
		return "null"
	case *ast.ListLit:
		return "list"
	case *ast.ObjectLit:
		return "object"
	}
	return ""
}

// opName renders the op of a statement ("$ llm", "shell").
func opName(n ast.Node) string {
	switch st := n.(type) {
	case *ast.DispatchStmt:
		if st.Tool == nil {
			return "$"
		}
		if st.Connector != nil {
			return "$ " + st.Connector.Name + "." + st.Tool.Name
		}
		return "$ " + st.Tool.Name
	case *ast.CallStmt:
		if st.Name != nil {
			return st.Name.Name + "()"
		}
	}
	return ""
}

// targetHover describes a target with its dependencies and dependents.
func (snap *snapshot) targetHover(sym symbol) string {
	t := sym.target
	if t == nil {
		return fmt.Sprintf("**target** `%s`\n\nNo target of this name in the skill.", sym.name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**target** `%s` (line %d)", sym.name, snap.line(t.Pos()))
	if snap.Info.Graph.Goal == t {
		b.WriteString(" — the `default:` goal")
	}
	b.WriteString("\n\n")
	fmt.Fprintf(&b, "- needs: %s\n", targetList(snap.Info.Graph.Deps[t]))
	fmt.Fprintf(&b, "- needed by: %s\n", targetList(snap.Info.Graph.Dependents(t)))
	if t.Body != nil {
		fmt.Fprintf(&b, "- statements: %d\n", len(t.Body.Stmts))
	}
	if snap.Info.Graph.Goal != nil && !snap.Info.Graph.Reachable[t] {
		b.WriteString("- not reachable from the goal\n")
	}
	return b.String()
}

// targetList renders target names.
func targetList(ts []*ast.Target) string {
	var names []string
	for _, t := range ts {
		if t.Name != nil {
			names = append(names, "`"+t.Name.Name+"`")
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// toolHover describes `$ conn.tool` or a typed-contract op.
func (snap *snapshot) toolHover(sym symbol) string {
	d, _ := sym.op.(*ast.DispatchStmt)
	if d == nil || d.Connector == nil {
		if o, ok := lang.Op(sym.name); ok {
			return opMarkdown(o)
		}
		return fmt.Sprintf("`$ %s` is not a typed-contract op; qualify it as `$ connector.%s`.", sym.name, sym.name)
	}
	conn := d.Connector.Name
	tools, ok := snap.env.Tools(conn)
	if !ok {
		return fmt.Sprintf("**tool** `%s.%s`\n\nThe tool surface of `%s` is not known statically; it is resolved at run time.", conn, sym.name, conn)
	}
	for _, t := range tools {
		if t.Name == sym.name {
			return toolMarkdown(conn, t.Name, t.Description, t.InputSchema, t.Mutating)
		}
	}
	return fmt.Sprintf("**tool** `%s.%s`\n\nConnector `%s` has no tool `%s`.", conn, sym.name, conn, sym.name)
}

// toolMarkdown renders a tool's description and input schema.
func toolMarkdown(conn, name, desc string, schema json.RawMessage, mutating bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**tool** `%s.%s`", conn, name)
	if mutating {
		b.WriteString(" (mutating)")
	}
	b.WriteString("\n\n")
	if desc != "" {
		b.WriteString(desc + "\n\n")
	}
	for _, p := range schemaProps(schema) {
		req := ""
		if p.Required {
			req = " (required)"
		}
		fmt.Fprintf(&b, "- `%s`%s", p.Name, req)
		if p.Type != "" {
			fmt.Fprintf(&b, " %s", p.Type)
		}
		if p.Doc != "" {
			fmt.Fprintf(&b, ": %s", p.Doc)
		}
		b.WriteString("\n")
	}
	if len(schema) > 0 {
		fmt.Fprintf(&b, "\n```json\n%s\n```\n", prettyJSON(schema))
	}
	return b.String()
}

// connectorHover describes a connector entry.
func (snap *snapshot) connectorHover(name string) string {
	c := snap.env.Connectors.Connector(name)
	if c == nil {
		return fmt.Sprintf("**connector** `%s`\n\nNot wired in connectors.json.", name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**connector** `%s` (%s)\n", name, c.Class)
	if tools, ok := snap.env.Tools(name); ok {
		b.WriteString("\nTools:\n")
		for _, t := range tools {
			fmt.Fprintf(&b, "- `%s`: %s\n", t.Name, firstLine(t.Description))
		}
	}
	return b.String()
}

// kwargHover documents a keyword argument of an op or tool.
func (snap *snapshot) kwargHover(sym symbol) string {
	switch op := sym.op.(type) {
	case *ast.CallStmt:
		if o, ok := lang.Op(op.Name.Name); ok {
			return paramMarkdown(o, sym.name)
		}
	case *ast.DispatchStmt:
		if op.Connector == nil && op.Tool != nil {
			if o, ok := lang.Op(op.Tool.Name); ok {
				return paramMarkdown(o, sym.name)
			}
		}
		if op.Connector != nil && op.Tool != nil {
			return snap.toolParamHover(op.Connector.Name, op.Tool.Name, sym.name)
		}
	}
	return ""
}

// paramMarkdown documents one kwarg of an op.
func paramMarkdown(o lang.OpSpec, name string) string {
	p, ok := o.Param(name)
	if !ok {
		for _, u := range lang.Universal() {
			if u.Name == name {
				p, ok = u, true
			}
		}
	}
	if !ok {
		return fmt.Sprintf("`%s` is not a known argument of `%s`.", name, o.Name)
	}
	req := ""
	if p.Required {
		req = " (required)"
	}
	return fmt.Sprintf("**%s** argument `%s`%s\n\n%s", o.Name, p.Name, req, p.Doc)
}

// toolParamHover documents one input-schema property of a tool.
func (snap *snapshot) toolParamHover(conn, tool, name string) string {
	tools, _ := snap.env.Tools(conn)
	for _, t := range tools {
		if t.Name != tool {
			continue
		}
		for _, p := range schemaProps(t.InputSchema) {
			if p.Name == name {
				return fmt.Sprintf("**%s.%s** argument `%s` %s\n\n%s", conn, tool, p.Name, p.Type, p.Doc)
			}
		}
	}
	return ""
}

// filterHover documents a filter.
func filterHover(name string) string {
	d, ok := lang.LookupFilter(name)
	if !ok {
		msg := fmt.Sprintf("`|%s` is not a shipped filter.", name)
		if s := lang.SuggestFilter(name); s != "" {
			msg += fmt.Sprintf(" Did you mean `|%s`?", s)
		}
		return msg
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**filter** `|%s`\n\n%s\n", d.Name, d.Summary)
	if d.Arg != "" {
		fmt.Fprintf(&b, "\nArgument: %s\n", d.Arg)
	}
	if d.Example != "" {
		fmt.Fprintf(&b, "\n`%s` with `%s` gives `%s`\n", d.Example, oneLine(d.Input), oneLine(d.Output))
	}
	return b.String()
}

// secretHover says whether a secret is declared.
func (snap *snapshot) secretHover(name string) string {
	if req, ok := snap.Info.Secrets[name]; ok {
		return fmt.Sprintf("**secret** `%s`\n\nDeclared by `# Requires: secret.%s` (line %d). Its value is read from `SKILLSCRIPT_SECRET_%s` and only reaches sinks.", name, name, snap.line(req.Pos()), name)
	}
	return fmt.Sprintf("**secret** `%s`\n\nNot declared: add `# Requires: secret.%s`.", name, name)
}

// skillHover describes a skill of the workspace.
func (snap *snapshot) skillHover(name string) string {
	path, ok := snap.env.Skills[name]
	if !ok {
		return fmt.Sprintf("**skill** `%s`\n\nNot found in the workspace.", name)
	}
	return fmt.Sprintf("**skill** `%s`\n\nDefined in `%s`.", name, path)
}

// diagnosticDocs returns the rule documentation of the diagnostics at off.
func (s *Server) diagnosticDocs(snap *snapshot, off int) []string {
	var out []string
	seen := map[string]bool{}
	p := ast.PosOf(off)
	for _, d := range snap.Diags {
		if d.Rule == "" || seen[d.Rule] || p < d.Range.From || p > d.Range.To {
			continue
		}
		seen[d.Rule] = true
		md := fmt.Sprintf("**%s** `%s`: %s", d.Severity, d.Rule, d.Message)
		if doc, ok := s.opts.RuleDoc(d.Rule); ok {
			md += "\n\n" + doc
		}
		md += fmt.Sprintf("\n\n[rule documentation](%s)", s.ruleURL(d.Rule))
		out = append(out, md)
	}
	return out
}

// oneLine shortens text to one line for display.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// statusHover adds the approval state to a hover on # Status:.
func (snap *snapshot) statusHover(h *ast.Header) string {
	if h.Kind != ast.HeaderStatus {
		return ""
	}
	return snap.approvalHover()
}

func joinNonEmpty(a, b string) string {
	if b == "" {
		return a
	}
	return a + "\n\n" + b
}

// classificationHover lists what a # Classification: header declares,
// key by key with the allowed values, and its problems.
func classificationHover(h *ast.Header) string {
	if h.Kind != ast.HeaderClassification {
		return ""
	}
	c, probs := classification.Build(classification.FromHeader(h))
	var b strings.Builder
	b.WriteString("| key | value | allowed |\n|---|---|---|\n")
	vals := map[string]string{classification.KeyRole: c.Role, classification.KeyInvocation: c.Invocation,
		classification.KeyEffectMode: c.EffectMode, classification.KeyAttachTargets: strings.Join(c.AttachTargets, ", ")}
	for _, k := range classification.Keys() {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", k, vals[k], strings.Join(classification.Values(k), ", "))
	}
	for _, p := range probs {
		fmt.Fprintf(&b, "\n- %s", p.Message)
	}
	return b.String()
}

// pathHover describes the field a path segment selects, when the type of
// the value is known from a tool's outputSchema.
func (snap *snapshot) pathHover(sym symbol) string {
	if sym.ref == nil {
		return ""
	}
	sub := sym.ref.Subst
	for i, seg := range sub.Path {
		if seg.Range != sym.rng {
			continue
		}
		ty := snap.typer()
		parent := ty.Ref(sym.ref, i)
		if parent == nil {
			return ""
		}
		name := sub.Root.Name
		for _, s := range sub.Path[:i+1] {
			name += "." + s.Name
		}
		var b strings.Builder
		fmt.Fprintf(&b, "**field** `%s`", name)
		if t := lint.Step(parent, seg); t != nil {
			fmt.Fprintf(&b, ": `%s`", t)
			if t.Description != "" {
				fmt.Fprintf(&b, "\n\n%s", t.Description)
			}
		} else if parent.Kind == types.Object && parent.Closed {
			if _, ok := parent.Field(seg.Name); !ok {
				fmt.Fprintf(&b, "\n\nnot a field of `%s`", parent)
			}
		}
		if p, ok := parent.Field(seg.Name); ok && p.Required {
			b.WriteString("\n\nrequired")
		}
		return b.String()
	}
	return ""
}
