package eval

import (
	"slices"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/value"
)

// produceOutput renders the body template after the targets ran, picks
// the canonical output and delivers it per # Output: kind.
func (x *run) produceOutput() error {
	x.flow = x.pc
	text, err := x.canonical()
	if err != nil {
		return err
	}
	x.res.Outputs.Text = text
	x.res.outTaint = x.flow
	if x.flow {
		x.touched = true
	}
	// What leaves through # Output: agent/file is at an output boundary.
	text = x.secrets.Redact(redactTainted(text, x.flow))
	if x.res.outFrom == outEmissions && x.flow {
		text = x.secrets.Redact(strings.Join(redactedEmissions(x.res), "\n"))
	}
	specs := x.outputSpecs()
	if len(specs) == 0 {
		x.res.Outputs.Kinds = append(x.res.Outputs.Kinds, "text")
		return nil
	}
	for _, o := range specs {
		if err := x.deliver(o, text); err != nil {
			return err
		}
	}
	return nil
}

func (x *run) outputSpecs() []*ast.OutputSpec {
	var out []*ast.OutputSpec
	for _, h := range x.f.HeadersOf(ast.HeaderOutput) {
		for _, o := range h.Outputs {
			if o.Kind != nil {
				out = append(out, o)
			}
		}
	}
	return out
}

// canonical is the body template if there is one, else the emissions
// joined if any emit ran, else the last bound value (DECISIONS 19).
func (x *run) canonical() (string, error) {
	if len(x.f.Templates) > 0 {
		x.res.outFrom = outOther
		return x.renderTemplate()
	}
	if x.emitted {
		x.res.outFrom = outEmissions
		if slices.Contains(x.res.emitTaint, true) {
			x.flow = true
		}
		return strings.Join(x.res.Emissions, "\n"), nil
	}
	if x.hasBound {
		x.res.outFrom = outOther
		x.flow = x.flow || x.lastTainted
		return value.String(x.lastBound), nil
	}
	return "", nil
}

// renderTemplate renders every template region, dropping blank lines at
// the start and end.
func (x *run) renderTemplate() (string, error) {
	var lines []string
	for _, t := range x.f.Templates {
		for _, l := range t.Lines {
			s, err := x.renderTemplateLine(l)
			if err != nil {
				return "", err
			}
			lines = append(lines, s)
		}
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n"), nil
}

func (x *run) renderTemplateLine(l *ast.TemplateLine) (string, error) {
	if l.Blank || l.Text == nil {
		return "", nil
	}
	s, err := x.renderText(l.Text, x.root)
	if err == nil {
		err = x.checkNoSecret(s)
	}
	if err != nil {
		re := classify(err)
		re.Kind, re.Msg = KindOutput, "body template: "+re.Msg
		if !re.Range.IsValid() {
			re.Range = l.Range
		}
		return "", re
	}
	return s, nil
}

// deliver routes the canonical output to one # Output: target.
func (x *run) deliver(o *ast.OutputSpec, text string) error {
	kind := o.Kind.Name
	x.res.Outputs.Kinds = append(x.res.Outputs.Kinds, kind)
	switch kind {
	case "text", "none":
		return nil
	case "agent", "template":
		if err := x.effectGate("# Output: " + kind); err != nil {
			return err
		}
		return x.deliverAgent(o, kind, text)
	case "file":
		if err := x.effectGate("# Output: file"); err != nil {
			return err
		}
		return x.deliverFile(o, text)
	}
	return &RunError{Kind: KindOutput, Msg: "unknown # Output: kind " + kind, Range: o.Range}
}

func (x *run) outputTarget(o *ast.OutputSpec) (string, error) {
	s, err := x.renderText(o.Target, x.root)
	if err == nil {
		err = x.checkNoSecret(s)
	}
	if err != nil {
		re := classify(err)
		re.Kind, re.Msg, re.Range = KindOutput, "# Output: "+o.Kind.Name+": "+re.Msg, o.Range
		return "", re
	}
	if strings.TrimSpace(s) == "" {
		return "", &RunError{Kind: KindOutput, Msg: "# Output: " + o.Kind.Name + ": the target is empty", Range: o.Range}
	}
	return strings.TrimSpace(s), nil
}

func (x *run) deliverAgent(o *ast.OutputSpec, kind, text string) error {
	agent, err := x.outputTarget(o)
	if err != nil {
		return err
	}
	if x.mech {
		x.notice("mechanical: would deliver the output to " + kind + ": " + agent)
		return nil
	}
	pk := contract.KindAugment
	if kind == "template" {
		pk = contract.KindTemplate
	}
	via := x.agents(nil)
	if len(via) == 0 {
		x.res.Receipts = append(x.res.Receipts, Receipt{Source: "output", Agent: agent, Kind: pk, Connector: "none", Error: "no agent connector is wired"})
		x.notice("# Output: " + kind + ": " + agent + ": no agent connector is wired; the output was not delivered")
		return nil
	}
	x.send(x.ctx, "output", agent, kindFor(agent, pk), text, x.meta("", ""), via)
	return nil
}

func (x *run) deliverFile(o *ast.OutputSpec, text string) error {
	path, err := x.outputTarget(o)
	if err != nil {
		return err
	}
	if x.mech {
		x.notice("mechanical: would write the output to " + path)
		return nil
	}
	written, err := x.r.FS.Write(path, text)
	if err != nil {
		re := classify(err)
		re.Range = o.Range
		return re
	}
	x.res.Outputs.Files = append(x.res.Outputs.Files, written)
	return nil
}
