package workspace

import (
	"testing"

	"github.com/skillscript/skillc/lint"
)

func TestEnvMutating(t *testing.T) {
	e := &Env{Lint: &lint.Context{Connectors: map[string]*lint.Connector{
		"tracker": {Name: "tracker", MutatingTools: []string{"touch_ticket"}, Tools: map[string]*lint.Tool{"ping": {Name: "ping", Mutating: true}}},
		"vault":   {Name: "vault", Mutating: true},
		"calc":    {Name: "calc", ReadOnly: true},
		"mcp":     {Name: "mcp", Tools: map[string]*lint.Tool{"add_note": {Name: "add_note", ReadOnlyHint: true}, "lookup": {Name: "lookup", DestructiveHint: true}}},
	}}}
	mut := e.Mutating()
	cases := []struct {
		conn, tool string
		mutating   bool
		known      bool
	}{
		{"tracker", "touch_ticket", true, true},
		{"tracker", "ping", true, true},
		{"tracker", "list", false, true},
		{"tracker", "wipe_cache", true, true},
		{"calc", "add", false, true},     // connector "mutating": false beats the verb
		{"mcp", "add_note", false, true}, // readOnlyHint beats the verb
		{"mcp", "lookup", true, true},    // destructiveHint makes it mutating
		{"vault", "read_secret", true, true},
		{"unwired", "delete", false, false},
	}
	for _, c := range cases {
		why, known := mut(c.conn, c.tool)
		if (why != "") != c.mutating || known != c.known {
			t.Errorf("%s.%s: why=%q known=%v, want mutating=%v known=%v", c.conn, c.tool, why, known, c.mutating, c.known)
		}
	}
	if why, known := (&Env{}).Mutating()("x", "y"); why != "" || known {
		t.Errorf("an env without lint facts classified a tool")
	}
}
