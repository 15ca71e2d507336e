package approval

import (
	"crypto/ed25519"
	"fmt"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/check/effects"
)

// Reach says how a skill came to run.
type Reach int

// The ways a skill is reached.
const (
	// Direct: a person runs the skill at the top level (skillc run).
	Direct Reach = iota
	// Composed: execute_skill, $ execute_skill, inline, or a trigger.
	Composed
)

// Policy is the operator's approval posture, resolved by the host from
// flags, environment and $SKILLSCRIPT_HOME (never from a file next to
// the skill).
type Policy struct {
	// Secured enforces signatures (SKILLSCRIPT_SECURED_MODE).
	Secured bool
	// PublicKey verifies signatures; nil when it could not be loaded,
	// with KeyErr saying why.
	PublicKey ed25519.PublicKey
	KeyErr    error
	// KeyPath is where the public key was looked for (for messages).
	KeyPath string
	// Mutating classifies connector tools from configuration; may be nil.
	Mutating effects.Mutating
}

// Subject is a parsed, checked skill about to run.
type Subject struct {
	Name       string
	File       *ast.File
	Info       *check.Info
	Reach      Reach
	Mechanical bool // a --mechanical walk performs no effects
}

// Verdict is what the gate found about a skill it lets run.
type Verdict struct {
	Status    string // Draft, Approved
	Signed    bool   // the signature verified under Policy.PublicKey
	Footprint *effects.Footprint
}

// Gate decides whether a skill may run. It is the one check every
// execution path makes before the first op (skillc run, child loading for
// execute_skill and inline, triggers):
//
//   - Disabled never runs (*DisabledError).
//   - Draft never performs effects when composed (*DraftError, decision
//     26); run directly by a person it runs, but in secured mode only
//     when it performs no effects (*SecuredModeEffectError). A pure Draft
//     (and any Draft walked with --mechanical) runs.
//   - Approved runs; in secured mode only with a signature that verifies
//     under the operator's public key (*SignatureRefusedError wrapping
//     the typed signature or key error).
func Gate(p Policy, s Subject) (*Verdict, error) {
	status := s.Info.Status
	if status == "" {
		status = "Draft"
	}
	name := s.Name
	v := &Verdict{Status: status, Footprint: effects.Of(s.File, s.Info, p.Mutating)}
	switch status {
	case "Disabled":
		return nil, &DisabledError{Skill: name, Where: statusRange(s.File)}
	case "Draft":
		switch {
		case s.Mechanical || !v.Footprint.Effectful():
			return v, nil
		case s.Reach == Composed:
			es := effectsOnly(v.Footprint)
			return nil, &DraftError{Skill: name, Effects: es, Where: es[0].Range}
		case p.Secured:
			es := effectsOnly(v.Footprint)
			return nil, &SecuredModeEffectError{Skill: name, Effects: es, Where: es[0].Range}
		}
		return v, nil
	}
	if !p.Secured {
		return v, nil
	}
	if err := p.verify(s.File); err != nil {
		return nil, &SignatureRefusedError{Skill: name, Err: err, Where: statusRange(s.File)}
	}
	v.Signed = true
	return v, nil
}

// verify checks the skill's signature under the policy key.
func (p Policy) verify(f *ast.File) error {
	if p.PublicKey == nil {
		err := p.KeyErr
		if err == nil {
			err = fmt.Errorf("no public key configured")
		}
		return &NoPublicKeyError{Path: p.KeyPath, Err: err}
	}
	token := ""
	if sv := StatusOf(f); sv != nil {
		token = sv.Token
	}
	return Verify(p.PublicKey, f.Src, token)
}

func effectsOnly(fp *effects.Footprint) []effects.Effect {
	var out []effects.Effect
	for _, e := range fp.Effects {
		if e.Kind != effects.Child {
			out = append(out, e)
		}
	}
	return out
}

// Refusal is an error of the gate; Kind names it in run results and
// Span is where in the refused skill it applies (zero when unknown).
type Refusal interface {
	error
	Kind() string
	Span() ast.Range
}

// statusRange is the range of the # Status: value, or the zero Range.
func statusRange(f *ast.File) ast.Range {
	if sv := StatusOf(f); sv != nil {
		return sv.Range
	}
	return ast.Range{}
}

// Span implements Refusal.
func (e *DisabledError) Span() ast.Range { return e.Where }

// Span implements Refusal.
func (e *DraftError) Span() ast.Range { return e.Where }

// Span implements Refusal.
func (e *SignatureRefusedError) Span() ast.Range { return e.Where }

// Span implements Refusal.
func (e *SecuredModeEffectError) Span() ast.Range { return e.Where }

// DisabledError: a Disabled skill was asked to run.
type DisabledError struct {
	Skill string
	Where ast.Range // the # Status: value, when present
}

// Error implements error.
func (e *DisabledError) Error() string {
	return fmt.Sprintf("skill %q is Disabled and cannot run", e.Skill)
}

// Kind implements Refusal.
func (*DisabledError) Kind() string { return "SkillDisabledError" }

// DraftError: a Draft skill that performs effects, reached by
// composition or a trigger.
type DraftError struct {
	Skill   string
	Effects []effects.Effect
	Where   ast.Range // the first effect
}

// Error implements error.
func (e *DraftError) Error() string {
	return fmt.Sprintf("skill %q is Draft and performs effects (%s): only Approved skills perform effects when composed or triggered (approve it with skillc approve %s)", e.Skill, effectList(e.Effects), e.Skill)
}

func effectList(es []effects.Effect) string {
	ops := make([]string, 0, len(es))
	for _, ef := range es {
		ops = append(ops, ef.String())
	}
	return strings.Join(ops, "; ")
}

// Kind implements Refusal.
func (*DraftError) Kind() string { return "DraftSkillError" }

// SignatureRefusedError: secured mode refused an Approved skill whose
// signature is missing, malformed, of another version, or does not
// verify; Err is the typed cause.
type SignatureRefusedError struct {
	Skill string
	Err   error
	Where ast.Range // the # Status: value
}

// Error implements error.
func (e *SignatureRefusedError) Error() string {
	return fmt.Sprintf("secured mode: skill %q refused: %v", e.Skill, e.Err)
}

// Unwrap returns the cause.
func (e *SignatureRefusedError) Unwrap() error { return e.Err }

// Kind implements Refusal.
func (*SignatureRefusedError) Kind() string { return "ApprovalSignatureError" }

// SecuredModeEffectError: secured mode refused an unsigned skill that
// performs effects.
type SecuredModeEffectError struct {
	Skill   string
	Effects []effects.Effect
	Where   ast.Range // the first effect
}

// Error implements error.
func (e *SecuredModeEffectError) Error() string {
	return fmt.Sprintf("secured mode: skill %q is not signed and performs effects (%s): approve it with skillc approve, or run it with --mechanical", e.Skill, effectList(e.Effects))
}

// Kind implements Refusal.
func (*SecuredModeEffectError) Kind() string { return "SecuredModeEffectError" }

// ForceDraft demotes an Approved source to Draft (dropping its
// signature): skill writes land as drafts when the operator sets
// SKILLSCRIPT_FORCE_ALWAYS_DRAFT or secured mode. Other sources are
// returned unchanged.
func ForceDraft(f *ast.File) ([]byte, bool) {
	sv := StatusOf(f)
	if sv == nil || sv.State != "Approved" {
		return f.Src, false
	}
	return Stamp(f.Src, "Draft"), true
}

// LoadPolicy resolves the posture of an execution path. In secured mode
// it provisions the key pair on the first start (EnsureKeys: written, not
// read) and loads the public key; a key that cannot be loaded is recorded
// in KeyErr, so that every Approved skill is refused while unsigned pure
// drafts still run. The private key is never read.
func LoadPolicy(secured bool, keys KeyPaths) (p Policy, generated bool) {
	p = Policy{Secured: secured, KeyPath: keys.Public}
	if !secured {
		return p, false
	}
	generated, err := EnsureKeys(keys)
	if err != nil {
		p.KeyErr = err
		return p, false
	}
	p.PublicKey, p.KeyErr = LoadPublicKey(keys.Public)
	return p, generated
}
