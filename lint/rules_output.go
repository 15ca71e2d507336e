package lint

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/skillscript/skillc/ast"
)

func ruleUnusedAugmentingHeader() *Rule {
	return &Rule{
		ID: "unused-augmenting-header", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`# Event-type:` on a skill with no `agent:` or `template:` output.",
			Why:     "The event type rides along with an agent delivery; a skill that delivers text, a file or nothing never sends it.",
			Bad:     "# Output: text\n# Event-type: ticket-911\n",
			Good:    "# Output: agent: oncall\n# Event-type: ticket-911\n",
		},
		Run: func(p *Pass) {
			if _, ok := hasAgentOutput(p.File); ok {
				return
			}
			for _, h := range p.File.HeadersOf(ast.HeaderEventType) {
				p.Reportf(h, "# Event-type: has no effect: the skill has no \"# Output: agent:\" or \"# Output: template:\" delivery")
			}
		},
	}
}

func ruleOutputAgentTargetNoEmit() *Rule {
	return &Rule{
		ID: "output-agent-target-no-emit", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "An `agent:`/`template:` output with no `emit()` call and no body template.",
			Why:     "Agent deliveries carry the body template or, without one, the joined emits. With neither, the agent receives an empty payload.",
			Bad:     "# Output: agent: oncall\nt:\n    $ llm prompt=\"summarize\" -> S\n\ndefault: t\n",
			Good:    "# Output: agent: oncall\n\n${S}\n\nt:\n    $ llm prompt=\"summarize\" -> S\n\ndefault: t\n",
		},
		Run: func(p *Pass) {
			o, ok := hasAgentOutput(p.File)
			if !ok || hasTemplate(p.File) || p.st.emits() > 0 {
				return
			}
			p.Reportf(o, "\"# Output: %s\" delivers nothing: the skill has no body template and no emit(); write the output as template text or emit() it", p.Text(o.Range))
		},
	}
}

func ruleOutputAgentTargetNoConnector() *Rule {
	return &Rule{
		ID: "output-agent-target-no-connector", Severity: ast.Warning, Needs: NeedsConfig,
		Doc: Doc{
			Summary: "An `agent:`/`template:` output while no agent connector is wired (`substrate.agent_connector`).",
			Why:     "Without an agent connector the runtime has nowhere to deliver; the delivery fails after the skill has done its work.",
			Bad:     "# Output: agent: oncall   # and no agent_connector in connectors.json\n",
			Good:    "# Output: agent: oncall   # with substrate.agent_connector wired\n",
		},
		Run: func(p *Pass) {
			if !p.Ctx.AgentConnectorKnown || p.Ctx.AgentConnector {
				return
			}
			for _, o := range outputSpecs(p.File) {
				if k := outputKind(o); k == "agent" || k == "template" {
					p.Reportf(o, "\"# Output: %s\" needs an agent connector, and none is wired: set substrate.agent_connector in connectors.json", p.Text(o.Range))
				}
			}
		},
	}
}

func ruleAddressRoutedWake() *Rule {
	return &Rule{
		ID: "address-routed-wake", Severity: ast.Info, Needs: NeedsSource,
		Doc: Doc{
			Summary: "An agent address with a session part (`notify(agent=\"a@session\")`, `# Output: agent: a@session` or `template: a@session`), which routes to a wake rather than a delivery.",
			Why:     "Addressing a session wakes that session instead of augmenting the agent's next turn. Make sure that is intended.",
			Bad:     "notify(agent=\"perry@night-shift\", message=\"disk full\")\n",
			Good:    "notify(agent=\"perry\", message=\"disk full\")\n",
		},
		Run: func(p *Pass) {
			for _, c := range p.st.idx().callsNamed("notify") {
				if a := c.Arg("agent"); a != nil {
					if v, ok := litString(a.Value); ok && strings.Contains(v, "@") {
						p.Reportf(a.Value, "agent %q names a session: this wakes the session instead of delivering to the agent's next turn", v)
					}
				}
			}
			for _, o := range outputSpecs(p.File) {
				if k := outputKind(o); (k != "agent" && k != "template") || o.Target == nil {
					continue
				}
				if v, ok := o.Target.LitValue(); ok && strings.Contains(v, "@") {
					p.Reportf(o.Target, "agent %q names a session: this output wakes the session instead of augmenting the agent's next turn", v)
				}
			}
		},
	}
}

// consumesText reports whether the skill declares an output that consumes
// the template text.
func consumesText(f *ast.File) bool {
	for _, o := range outputSpecs(f) {
		if outputKind(o) != "none" {
			return true
		}
	}
	return false
}

func ruleBodyTemplateDetected() *Rule {
	return &Rule{
		ID: "body-template-detected", Severity: ast.Info, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A body template with no `${...}` and no text-consuming `# Output:`.",
			Why:     "Any text outside targets is the skill's output template. Static text with no declared output is often a note that was meant as a `#` comment.",
			Bad:     "# Skill: x\nTODO: fix the parser\nt:\n    emit(text=\"hi\")\n\ndefault: t\n",
			Good:    "# Skill: x\n# TODO: fix the parser\nt:\n    emit(text=\"hi\")\n\ndefault: t\n",
		},
		Run: func(p *Pass) {
			if consumesText(p.File) {
				return
			}
			for _, t := range p.File.Templates {
				if first := firstTextLine(t); first != nil && templateIsStatic(t) {
					p.Reportf(first, "this text is the skill's output template but interpolates nothing: if it is a note, make it a # comment; otherwise declare # Output:")
				}
			}
		},
	}
}

func firstTextLine(t *ast.Template) *ast.TemplateLine {
	for _, l := range t.Lines {
		if !l.Blank {
			return l
		}
	}
	return nil
}

func templateIsStatic(t *ast.Template) bool {
	for _, l := range t.Lines {
		if !l.Text.IsLiteral() {
			return false
		}
	}
	return true
}

func ruleEmitWithTemplate() *Rule {
	return &Rule{
		ID: "emit-with-template", Severity: ast.Info, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A body template plus `emit()` calls.",
			Why:     "When a template exists it is the canonical output; emits only feed the transcript. Fine for tracing, surprising if the emits were meant as output.",
			Bad:     "Report: ${R}\nt:\n    emit(text=\"working\")\n",
			Good:    "Report: ${R}\nt:\n    $ llm prompt=\"...\" -> R\n",
		},
		Run: func(p *Pass) {
			if !hasTemplate(p.File) {
				return
			}
			for _, c := range p.st.idx().callsNamed("emit") {
				p.Reportf(c.Name, "emit() feeds only the transcript here: the body template is the skill's output")
			}
		},
	}
}

// targetLike reports whether a template line looks like a target header,
// the expression `^[A-Za-z_][A-Za-z0-9_-]*:\s*$` (kept in the tests),
// matched by hand: a one-shot check does not compile it.
func targetLike(line string) bool {
	if line == "" || !(line[0] == '_' || isASCIILetter(line[0])) {
		return false
	}
	i := 1
	for i < len(line) && (line[i] == '_' || line[i] == '-' || isASCIILetter(line[i]) || '0' <= line[i] && line[i] <= '9') {
		i++
	}
	if i == len(line) || line[i] != ':' {
		return false
	}
	for _, c := range []byte(line[i+1:]) {
		if c != ' ' && c != '\t' && c != '\n' && c != '\f' && c != '\r' {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func ruleTemplateLooksLikeTarget() *Rule {
	return &Rule{
		ID: "template-looks-like-target", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "A bare `word:` line in the template region with no indented body under it.",
			Why:     "A target needs an indented op block; without one the line is output text. Usually the body lost its indentation or the target is empty.",
			Bad:     "fetch:\n$ llm prompt=\"hi\" -> R\n",
			Good:    "fetch:\n    $ llm prompt=\"hi\" -> R\n",
		},
		Run: func(p *Pass) {
			for _, t := range p.File.Templates {
				for _, l := range t.Lines {
					if l.Blank || !targetLike(p.Text(l.Range)) {
						continue
					}
					name := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(p.Text(l.Range)), ":"))
					p.Reportf(l, "%q looks like a target but has no indented body, so it is output text: indent its ops under it, or remove the line", name+":")
				}
			}
		},
	}
}

func ruleStatusDisabled() *Rule {
	return &Rule{
		ID: "status-disabled", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "`# Status: Disabled`.",
			Why:     "A disabled skill is refused at compile and run time; checking one is an error so that it is not shipped by accident.",
			Bad:     "# Status: Disabled\n",
			Good:    "# Status: Approved\n",
		},
		Run: func(p *Pass) {
			for _, h := range p.File.HeadersOf(ast.HeaderStatus) {
				if h.Status != nil && h.Status.State == "Disabled" {
					p.Reportf(h.Status, "the skill is Disabled: it will not compile or run; set # Status: Draft or Approved to use it")
				}
			}
		},
	}
}

func ruleDraftWithTrigger() *Rule {
	return &Rule{
		ID: "draft-with-trigger", Severity: ast.Warning, Needs: NeedsSource,
		Doc: Doc{
			Summary: "An explicitly Draft skill that declares `# Triggers:`.",
			Why:     "Drafts do not fire autonomously in a governed deployment; the trigger is inert until the skill is approved.",
			Bad:     "# Status: Draft\n# Triggers: cron: 0 8 * * *\n",
			Good:    "# Status: Approved\n# Triggers: cron: 0 8 * * *\n",
		},
		Run: func(p *Pass) {
			if p.Info.Status != "Draft" {
				return
			}
			for _, h := range p.File.HeadersOf(ast.HeaderTriggers) {
				p.Reportf(h, "the skill is a Draft, so this trigger will not fire until it is approved")
			}
		},
	}
}

func ruleMultipleTemplateRegions() *Rule {
	return &Rule{
		ID: "multiple-template-regions", Severity: ast.Error, Needs: NeedsSource,
		Doc: Doc{
			Summary: "Body template text in two separate places (above and below the targets, or between them).",
			Why:     "A skill has one output template; the language refuses a second region rather than guess how to join them. Keep the text in one place (the fix moves it next to the first region).",
			Bad:     "Report: ${R}\n\nrun:\n    $ llm prompt=\"hi\" -> R\n\ndefault: run\n\nSent at ${NOW}\n",
			Good:    "Report: ${R}\nSent at ${NOW}\n\nrun:\n    $ llm prompt=\"hi\" -> R\n\ndefault: run\n",
		},
		Run: func(p *Pass) {
			ts := p.File.Templates
			if len(ts) < 2 {
				return
			}
			first, prev := ts[0], ts[0]
			firstLine, lastLine := p.Line(first.From), p.Line(first.To)
			for _, t := range ts[1:] {
				separate := codeBetween(p.File, prev.To, t.From)
				prev = t
				if !separate {
					continue // only a header or comment between: one region
				}
				d := p.Reportf(t, "a second body template region (%s): the template is already at %s; a skill has one template region, so move this text there",
					lineSpan(p.Line(t.From), p.Line(t.To)), lineSpan(firstLine, lastLine))
				d.Related = append(d.Related, ast.Related{Range: first.Range, Message: "the first template region"})
				if fix, ok := moveRegionFix(p.File.Src, first, t); ok {
					d.Fixes = append(d.Fixes, fix)
				}
			}
		},
	}
}

// codeBetween reports whether a target or a default: line lies between
// offsets from and to: what makes two stretches of template text two
// regions.
func codeBetween(f *ast.File, from, to ast.Pos) bool {
	for _, t := range f.Targets {
		if t.From >= from && t.From < to {
			return true
		}
	}
	for _, d := range f.Defaults {
		if d.From >= from && d.From < to {
			return true
		}
	}
	return false
}

func lineSpan(a, b int) string {
	if a == b {
		return fmt.Sprintf("line %d", a)
	}
	return fmt.Sprintf("lines %d-%d", a, b)
}

// moveRegionFix moves the text of region t (whole lines) to just after
// the last line of region first.
func moveRegionFix(src []byte, first, t *ast.Template) (ast.Fix, bool) {
	from, to := t.From.Offset(), t.To.Offset()
	at := first.To.Offset()
	if from < 0 || to > len(src) || from > to || at < 0 || at > from {
		return ast.Fix{}, false
	}
	text := string(src[from:to])
	end := to
	if end < len(src) && src[end] == '\r' {
		end++
	}
	if end < len(src) && src[end] == '\n' {
		end++
	}
	return ast.Fix{
		Title: fmt.Sprintf("Move this text after line %d (the first template region)", lineOf(src, at)),
		Edits: []ast.TextEdit{
			{Range: ast.RangeOf(at, at), NewText: "\n" + text},
			{Range: ast.RangeOf(from, end), NewText: ""},
		},
	}, true
}

// lineOf returns the 1-based line of byte offset off in src.
func lineOf(src []byte, off int) int {
	return bytes.Count(src[:off], []byte{'\n'}) + 1
}
