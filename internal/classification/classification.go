// Package classification is the gateway classification of a skill (ADR-001):
// its role, how it is invoked, what it may be attached to and what its
// primary effect is. One struct serves both skill kinds: a SKILL.md
// package reads it from flattened metadata keys (classification.role, ...),
// a skillscript from its # Classification: header. Check is the one
// validator behind the linter, the SKILL.md validator, the registry and the
// gateway's call-time checks.
package classification

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/leaf/textdist"
)

// The keys of a classification.
const (
	KeyRole          = "role"
	KeyInvocation    = "invocation"
	KeyEffectMode    = "effect_mode"
	KeyAttachTargets = "attach_targets"
)

// Keys lists the keys in canonical order.
func Keys() []string { return []string{KeyRole, KeyInvocation, KeyEffectMode, KeyAttachTargets} }

// Roles, invocations, effect modes and attach targets.
const (
	RoleProcedure = "procedure"
	RoleUtility   = "utility"
	RoleSidecar   = "sidecar"

	InvocationDirect = "direct"
	InvocationAttach = "attach"
	InvocationBoth   = "both"

	EffectReadOnly      = "read_only"
	EffectEnrich        = "enrich"
	EffectControlSignal = "control_signal"

	TargetTask       = "task"
	TargetRun        = "run"
	TargetOutput     = "output"
	TargetTranscript = "transcript"
	TargetArtifact   = "artifact"
)

// Values returns the allowed values of key (nil for an unknown key).
func Values(key string) []string {
	switch key {
	case KeyRole:
		return []string{RoleProcedure, RoleUtility, RoleSidecar}
	case KeyInvocation:
		return []string{InvocationDirect, InvocationAttach, InvocationBoth}
	case KeyEffectMode:
		return []string{EffectReadOnly, EffectEnrich, EffectControlSignal}
	case KeyAttachTargets:
		return []string{TargetTask, TargetRun, TargetOutput, TargetTranscript, TargetArtifact}
	}
	return nil
}

// Classification is the normalised classification of a skill.
type Classification struct {
	Role          string   `json:"role,omitempty" jsonschema:"procedure, utility or sidecar"`
	Invocation    string   `json:"invocation,omitempty" jsonschema:"direct, attach or both"`
	EffectMode    string   `json:"effect_mode,omitempty" jsonschema:"read_only, enrich or control_signal"`
	AttachTargets []string `json:"attach_targets,omitempty" jsonschema:"target types the skill may be attached to"`
}

// Attachable reports whether the skill may be attached to targets.
func (c *Classification) Attachable() bool {
	return c != nil && (c.Invocation == InvocationAttach || c.Invocation == InvocationBoth)
}

// Callable reports whether the skill may be called directly (a skill
// without classification is).
func (c *Classification) Callable() bool {
	return c == nil || c.Invocation == "" || c.Invocation == InvocationDirect || c.Invocation == InvocationBoth
}

// Accepts reports whether target is one of the attach targets.
func (c *Classification) Accepts(target string) bool {
	return c != nil && slices.Contains(c.AttachTargets, target)
}

// String renders the classification in the # Classification: header form.
func (c *Classification) String() string {
	if c == nil {
		return ""
	}
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	add(KeyRole, c.Role)
	add(KeyInvocation, c.Invocation)
	add(KeyEffectMode, c.EffectMode)
	add(KeyAttachTargets, strings.Join(c.AttachTargets, ","))
	return strings.Join(parts, " ")
}

// Field is one key as written, with the ranges diagnostics point at.
type Field struct {
	Key      string
	KeyRng   ast.Range
	Value    string // raw value
	ValueRng ast.Range
	// Items are the attach targets with their ranges.
	Items    []string
	ItemRngs []ast.Range
}

// Source is a classification as written: its fields in source order and
// the range of the whole declaration (the header line, the metadata map).
type Source struct {
	Range  ast.Range
	Fields []Field
}

// Problem codes: the rule a problem belongs to.
const (
	CodeValue         = "value"          // unknown key or value, missing field, duplicate key
	CodeSidecarDirect = "sidecar-direct" // role=sidecar with invocation=direct
	CodeAttachTargets = "attach-targets" // attach|both without valid, distinct targets
	CodeDirectTargets = "direct-targets" // invocation=direct with targets
)

// Problem is one violation of the classification rules.
type Problem struct {
	Code    string
	Range   ast.Range
	Message string
	// Suggest is the did-you-mean replacement of the value at Range.
	Suggest string
}

// Build normalises src into a classification and reports every violation
// of the rules: known keys and values (with did-you-mean), role, invocation
// and effect_mode required, sidecar never direct, attach|both with a
// non-empty de-duplicated target list, direct without targets. The
// returned classification keeps only valid values.
func Build(src Source) (*Classification, []Problem) {
	c := &Classification{}
	var probs []Problem
	seen := map[string]*Field{}
	for i := range src.Fields {
		f := &src.Fields[i]
		key := strings.ToLower(strings.TrimSpace(f.Key))
		if Values(key) == nil {
			probs = append(probs, unknown(CodeValue, "key", f.Key, f.KeyRng, Keys()))
			continue
		}
		if seen[key] != nil {
			probs = append(probs, Problem{Code: CodeValue, Range: f.KeyRng, Message: fmt.Sprintf("classification key %s is given twice", key)})
			continue
		}
		seen[key] = f
		if key == KeyAttachTargets {
			probs = append(probs, targets(c, f)...)
			continue
		}
		v := strings.ToLower(strings.TrimSpace(f.Value))
		if !slices.Contains(Values(key), v) {
			probs = append(probs, unknown(CodeValue, key, f.Value, f.ValueRng, Values(key)))
			continue
		}
		switch key {
		case KeyRole:
			c.Role = v
		case KeyInvocation:
			c.Invocation = v
		case KeyEffectMode:
			c.EffectMode = v
		}
	}
	for _, k := range []string{KeyRole, KeyInvocation, KeyEffectMode} {
		if seen[k] == nil {
			probs = append(probs, Problem{Code: CodeValue, Range: src.Range, Message: fmt.Sprintf("classification has no %s (one of %s)", k, strings.Join(Values(k), ", "))})
		}
	}
	inv, tf := seen[KeyInvocation], seen[KeyAttachTargets]
	if c.Role == RoleSidecar && c.Invocation == InvocationDirect {
		probs = append(probs, Problem{Code: CodeSidecarDirect, Range: inv.ValueRng, Suggest: InvocationAttach,
			Message: "a sidecar needs a live target to observe, so its invocation cannot be direct: use attach or both"})
	}
	switch {
	case c.Attachable() && len(c.AttachTargets) == 0 && (tf == nil || len(tf.Items) == 0):
		probs = append(probs, Problem{Code: CodeAttachTargets, Range: inv.ValueRng,
			Message: fmt.Sprintf("invocation=%s needs attach_targets: one or more of %s", c.Invocation, strings.Join(Values(KeyAttachTargets), ", "))})
	case c.Invocation == InvocationDirect && tf != nil:
		probs = append(probs, Problem{Code: CodeDirectTargets, Range: tf.ValueRng,
			Message: "invocation=direct takes no attach_targets: remove them, or use invocation=both"})
	}
	return c, probs
}

// targets reads the attach_targets field.
func targets(c *Classification, f *Field) []Problem {
	var probs []Problem
	if len(f.Items) == 0 {
		return []Problem{{Code: CodeAttachTargets, Range: f.ValueRng, Message: "attach_targets is empty"}}
	}
	for i, it := range f.Items {
		v := strings.ToLower(it)
		switch {
		case !slices.Contains(Values(KeyAttachTargets), v):
			probs = append(probs, unknown(CodeAttachTargets, "attach target", it, f.ItemRngs[i], Values(KeyAttachTargets)))
		case slices.Contains(c.AttachTargets, v):
			probs = append(probs, Problem{Code: CodeAttachTargets, Range: f.ItemRngs[i], Message: fmt.Sprintf("attach target %s is listed twice", v)})
		default:
			c.AttachTargets = append(c.AttachTargets, v)
		}
	}
	return probs
}

// unknown reports a value outside the allowed set, with the closest one.
func unknown(code, what, got string, r ast.Range, allowed []string) Problem {
	p := Problem{Code: code, Range: r}
	best, dist := "", 4
	for _, a := range allowed {
		if d := textdist.Distance(strings.ToLower(got), a); d < dist {
			best, dist = a, d
		}
	}
	p.Message = fmt.Sprintf("unknown classification %s %q; use one of %s", what, got, strings.Join(allowed, ", "))
	if best != "" {
		p.Suggest = best
		p.Message = fmt.Sprintf("unknown classification %s %q; did you mean %q? (one of %s)", what, got, best, strings.Join(allowed, ", "))
	}
	return p
}

// FromMetadata reads the flattened SKILL.md metadata keys
// classification.<key>; ranges maps a metadata key to the range of its
// value. The second result is false when no classification key is
// present.
func FromMetadata(meta map[string]string, keyRanges, valueRanges map[string]ast.Range, whole ast.Range) (Source, bool) {
	src := Source{Range: whole}
	var keys []string
	for k := range meta {
		if strings.HasPrefix(k, "classification.") {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return src, false
	}
	slices.Sort(keys)
	for _, k := range keys {
		v, vr := meta[k], valueRanges[k]
		f := Field{Key: strings.TrimPrefix(k, "classification."), KeyRng: keyRanges[k], Value: v, ValueRng: vr}
		if f.Key == KeyAttachTargets {
			f.Items, f.ItemRngs = splitItems(v, vr, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
		}
		src.Fields = append(src.Fields, f)
	}
	return src, true
}

// splitItems splits v at sep runes; item ranges are offsets within r when
// r spans exactly v (a plain scalar), else r itself.
func splitItems(v string, r ast.Range, sep func(rune) bool) ([]string, []ast.Range) {
	var items []string
	var rngs []ast.Range
	exact := r.To.Offset()-r.From.Offset() == len(v)
	start := -1
	for i, ch := range v + " " {
		if sep(ch) || i == len(v) {
			if start >= 0 {
				items = append(items, v[start:i])
				if exact {
					rngs = append(rngs, ast.RangeOf(r.From.Offset()+start, r.From.Offset()+i))
				} else {
					rngs = append(rngs, r)
				}
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return items, rngs
}

// FromHeader reads the fields of a parsed # Classification: header.
func FromHeader(h *ast.Header) Source {
	src := Source{Range: h.ValueRng}
	if h.ValueRng.To.Offset() == h.ValueRng.From.Offset() {
		src.Range = h.Range
	}
	for _, kv := range h.Pairs {
		f := Field{Key: kv.Key.Name, KeyRng: kv.Key.Range, Value: kv.Value, ValueRng: kv.ValueRng}
		for _, it := range kv.Items {
			f.Items = append(f.Items, it.Name)
			f.ItemRngs = append(f.ItemRngs, it.Range)
		}
		src.Fields = append(src.Fields, f)
	}
	return src
}

// Of returns the classification of a parsed skillscript, nil when it has
// no # Classification: header.
func Of(f *ast.File) (*Classification, []Problem) {
	h := f.Header(ast.HeaderClassification)
	if h == nil {
		return nil, nil
	}
	return Build(FromHeader(h))
}
