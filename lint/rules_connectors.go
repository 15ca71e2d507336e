package lint

import (
	"sort"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// qualified returns the "$ conn.tool" dispatches with their wired
// connector (nil when not wired), computed once per file (the callers
// only read it).
func qualified(p *Pass) []*ast.DispatchStmt {
	if p.st.qualDone {
		return p.st.qual
	}
	var out []*ast.DispatchStmt
	for _, d := range p.st.idx().dispatches {
		if d.Connector != nil && d.Tool != nil {
			out = append(out, d)
		}
	}
	p.st.qual, p.st.qualDone = out, true
	return out
}

func ruleUnknownConnector() *Rule {
	return &Rule{
		ID: "unknown-connector", Severity: ast.Error, Needs: NeedsConfig,
		Doc: Doc{
			Summary: "`$ conn.tool` where `conn` is not wired in connectors.json.",
			Why:     "The runtime resolves the connector by name at call time and fails when it is missing. The message lists the wired connectors; a close name gets a fix.",
			Bad:     "$ githb.search_issues query=\"is:open\" -> R\n",
			Good:    "$ github.search_issues query=\"is:open\" -> R\n",
		},
		Run: func(p *Pass) {
			if !p.Ctx.ConnectorsKnown {
				return
			}
			names := p.Ctx.ConnectorNames()
			for _, d := range qualified(p) {
				if p.Ctx.Connectors[d.Connector.Name] != nil {
					continue
				}
				s := closest(d.Connector.Name, names)
				diag := p.Reportf(d.Connector, "connector %s is not wired%s (wired: %s)", d.Connector.Name, didYouMean(s), listOrNone(names))
				if s != "" {
					diag.WithFix("use connector "+s, d.Connector.Range, s)
				}
			}
		},
	}
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func ruleUnwiredPrimaryConnector() *Rule {
	return &Rule{
		ID: "unwired-primary-connector", Severity: ast.Error, Needs: NeedsConfig,
		Doc: Doc{
			Summary: "A bare `$ tool` that is neither a typed-contract op (" + codeList(lang.BareDispatches()) + ") nor a wired connector. Info instead of error when every use of that name carries a `(fallback:)`.",
			Why:     "The bare form is reserved for typed-contract ops; other tools are named with their connector (`$ conn.tool`). With no connector behind the name the call always fails.",
			Bad:     "$ search_issues query=\"is:open\" -> R\n",
			Good:    "$ github.search_issues query=\"is:open\" -> R\n",
		},
		Run: func(p *Pass) {
			if !p.Ctx.ConnectorsKnown {
				return
			}
			uses := map[string][]*ast.DispatchStmt{}
			var order []string
			for _, d := range p.st.idx().dispatches {
				if d.Connector != nil || d.Tool == nil || isTypedOp(d.Tool.Name) || p.Ctx.Connectors[d.Tool.Name] != nil || isConnectorAsTool(d) {
					continue
				}
				if uses[d.Tool.Name] == nil {
					order = append(order, d.Tool.Name)
				}
				uses[d.Tool.Name] = append(uses[d.Tool.Name], d)
			}
			for _, name := range order {
				reportUnwired(p, name, uses[name])
			}
		},
	}
}

func reportUnwired(p *Pass, name string, ds []*ast.DispatchStmt) {
	sev := ast.Info
	for _, d := range ds {
		if d.Fallback == nil {
			sev = ast.Error
		}
	}
	hint := "qualify it as \"$ connector." + name + "\""
	if owner := connectorWithTool(p.Ctx, name); owner != "" {
		hint = "did you mean $ " + owner + "." + name + "?"
	}
	for _, d := range ds {
		diag := p.Reportf(d.Tool, "$ %s is not a typed-contract op and no connector named %s is wired: %s", name, name, hint)
		diag.Severity = sev
		if owner := connectorWithTool(p.Ctx, name); owner != "" {
			diag.WithFix("qualify as "+owner+"."+name, d.Tool.Range, owner+"."+name)
		}
	}
}

// connectorWithTool returns the one wired connector declaring tool, or "".
func connectorWithTool(ctx *Context, tool string) string {
	found := ""
	for _, n := range ctx.ConnectorNames() {
		if c := ctx.Connectors[n]; c.Tools[tool] != nil {
			if found != "" {
				return ""
			}
			found = n
		}
	}
	return found
}

func ruleDisallowedTool() *Rule {
	return &Rule{
		ID: "disallowed-tool", Severity: ast.Error, Needs: NeedsConfig,
		Doc: Doc{
			Summary: "`$ conn.tool` where `tool` is not in the connector's `allowed_tools`.",
			Why:     "The operator restricted the connector; the runtime refuses other tools.",
			Bad:     "$ github.delete_repo name=\"x\"   # allowed_tools: [\"search_issues\"]\n",
			Good:    "$ github.search_issues query=\"is:open\" -> R\n",
		},
		Run: func(p *Pass) {
			for _, d := range qualified(p) {
				c := p.Ctx.Connectors[d.Connector.Name]
				if c == nil || c.allowsTool(d.Tool.Name) {
					continue
				}
				s := closest(d.Tool.Name, c.AllowedTools)
				diag := p.Reportf(d.Tool, "tool %s is not in the allowed_tools of connector %s (%s)%s", d.Tool.Name, c.Name, listOrNone(c.AllowedTools), didYouMean(s))
				if s != "" {
					diag.WithFix("use "+s, d.Tool.Range, s)
				}
			}
		},
	}
}

func ruleUnknownToolOnConnector() *Rule {
	return &Rule{
		ID: "unknown-tool-on-connector", Severity: ast.Error, Needs: NeedsSchemas,
		Doc: Doc{
			Summary: "`$ conn.tool` where the connector's known tool list lacks `tool`.",
			Why:     "The connector declares its tools (statically in connectors.json, or discovered); calling another name fails. A close name gets a fix.",
			Bad:     "$ github.search_isues query=\"is:open\" -> R\n",
			Good:    "$ github.search_issues query=\"is:open\" -> R\n",
		},
		Run: func(p *Pass) {
			for _, d := range qualified(p) {
				c := p.Ctx.Connectors[d.Connector.Name]
				if c == nil || !c.ToolsKnown || c.Tools[d.Tool.Name] != nil || !c.allowsTool(d.Tool.Name) {
					continue
				}
				names := c.toolNames()
				s := closest(d.Tool.Name, names)
				diag := p.Reportf(d.Tool, "connector %s has no tool %s%s (tools: %s)", c.Name, d.Tool.Name, didYouMean(s), listOrNone(names))
				if s != "" {
					diag.WithFix("use "+s, d.Tool.Range, s)
				}
			}
		},
	}
}

func ruleUnverifiedQualifiedTool() *Rule {
	return &Rule{
		ID: "unverified-qualified-tool", Severity: ast.Info, Needs: NeedsSchemas,
		Doc: Doc{
			Summary: "`$ conn.tool` on a wired connector whose tool surface is unknown, so the tool and its arguments are resolved only at run time.",
			Why:     "Declare the connector's tools (a `tools` list with input schemas in connectors.json) so skillc can check tool names and arguments offline.",
			Bad:     "$ youtrack.search_issues query=\"for: me\" -> R   # no tools declared\n",
			Good:    "$ youtrack.search_issues query=\"for: me\" -> R   # tools declared in connectors.json\n",
		},
		Run: func(p *Pass) {
			for _, d := range qualified(p) {
				c := p.Ctx.Connectors[d.Connector.Name]
				if c == nil || c.ToolsKnown {
					continue
				}
				p.Reportf(d.Tool, "the tools of connector %s are not declared, so %s is checked only at run time", c.Name, d.Tool.Name)
			}
		},
	}
}

// toolOf returns the declared tool a dispatch calls, or nil.
func toolOf(p *Pass, d *ast.DispatchStmt) *Tool {
	c := p.Ctx.Connectors[d.Connector.Name]
	if c == nil {
		return nil
	}
	return c.Tools[d.Tool.Name]
}

func ruleUnknownConnectorArg() *Rule {
	return &Rule{
		ID: "unknown-connector-arg", Severity: ast.Warning, Needs: NeedsSchemas,
		Doc: Doc{
			Summary: "A kwarg that the tool's input schema does not define.",
			Why:     "The server rejects or ignores unknown arguments; usually a typo of a real one (the fix renames it).",
			Bad:     "$ github.search_issues qeury=\"is:open\" -> R\n",
			Good:    "$ github.search_issues query=\"is:open\" -> R\n",
		},
		local: true,
		Run: func(p *Pass) {
			for _, d := range qualified(p) {
				if p.skip(d.Range) {
					continue
				}
				s, ok := p.schemaOf(toolOf(p, d))
				if !ok || !s.closed() {
					continue
				}
				names := s.propertyNames()
				for _, a := range d.Args {
					if a.Key == nil || lang.IsUniversal(a.Key.Name) || s.Properties[a.Key.Name] != nil {
						continue
					}
					sug := closest(a.Key.Name, names)
					diag := p.Reportf(a.Key, "%s.%s has no argument %s%s (arguments: %s)", d.Connector.Name, d.Tool.Name, a.Key.Name, didYouMean(sug), listOrNone(names))
					if sug != "" {
						diag.WithFix("rename to "+sug, a.Key.Range, sug)
					}
				}
			}
		},
	}
}

func ruleMissingRequiredConnectorArg() *Rule {
	return &Rule{
		ID: "missing-required-connector-arg", Severity: ast.Warning, Needs: NeedsSchemas,
		Doc: Doc{
			Summary: "A required property of the tool's input schema that the call does not supply.",
			Why:     "The server rejects the call at run time.",
			Bad:     "$ github.create_issue title=\"x\" approved=\"triage\"   # repo is required\n",
			Good:    "$ github.create_issue repo=\"acme/foo\" title=\"x\" approved=\"triage\"\n",
		},
		Run: func(p *Pass) {
			for _, d := range qualified(p) {
				s, ok := p.schemaOf(toolOf(p, d))
				if !ok {
					continue
				}
				var missing []string
				for _, req := range s.Required {
					if d.Arg(req) == nil {
						missing = append(missing, req)
					}
				}
				sort.Strings(missing)
				if len(missing) > 0 {
					p.Reportf(opAnchor(d), "%s.%s requires %s: add %s", d.Connector.Name, d.Tool.Name, strings.Join(missing, ", "), argTemplate(missing))
				}
			}
		},
	}
}

func argTemplate(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=\"...\""
	}
	return strings.Join(parts, " ")
}

func ruleUnknownLLMModel() *Rule {
	return &Rule{
		ID: "unknown-llm-model", Severity: ast.Warning, Needs: NeedsConfig,
		Doc: Doc{
			Summary: "`$ llm model=\"X\"` where X is neither a registered local-model alias nor a model the wired local models make available.",
			Why:     "An unknown model falls through to the default model with X as a hint, which usually fails upstream or silently uses another model.",
			Bad:     "$ llm prompt=\"hi\" model=\"qwn\" -> R\n",
			Good:    "$ llm prompt=\"hi\" model=\"qwen\" -> R\n",
		},
		Run: func(p *Pass) {
			if !p.Ctx.ModelsKnown {
				return
			}
			for _, d := range p.st.idx().dispatches {
				if d.Connector != nil || d.Tool == nil || d.Tool.Name != "llm" {
					continue
				}
				a := d.Arg("model")
				if a == nil {
					continue
				}
				v, ok := litString(a.Value)
				if !ok || contains(p.Ctx.Models, v) {
					continue
				}
				s := closest(v, p.Ctx.Models)
				diag := p.Reportf(a.Value, "model %q is not a wired local-model alias or available model%s (models: %s)", v, didYouMean(s), listOrNone(p.Ctx.Models))
				if s != "" {
					diag.WithFix("use "+s, a.Value.Span(), quoteLike(a.Value, s))
				}
			}
		},
	}
}

// quoteLike renders s in the quoting style of e.
func quoteLike(e ast.Expr, s string) string {
	if _, ok := e.(*ast.StringLit); ok {
		return `"` + s + `"`
	}
	return s
}

// substrateAliases maps capability type names to substrate slots.
var substrateAliases = map[string]string{
	"data_store": "data_store", "datastore": "data_store", "data": "data_store",
	"skill_store": "skill_store", "skillstore": "skill_store", "skills": "skill_store",
	"local_model": "local_model", "localmodel": "local_model", "llm": "local_model", "model": "local_model",
	"agent_connector": "agent_connector", "agent": "agent_connector", "agentconnector": "agent_connector",
}

func ruleUnknownCapability() *Rule {
	return &Rule{
		ID: "unknown-capability", Severity: ast.Error, Needs: NeedsConfig,
		Doc: Doc{
			Summary: "A `# Requires: type.flag` capability that no wired connector provides (type is a substrate slot such as `local_model`/`data_store`/`agent_connector`, or a connector name; flag a tool or feature).",
			Why:     "Capability requirements make a missing substrate a compile-time failure instead of a failed dispatch in the middle of a run.",
			Bad:     "# Requires: local_model.run   # no local model wired\n",
			Good:    "# Requires: local_model.run   # with substrate.local_model wired\n",
		},
		Run: func(p *Pass) {
			if !p.Ctx.ConnectorsKnown {
				return
			}
			for _, h := range p.File.HeadersOf(ast.HeaderRequires) {
				for _, r := range h.Reqs {
					if r.Kind == ast.ReqCapability && r.Key != nil {
						checkCapability(p, r.Key)
					}
				}
			}
		},
	}
}

func checkCapability(p *Pass, key *ast.Ident) {
	typ, flag, _ := strings.Cut(key.Name, ".")
	if slot, ok := substrateAliases[strings.ToLower(typ)]; ok {
		if !p.Ctx.Substrates[slot] {
			p.Reportf(key, "capability %s needs a %s, and none is wired in connectors.json (substrate.%s)", key.Name, slot, slot)
		}
		return
	}
	c := p.Ctx.Connectors[typ]
	if c == nil {
		names := append(p.Ctx.ConnectorNames(), "local_model", "data_store", "skill_store", "agent_connector")
		p.Reportf(key, "capability %s: no wired connector or substrate is named %s%s", key.Name, typ, didYouMean(closest(typ, names)))
		return
	}
	if flag != "" && c.ToolsKnown && c.Tools[flag] == nil {
		p.Reportf(key, "capability %s: connector %s has no tool %s%s", key.Name, typ, flag, didYouMean(closest(flag, c.toolNames())))
	}
}
