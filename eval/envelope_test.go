package eval_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/substrate/agent"
	"github.com/skillscript/skillc/syntax"
)

// One notify broadcast through two connectors shares one dispatch_id;
// the next notify gets its own. The origin names the skill, the trigger
// kind and the caller (Env.Caller), never the owner (Identity).
func TestNotifyEnvelope(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	r := &eval.Runner{
		Registry: &contract.Registry{Agents: []contract.AgentConnector{&agent.FileDrop{Dir: a}, &agent.FileDrop{Dir: b}}},
		Identity: "owner", Env: eval.Env{TriggerType: contract.TriggerAgent, Caller: "cc"},
	}
	src := "# Skill: pinger\n\nrun:\n    notify(agent=\"bob\", message=\"one\") -> A\n    notify(agent=\"bob\", message=\"two\") -> B\ndefault: run\n"
	f, _ := syntax.Parse("pinger.skill.md", []byte(src))
	res, err := r.Run(context.Background(), f, check.Check(f), nil)
	if err != nil || res.Failed() {
		t.Fatalf("run: %v %+v", err, res.Errors)
	}
	ids := map[string][]string{} // content -> dispatch ids across both connectors
	for _, dir := range []string{a, b} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, file := range files {
			var rec struct {
				Payload struct {
					Content string
					Meta    contract.DeliveryMeta
				}
			}
			data, _ := os.ReadFile(file)
			if err := json.Unmarshal(data, &rec); err != nil {
				t.Fatal(err)
			}
			o := rec.Payload.Meta.Origin
			if o.SkillName != "pinger" || o.TriggerKind != contract.TriggerAgent || o.CallerAgentID != "cc" || o.EntrySkillName != "" {
				t.Errorf("origin = %+v", o)
			}
			ids[rec.Payload.Content] = append(ids[rec.Payload.Content], rec.Payload.Meta.DispatchID)
		}
	}
	one, two := ids["one"], ids["two"]
	if len(one) != 2 || len(two) != 2 || one[0] != one[1] || two[0] != two[1] || one[0] == two[0] {
		t.Errorf("dispatch ids: one=%v two=%v", one, two)
	}
}
