package host_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/leaf/config"
)

// securedHost is a store directory, a key pair and a secured-mode
// runner over them.
type securedHost struct {
	t      *testing.T
	dir    string
	keys   approval.KeyPaths
	policy approval.Policy
}

func newSecuredHost(t *testing.T, secured bool) *securedHost {
	keyDir := t.TempDir()
	h := &securedHost{t: t, dir: t.TempDir(), keys: approval.KeyPaths{Private: filepath.Join(keyDir, "k"), Public: filepath.Join(keyDir, "k.pub")}}
	if _, err := approval.GenerateKeys(h.keys, false); err != nil {
		t.Fatal(err)
	}
	h.policy, _ = approval.LoadPolicy(secured, h.keys)
	return h
}

// sign returns src signed with the host's key.
func (h *securedHost) sign(src string) string {
	h.t.Helper()
	priv, err := approval.LoadPrivateKey(h.keys.Private)
	if err != nil {
		h.t.Fatal(err)
	}
	return string(approval.Stamp([]byte(src), "Approved "+approval.Sign(priv, []byte(src))))
}

// put stores a skill, signed when sign is set.
func (h *securedHost) put(name, src string, sign bool) {
	h.t.Helper()
	if sign {
		src = h.sign(src)
	}
	if err := os.WriteFile(filepath.Join(h.dir, name+".skill.md"), []byte(src), 0o600); err != nil {
		h.t.Fatal(err)
	}
}

func (h *securedHost) run(parent string) *eval.Result {
	h.t.Helper()
	return h.runAs(parent, true)
}

// runAs runs parent as a person's run (direct) or as a trigger would.
func (h *securedHost) runAs(parent string, direct bool) *eval.Result {
	h.t.Helper()
	home := h.t.TempDir()
	cfg, _ := config.Load(config.LoadOptions{Env: func(k string) (string, bool) { return home, k == "SKILLSCRIPT_HOME" }})
	cfg.SecuredMode = h.policy.Secured
	r, closeReg, err := host.NewRunner(context.Background(), host.Options{Config: cfg, SkillsDir: h.dir, Approval: &h.policy, AllowShell: []string{"echo"}, Direct: direct})
	if err != nil {
		h.t.Fatal(err)
	}
	defer closeReg()
	res, err := host.RunSource(context.Background(), r, "parent.skill.md", []byte(parent), nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return res
}

const (
	childSrc  = "# Skill: child\n# Status: Draft\n# Returns: OUT\n\nmain:\n    shell(argv=[\"echo\", \"child ran\"]) -> OUT\ndefault: main\n"
	parentSrc = "# Skill: parent\n\nmain:\n    execute_skill(name=\"child\") -> C\n    emit(text=\"${C.OUT|trim}\")\ndefault: main\n"
	dataSrc   = "# Skill: data\n# Type: data\n# Status: Draft\n\nmain:\n    shell(argv=[\"echo\", \"x\"]) -> X\ndefault: main\n"
)

// failure is the kind and message of the first error of res.
func failure(t *testing.T, res *eval.Result) (string, string) {
	t.Helper()
	if !res.Failed() || len(res.Errors) == 0 {
		t.Fatalf("the run succeeded with %q; want a refusal", res.Outputs.Text)
	}
	e := res.Errors[0]
	if len(e.Nested) > 0 {
		e = e.Nested[0]
	}
	return e.Kind, e.Message
}

func TestSecuredCompositionRunsSignedChild(t *testing.T) {
	h := newSecuredHost(t, true)
	h.put("child", childSrc, true)
	res := h.run(parentSrc)
	if res.Failed() || res.Outputs.Text != "child ran" {
		t.Fatalf("output %q errors %v; want the signed child to run", res.Outputs.Text, res.Errors)
	}
}

func TestSecuredCompositionRefusesEditedChild(t *testing.T) {
	h := newSecuredHost(t, true)
	h.put("child", childSrc, true)
	path := filepath.Join(h.dir, "child.skill.md")
	signed, _ := os.ReadFile(path)
	edited := strings.Replace(string(signed), "child ran", "child was edited", 1)
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	res := h.run(parentSrc)
	kind, msg := failure(t, res)
	if kind != "ApprovalSignatureError" || !strings.Contains(msg, "signature no longer matches") {
		t.Errorf("error %s %q; want ApprovalSignatureError", kind, msg)
	}
	if strings.Contains(res.Outputs.Text, "edited") {
		t.Errorf("the edited child ran: %q", res.Outputs.Text)
	}
}

func TestSecuredCompositionRefusesUnsignedApprovedChild(t *testing.T) {
	h := newSecuredHost(t, true)
	h.put("child", strings.Replace(childSrc, "Draft", "Approved", 1), false)
	kind, msg := failure(t, h.run(parentSrc))
	if kind != "ApprovalSignatureError" || !strings.Contains(msg, "unsigned") {
		t.Errorf("error %s %q; want the unsigned child refused", kind, msg)
	}
}

// TestCompositionRefusesEffectfulDraft: decision 26 holds in both modes.
func TestCompositionRefusesEffectfulDraft(t *testing.T) {
	for _, secured := range []bool{false, true} {
		h := newSecuredHost(t, secured)
		h.put("child", childSrc, false)
		kind, msg := failure(t, h.run(parentSrc))
		if kind != "DraftSkillError" || !strings.Contains(msg, "shell echo") {
			t.Errorf("secured=%v: error %s %q; want DraftSkillError naming the shell op", secured, kind, msg)
		}
	}
}

func TestInlineRefusesEffectfulDraftDataSkill(t *testing.T) {
	h := newSecuredHost(t, false)
	h.put("data", dataSrc, false)
	kind, _ := failure(t, h.run("# Skill: parent\n\nmain:\n    inline(skill=\"data\")\ndefault: main\n"))
	if kind != "DraftSkillError" {
		t.Errorf("error kind %s; want DraftSkillError", kind)
	}
}

// TestSecuredSkillWriteLandsAsDraft: $ skill_write cannot approve.
func TestSecuredSkillWriteLandsAsDraft(t *testing.T) {
	h := newSecuredHost(t, true)
	body := `# Skill: forged\n# Status: Approved v3:AAAA\n\nhello\n`
	parent := "# Skill: parent\n\nmain:\n    $ skill_write name=\"forged\" source=\"" + body + "\" approved=\"test\"\ndefault: main\n"
	res := h.run(h.sign(parent))
	if res.Failed() {
		t.Fatalf("skill_write failed: %v", res.Errors)
	}
	got, err := os.ReadFile(filepath.Join(h.dir, "forged.skill.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), "# Status: Draft") || strings.Contains(string(got), "v3:") {
		t.Errorf("stored skill kept its approval:\n%s", got)
	}
}

// TestRootGate: the root skill passes the same gate as a child. A
// trigger-like host run (not direct) refuses an effectful Draft; a
// person's run allows it unsecured and refuses it in secured mode with
// the op's position; a signed root runs in secured mode.
func TestRootGate(t *testing.T) {
	effectful := "# Skill: root\n# Status: Draft\n\nmain:\n    shell(argv=[\"echo\", \"ran\"]) -> OUT\n    emit(text=\"${OUT|trim}\")\ndefault: main\n"
	h := newSecuredHost(t, false)
	if kind, _ := failure(t, h.runAs(effectful, false)); kind != "DraftSkillError" {
		t.Errorf("trigger-like run of an effectful draft: %s, want DraftSkillError", kind)
	}
	if res := h.runAs(effectful, true); res.Failed() || res.Outputs.Text != "ran" {
		t.Errorf("a person's unsecured run of a draft: %q %v", res.Outputs.Text, res.Errors)
	}
	s := newSecuredHost(t, true)
	res := s.runAs(effectful, true)
	if kind, _ := failure(t, res); kind != "SecuredModeEffectError" {
		t.Errorf("secured direct run of an effectful draft: %s, want SecuredModeEffectError", kind)
	}
	if sp := res.Errors[0].Range; sp == nil || sp.Line != 5 || sp.Column != 5 {
		t.Errorf("refusal range %+v, want 5:5 (the shell op)", sp)
	}
	if res := s.runAs(s.sign(effectful), false); res.Failed() || res.Outputs.Text != "ran" {
		t.Errorf("signed root in secured mode: %q %v", res.Outputs.Text, res.Errors)
	}
}

func TestOperatorStoreUnwrapsDrafting(t *testing.T) {
	h := newSecuredHost(t, true)
	home := t.TempDir()
	cfg, _ := config.Load(config.LoadOptions{Env: func(k string) (string, bool) { return home, k == "SKILLSCRIPT_HOME" }})
	cfg.SecuredMode = true
	r, closeReg, err := host.NewRunner(context.Background(), host.Options{Config: cfg, SkillsDir: h.dir, Approval: &h.policy})
	if err != nil {
		t.Fatal(err)
	}
	defer closeReg()
	h.put("child", childSrc, false)
	ctx := context.Background()
	if err := r.Registry.Skills.UpdateStatus(ctx, "child", "Approved v3:x"); err != nil {
		t.Fatal(err)
	}
	if rec, _ := r.Registry.Skills.Get(ctx, "child"); rec.Status != "Draft" {
		t.Errorf("the runner's store set %q; want Draft", rec.Status)
	}
	if err := host.OperatorStore(r.Registry.Skills).UpdateStatus(ctx, "child", "Approved v3:x"); err != nil {
		t.Fatal(err)
	}
	if rec, _ := r.Registry.Skills.Get(ctx, "child"); !strings.HasPrefix(rec.Status, "Approved") {
		t.Errorf("the operator store set %q; want Approved", rec.Status)
	}
}

// TestMechanicalWalkPassesEffectfulDraftChild: a per-run mechanical walk
// (a copy of the runner, as a host does per request) loads an effectful
// Draft child, which performs nothing; the same runner without it refuses.
func TestMechanicalWalkPassesEffectfulDraftChild(t *testing.T) {
	h := newSecuredHost(t, false)
	h.put("child", childSrc, false)
	home := t.TempDir()
	cfg, _ := config.Load(config.LoadOptions{Env: func(k string) (string, bool) { return home, k == "SKILLSCRIPT_HOME" }})
	r, closeReg, err := host.NewRunner(context.Background(), host.Options{Config: cfg, SkillsDir: h.dir, Approval: &h.policy, Direct: true})
	if err != nil {
		t.Fatal(err)
	}
	defer closeReg()
	run := func(r *eval.Runner) *eval.Result {
		res, err := host.RunSource(context.Background(), r, "parent.skill.md", []byte(parentSrc), nil)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if kind, _ := failure(t, run(r)); kind != "DraftSkillError" {
		t.Errorf("real run: %s, want DraftSkillError", kind)
	}
	mech := *r
	mech.Mechanical = true
	if res := run(&mech); res.Failed() {
		t.Errorf("mechanical walk refused: %v", res.Errors)
	}
}

// TestSecuredRefusesUnsignableLines (DECISIONS 29): a # Tags: line added
// inside a """ string of a signed skill, which the reference signing rule
// would leave out of the signature, is refused naming the line — for a
// child reached by execute_skill, by inline, and for a root run as a
// trigger would run it; nothing of the edited skills runs.
func TestSecuredRefusesUnsignableLines(t *testing.T) {
	whyAt := func(n int) string {
		return fmt.Sprintf("line %d looks like a # Status:/# Tags: header inside the body; a signature cannot cover it", n)
	}
	why := whyAt(7)
	inject := func(h *securedHost, name string) {
		path := filepath.Join(h.dir, name+".skill.md")
		signed, _ := os.ReadFile(path)
		edited := strings.Replace(string(signed), "ran\n", "ran\n# Tags: injected\n", 1)
		if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	child := "# Skill: child\n# Status: Draft\n# Returns: OUT\n\nmain:\n    shell(argv=[\"echo\", \"\"\"child ran\n\"\"\"]) -> OUT\ndefault: main\n"
	h := newSecuredHost(t, true)
	h.put("child", child, true)
	if res := h.run(parentSrc); res.Failed() || !strings.Contains(res.Outputs.Text, "child ran") {
		t.Fatalf("the signed child does not run: %q %v", res.Outputs.Text, res.Errors)
	}
	inject(h, "child")
	res := h.run(parentSrc)
	if kind, msg := failure(t, res); kind != "ApprovalSignatureError" || !strings.Contains(msg, why) {
		t.Errorf("execute_skill of the edited child: %s %q, want %q", kind, msg, why)
	}
	if strings.Contains(res.Outputs.Text, "ran") {
		t.Errorf("the edited child ran: %q", res.Outputs.Text)
	}

	data := "# Skill: data\n# Type: data\n# Status: Draft\n\nmain:\n    shell(argv=[\"echo\", \"\"\"data ran\n\"\"\"]) -> X\ndefault: main\n"
	h.put("data", data, true)
	inject(h, "data")
	if kind, msg := failure(t, h.run("# Skill: parent\n\nmain:\n    inline(skill=\"data\")\ndefault: main\n")); kind != "ApprovalSignatureError" || !strings.Contains(msg, why) {
		t.Errorf("inline of the edited data skill: %s %q, want %q", kind, msg, why)
	}

	root := "# Skill: root\n# Status: Draft\n\nmain:\n    shell(argv=[\"echo\", \"\"\"root ran\n\"\"\"]) -> OUT\n    emit(text=\"${OUT|trim}\")\ndefault: main\n"
	edited := strings.Replace(h.sign(root), "ran\n", "ran\n# Tags: injected\n", 1)
	res = h.runAs(edited, false)
	if kind, msg := failure(t, res); kind != "ApprovalSignatureError" || !strings.Contains(msg, whyAt(6)) {
		t.Errorf("trigger-like run of the edited root: %s %q, want %q", kind, msg, whyAt(6))
	}
	if res.Outputs.Text != "" {
		t.Errorf("the edited root ran: %q", res.Outputs.Text)
	}
}
