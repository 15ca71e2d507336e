package dashboard

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/syntax"
)

// Item is one skill of the approvals queue.
type Item struct {
	Name        string            `json:"name"`
	Status      string            `json:"status"`    // Draft, Approved, Disabled
	Signature   string            `json:"signature"` // valid, unsigned, stale, malformed, unsupported, unsignable, unverified, none
	Reason      string            `json:"reason,omitempty"`
	ContentHash string            `json:"content_hash"` // hash of the signing input (skillc sign --hash)
	FileHash    string            `json:"file_hash"`    // hash of the exact bytes reviewed: what an approve from this view must post
	Signals     []string          `json:"signals"`
	Effects     []approval.Effect `json:"effects"`
	Command     string            `json:"command"`  // the terminal approval
	Triggers    []string          `json:"triggers"` // # Triggers: as "cron 0 9 * * *", "event deploy"
	ParseError  string            `json:"parse_error,omitempty"`
}

// pending lists the skills that need an operator's signature: Drafts and
// Approved skills whose signature does not verify. Disabled skills and
// validly signed ones are not pending.
func (d *Dashboard) pending(ctx context.Context) ([]Item, error) {
	all, err := d.skills(ctx)
	if err != nil {
		return nil, err
	}
	var out []Item
	for _, sk := range all {
		if sk.Status == contract.StatusDisabled || sk.Signature == "valid" {
			continue
		}
		out = append(out, sk.Item)
	}
	return out, nil
}

// item describes one skill for review.
func (d *Dashboard) item(name string, src []byte) Item {
	f, diags := syntax.Parse(name+".skill.md", src)
	info := check.Check(f)
	it := Item{Name: name, Status: statusOf(f), ContentHash: approval.ContentHash(src), FileHash: approval.FileHash(src), Command: "skillc approve " + name, Signals: []string{}}
	d.reviewed.remember(it.FileHash, src)
	for _, dg := range diags {
		if dg.Severity == ast.Error {
			p := f.Lines.Position(dg.Range.From)
			it.ParseError = posText(p) + ": " + dg.Message
			break
		}
	}
	fp := approval.FootprintOf(f, info, d.o.Mutating)
	it.Effects = fp.Effects
	it.Signals = signals(f, info, fp)
	it.Signature, it.Reason = d.signature(f)
	it.Triggers = []string{}
	for _, h := range f.HeadersOf(ast.HeaderTriggers) {
		for _, tr := range h.Triggers {
			if tr.Source != nil {
				it.Triggers = append(it.Triggers, tr.Source.Name+": "+tr.Spec)
			}
		}
	}
	return it
}

func statusOf(f *ast.File) string {
	if sv := approval.StatusOf(f); sv != nil && sv.State != "" {
		return sv.State
	}
	return contract.StatusDraft
}

func posText(p ast.Position) string {
	return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Column)
}

// signature classifies the signature of an Approved skill.
func (d *Dashboard) signature(f *ast.File) (state, reason string) {
	sv := approval.StatusOf(f)
	if sv == nil || sv.State != contract.StatusApproved {
		return "none", ""
	}
	if d.o.Policy.PublicKey == nil {
		if sv.Token == "" {
			return "unsigned", "a bare Approved runs only outside secured mode"
		}
		return "unverified", "no approval public key is configured"
	}
	err := approval.Verify(d.o.Policy.PublicKey, f.Src, sv.Token)
	var (
		missing  *approval.MissingSignatureError
		mismatch *approval.SignatureMismatchError
		version  *approval.UnsupportedVersionError
		lines    *approval.UnsignableLineError
	)
	switch {
	case err == nil:
		return "valid", ""
	case errors.As(err, &missing):
		return "unsigned", err.Error()
	case errors.As(err, &mismatch):
		return "stale", err.Error()
	case errors.As(err, &version):
		return "unsupported", err.Error()
	case errors.As(err, &lines):
		return "unsignable", err.Error()
	}
	return "malformed", err.Error()
}

// signals are the review hints beside the footprint.
func signals(f *ast.File, info *check.Info, fp *approval.Footprint) []string {
	out := []string{}
	mutating, dynamic := 0, 0
	for _, e := range fp.Effects {
		if e.Mutating {
			mutating++
		}
		if e.Dynamic {
			dynamic++
		}
		if e.Kind == approval.EffectShell && e.Subject == "bash" && e.Mutating && !slices.Contains(out, "unsafe shell (bash)") {
			out = append(out, "unsafe shell (bash)")
		}
	}
	if mutating > 0 {
		out = append(out, strconv.Itoa(mutating)+" mutating op(s)")
	}
	if dynamic > 0 {
		out = append(out, strconv.Itoa(dynamic)+" op(s) with a target known only at run time")
	}
	if info.Autonomous {
		out = append(out, "# Autonomous: true (mutations without per-op approved=)")
	}
	if len(info.Secrets) > 0 {
		out = append(out, "uses secrets")
	}
	if len(f.HeadersOf(ast.HeaderTriggers)) > 0 {
		out = append(out, "declares triggers")
	}
	return out
}
