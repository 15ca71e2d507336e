package approval

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// EffectKind classifies an entry of a footprint.
type EffectKind string

// The effect kinds. Child references are listed for review but are not
// effects of the skill itself: a child passes the gate on its own.
const (
	EffectDispatch  EffectKind = "dispatch"   // $ conn.tool, $ llm, $ data_write, ...
	EffectShell     EffectKind = "shell"      // shell(...)
	EffectFileRead  EffectKind = "file_read"  // file_read(path=...)
	EffectFileWrite EffectKind = "file_write" // file_write(path=...)
	EffectNotify    EffectKind = "notify"     // notify(agent=...)
	EffectChild     EffectKind = "child"      // execute_skill, $ execute_skill, inline
)

// Effect is one effectful op of a skill.
type Effect struct {
	Kind      EffectKind `json:"kind"`
	Op        string     `json:"op"`                  // "$ github.create_issue", "shell", "inline", ...
	Connector string     `json:"connector,omitempty"` // $ dispatch: the connector ("" for bare ops)
	Tool      string     `json:"tool,omitempty"`      // $ dispatch: the tool or typed-contract op
	Subject   string     `json:"subject,omitempty"`   // binary, path, agent or child skill; source text when dynamic
	Dynamic   bool       `json:"dynamic,omitempty"`   // Subject is only known at run time
	Mutating  bool       `json:"mutating,omitempty"`
	Why       string     `json:"why,omitempty"` // why it is mutating
	Line      int        `json:"line"`
	Range     ast.Range  `json:"-"`
}

// Footprint is everything a skill can touch, in source order.
type Footprint struct {
	Effects []Effect `json:"effects"`
}

// Mutating classifies "$ connector.tool" from configuration: the reason
// the tool mutates, or "" when it does not; known is false when the
// configuration says nothing about it (the name heuristic decides).
type Mutating func(connector, tool string) (why string, known bool)

// FootprintOf enumerates the effectful ops of a checked skill at every
// depth. mut may be nil.
func FootprintOf(f *ast.File, info *check.Info, mut Mutating) *Footprint {
	fp := &Footprint{Effects: []Effect{}}
	for _, op := range info.Ops {
		var e *Effect
		switch s := op.Stmt.(type) {
		case *ast.DispatchStmt:
			e = dispatchEffect(f, s, mut)
		case *ast.CallStmt:
			e = callEffect(f, s)
		}
		if e != nil {
			e.Line = f.Lines.Position(e.Range.From).Line
			fp.Effects = append(fp.Effects, *e)
		}
	}
	return fp
}

// dispatchEffect describes a "$" op; json_parse (pure) is none.
func dispatchEffect(f *ast.File, s *ast.DispatchStmt, mut Mutating) *Effect {
	if s.Tool == nil {
		return nil
	}
	tool := s.Tool.Name
	if s.Connector == nil {
		switch {
		case tool == "execute_skill":
			return childEffect(f, "$ execute_skill", s.Args, "name", s.Range)
		case lang.IsTypedContract(tool) && !lang.IsExternal(tool):
			return nil
		}
	}
	e := &Effect{Kind: EffectDispatch, Op: "$ " + tool, Tool: tool, Range: s.Range}
	if s.Connector != nil {
		e.Connector = s.Connector.Name
		e.Op = "$ " + e.Connector + "." + tool
	}
	e.Why = dispatchMutation(e.Connector, tool, mut)
	e.Mutating = e.Why != ""
	return e
}

// dispatchMutation is the mutation classification of the linter's
// unconfirmed-mutation rule and the runtime's mutation gate.
func dispatchMutation(conn, tool string, mut Mutating) string {
	if conn == "" && lang.IsTypedContract(tool) {
		if lang.Mutates(tool) == lang.Always {
			return "$ " + tool + " writes to the store"
		}
		return ""
	}
	if mut != nil {
		if why, known := mut(conn, tool); known {
			return why
		}
	}
	if lang.IsMutatingTool(tool) {
		return "tool " + tool + " has a mutating verb"
	}
	return ""
}

// callEffect describes a function-call op; emit is none.
func callEffect(f *ast.File, c *ast.CallStmt) *Effect {
	if c.Name == nil {
		return nil
	}
	switch name := c.Name.Name; name {
	case "shell":
		return shellEffect(f, c)
	case "file_read", "file_write":
		e := argEffect(f, EffectKind(name), name, c.Args, "path", c.Range)
		if name == "file_write" {
			e.Mutating, e.Why = true, "file_write writes a file"
		}
		return e
	case "notify":
		return argEffect(f, EffectNotify, name, c.Args, "agent", c.Range)
	case "execute_skill", "inline":
		return childEffect(f, name, c.Args, lang.SkillArgs(name)[0], c.Range)
	}
	return nil
}

func shellEffect(f *ast.File, c *ast.CallStmt) *Effect {
	e := &Effect{Kind: EffectShell, Op: "shell", Range: c.Range}
	bin, _, ok := check.ShellBinary(c)
	switch {
	case ok:
		e.Subject = bin
	default:
		e.Subject, e.Dynamic = firstArgText(f, c.Args, "argv", "command"), true
	}
	switch {
	case check.IsUnsafeShell(c):
		e.Mutating, e.Why = true, "unsafe shell can change anything"
	default:
		if argv, known := check.ShellArgv(c); known {
			if why := lang.ClassifyShell(argv).Mutating; why != "" {
				e.Mutating, e.Why = true, why
			}
		}
	}
	return e
}

func childEffect(f *ast.File, op string, args []*ast.Arg, key string, r ast.Range) *Effect {
	e := argEffect(f, EffectChild, op, args, key, r)
	if e.Subject == "" && op != "inline" {
		e.Subject, e.Dynamic = firstArgText(f, args, "skill_name"), true
		if v, ok := literalArg(args, "skill_name"); ok {
			e.Subject, e.Dynamic = v, false
		}
	}
	return e
}

// argEffect is an effect whose subject is the value of the kwarg key.
func argEffect(f *ast.File, kind EffectKind, op string, args []*ast.Arg, key string, r ast.Range) *Effect {
	e := &Effect{Kind: kind, Op: op, Range: r}
	if v, ok := literalArg(args, key); ok {
		e.Subject = v
	} else {
		e.Subject, e.Dynamic = firstArgText(f, args, key), true
	}
	return e
}

func literalArg(args []*ast.Arg, key string) (string, bool) {
	for _, a := range args {
		if a.Key != nil && a.Key.Name == key && a.Value != nil {
			return check.LitString(a.Value)
		}
	}
	return "", false
}

// firstArgText is the source text of the first of keys present.
func firstArgText(f *ast.File, args []*ast.Arg, keys ...string) string {
	for _, k := range keys {
		for _, a := range args {
			if a.Key != nil && a.Key.Name == k && a.Value != nil {
				return sourceText(f, a.Value.Span())
			}
		}
	}
	return ""
}

func sourceText(f *ast.File, r ast.Range) string {
	from, to := r.From.Offset(), r.To.Offset()
	if from < 0 || to > len(f.Src) || from > to {
		return ""
	}
	return string(f.Src[from:to])
}

// Effectful reports whether the skill itself performs effects (children
// are gated on their own).
func (fp *Footprint) Effectful() bool {
	for _, e := range fp.Effects {
		if e.Kind != EffectChild {
			return true
		}
	}
	return false
}

// Children lists the literal names of the skills it composes, sorted.
func (fp *Footprint) Children() []string {
	var out []string
	for _, e := range fp.Effects {
		if e.Kind == EffectChild && !e.Dynamic && e.Subject != "" && !slices.Contains(out, e.Subject) {
			out = append(out, e.Subject)
		}
	}
	sort.Strings(out)
	return out
}

// Summary is the footprint for a reviewer: one line per effect.
func (fp *Footprint) Summary() []string {
	out := make([]string, 0, len(fp.Effects))
	for _, e := range fp.Effects {
		out = append(out, e.String())
	}
	return out
}

// String describes one effect: "line 12: shell rm (mutating: ...)".
func (e Effect) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "line %d: %s", e.Line, e.Op)
	if e.Subject != "" {
		if e.Dynamic {
			fmt.Fprintf(&b, " %s (dynamic)", e.Subject)
		} else {
			fmt.Fprintf(&b, " %s", e.Subject)
		}
	}
	if e.Mutating {
		fmt.Fprintf(&b, " [mutating: %s]", e.Why)
	}
	return b.String()
}
