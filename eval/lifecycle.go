package eval

import (
	"regexp"
	"strings"
	"sync"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/contract"
)

// KindDraft is the refusal of an effect in a Draft skill reached by
// composition (the approval gate's DraftError has the same kind).
const KindDraft = "DraftSkillError"

// childLifecycle is the lifecycle word a composed skill runs under: the
// more restrictive of what the store recorded and what the body says, so
// that neither a store that demoted a skill nor a body that claims more
// than its record grants effects. A missing status is Draft.
func childLifecycle(rec *contract.SkillRecord, info *check.Info) string {
	rank := func(s string) int {
		switch contract.StatusWord(s) {
		case contract.StatusApproved:
			return 0
		case contract.StatusDisabled:
			return 2
		}
		return 1 // Draft, absent or unknown
	}
	body := info.Status
	if body == "" {
		body = contract.StatusDraft
	}
	if rec != nil && rank(rec.Status) > rank(body) {
		return contract.StatusWord(rec.Status)
	}
	return contract.StatusWord(body)
}

// effectGate is the lifecycle gate every effect passes (DECISIONS 26): a
// Draft skill reached by composition (execute_skill, $ execute_skill,
// inline) performs no effect, whatever loaded it and whatever its
// # Autonomous: says; only a person running it at the top level may. The
// host's approval gate refuses such a child before it starts when its
// effects are visible in the source; this check holds on every path at
// the moment of the effect. A refusal is fatal.
func (x *run) effectGate(what string) error {
	if !x.draftChild || x.mech {
		return nil
	}
	return fatalf(KindDraft, "skill %q is Draft and was reached by composition: it may not perform effects (%s); only Approved skills perform effects when composed", x.skillName(), what)
}

// isEffect reports whether op touches the world: a connector or typed
// contract call ($ conn.tool, $ llm, $ data_*, $ skill_*), shell,
// file_read, file_write or notify. emit, inline, json_parse and
// execute_skill are not (a child passes the gates on its own).
func isEffect(op *opCall) bool {
	switch s := op.stmt.(type) {
	case *ast.CallStmt:
		switch op.name {
		case "shell", "file_read", "file_write", "notify":
			return true
		}
	case *ast.DispatchStmt:
		if s.Connector == nil && s.Tool != nil {
			switch s.Tool.Name {
			case "json_parse", "execute_skill":
				return false
			}
		}
		return true
	}
	return false
}

// autonomous reports whether # Autonomous: true authorizes this run's
// mutations: never for a Draft skill reached by composition.
func (x *run) autonomous() bool { return x.info.Autonomous && !x.draftChild }

// statusHeader matches a column-0 header line, with an optional byte-order
// mark, as the parser reads headers (case-insensitive keys, blanks around
// the colon).
var statusHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\x{FEFF})?#[ \t]*([A-Za-z][A-Za-z0-9_-]*)[ \t]*:`)
})

// ForceDraft rewrites every # Status: line of a skill body to Draft
// (however its key is spelled: "# STATUS:", "#Status :") and adds one
// after the first line when there is none: in-skill skill_write never
// grants approval.
func ForceDraft(body string) string {
	lines := strings.Split(body, "\n")
	found := false
	for i, l := range lines {
		m := statusHeader().FindStringSubmatch(l)
		if m == nil {
			continue
		}
		if kind, _ := ast.LookupHeader(m[1]); kind != ast.HeaderStatus {
			continue
		}
		bom, cr := "", ""
		if strings.HasPrefix(l, "\ufeff") {
			bom = "\ufeff"
		}
		if strings.HasSuffix(l, "\r") {
			cr = "\r"
		}
		lines[i] = bom + "# Status: Draft" + cr
		found = true
	}
	if found {
		return strings.Join(lines, "\n")
	}
	if len(lines) > 0 && statusHeader().MatchString(lines[0]) {
		return lines[0] + "\n# Status: Draft\n" + strings.Join(lines[1:], "\n")
	}
	return "# Status: Draft\n" + body
}

// uncatchable reports the fatal kinds that also fail every composing
// caller: a refused effect of a Draft child and the run's resource bounds
// hold for the whole composed run, so neither (fallback:) nor else: of a
// parent contains them.
func uncatchable(kind string) bool {
	switch kind {
	case KindDraft, KindValueTooLarge, KindOpBudget, KindMemoryBudget:
		return true
	}
	return false
}

// reraise returns the failure of a child run that its callers must not
// contain, with the child's errors nested, or nil.
func reraise(res *Result) error {
	if res.stop == nil {
		return nil
	}
	return &RunError{Kind: res.stop.Kind, Msg: res.stop.Msg, Fatal: true, Nested: res.Errors, Tainted: res.stop.Tainted}
}
