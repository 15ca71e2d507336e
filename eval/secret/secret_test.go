package secret

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/skillscript/skillc/eval/shellexec"
	"github.com/skillscript/skillc/eval/value"
)

const key = "am_us_Sup3r\"S3cret/Value&more"

// testBox declares AGENTMAIL_KEY (set), EMPTY (set to "") and UNSET; OTHER
// has a value but is not declared.
func testBox() *Box {
	vals := map[string]string{"AGENTMAIL_KEY": key, "OTHER": "xyzzy-other", "EMPTY": ""}
	return NewBox([]string{"AGENTMAIL_KEY", "EMPTY", "UNSET"}, func(n string) (string, bool) { v, ok := vals[n]; return v, ok })
}

func TestSentinels(t *testing.T) {
	b := testBox()
	s := "a " + b.Sentinel("A_1") + " b " + b.Sentinel("_x") + b.Sentinel("C")
	if got := strings.Join(b.Names(s), ","); got != "A_1,_x,C" || !b.Has(s) {
		t.Errorf("Names = %q, Has = %v", got, b.Has(s))
	}
	if got := b.Display(s); got != "a {{secret.A_1}} b {{secret._x}}{{secret.C}}" {
		t.Errorf("Display = %q", got)
	}
	// Marker text from a value is inert: only this box's sentinels count.
	other := NewBox(nil, nil)
	for _, inert := range []string{"{{secret.AGENTMAIL_KEY}}", other.Sentinel("AGENTMAIL_KEY")} {
		if b.Has(inert) {
			t.Errorf("Has(%q) = true", inert)
		}
		if got, err := b.Resolve(inert); err != nil || got != inert {
			t.Errorf("Resolve(%q) = %q, %v; want it unchanged", inert, got, err)
		}
	}
	if b.Sentinel("X") == other.Sentinel("X") {
		t.Error("two boxes produce the same sentinel")
	}
}

func TestResolve(t *testing.T) {
	b := testBox()
	got, err := b.Resolve("Authorization: Bearer " + b.Sentinel("AGENTMAIL_KEY") + " (x)")
	if err != nil || got != "Authorization: Bearer "+key+" (x)" {
		t.Fatalf("Resolve = %q, %v", got, err)
	}
	if got, err := b.Resolve("no markers ${X}"); err != nil || got != "no markers ${X}" {
		t.Errorf("plain = %q, %v", got, err)
	}
}

func TestResolveErrorsNeverShowValues(t *testing.T) {
	b := testBox()
	tests := []struct {
		name string
		want string
		is   func(error) bool
	}{
		{"OTHER", `secret "OTHER" is not declared: add "# Requires: secret.OTHER"`, isA[*UndeclaredError]},
		{"UNSET", `secret "UNSET" is not provisioned (set SKILLSCRIPT_SECRET_UNSET)`, isA[*NotProvisionedError]},
		{"EMPTY", `secret "EMPTY" is not provisioned (set SKILLSCRIPT_SECRET_EMPTY)`, isA[*NotProvisionedError]},
	}
	for _, tt := range tests {
		in := b.Sentinel("AGENTMAIL_KEY") + " " + b.Sentinel(tt.name)
		got, err := b.Resolve(in)
		if err == nil || !tt.is(err) || err.Error() != tt.want {
			t.Errorf("Resolve(%s) err = %v, want %q", tt.name, err, tt.want)
		}
		if got != "" || strings.Contains(fmt.Sprint(err), key) || strings.Contains(fmt.Sprint(err), "xyzzy") {
			t.Errorf("Resolve(%s) leaked: %q / %v", tt.name, got, err)
		}
	}
	if err := b.CheckDeclared("x " + b.Sentinel("OTHER")); !isA[*UndeclaredError](err) {
		t.Errorf("CheckDeclared err = %v", err)
	}
	if err := b.CheckDeclared(b.Sentinel("UNSET")); err != nil {
		t.Errorf("CheckDeclared of a declared secret: %v", err)
	}
}

func isA[T error](err error) bool {
	var target T
	return errors.As(err, &target)
}

func TestResolveValue(t *testing.T) {
	b := testBox()
	o := value.NewObject(2)
	o.Set("auth", "Bearer "+b.Sentinel("AGENTMAIL_KEY"))
	o.Set("list", []any{"x" + b.Sentinel("AGENTMAIL_KEY"), 3.0})
	got, err := b.ResolveValue(o)
	if err != nil {
		t.Fatal(err)
	}
	g := got.(*value.Object)
	auth, _ := g.Get("auth")
	list, _ := g.Get("list")
	if auth != "Bearer "+key || list.([]any)[0] != "x"+key || list.([]any)[1] != 3.0 {
		t.Errorf("ResolveValue = %v", value.ToJSON(g))
	}
	if orig, _ := o.Get("auth"); orig != "Bearer "+b.Sentinel("AGENTMAIL_KEY") {
		t.Error("ResolveValue modified its input")
	}
	if _, err := b.ResolveValue([]any{b.Sentinel("OTHER")}); !isA[*UndeclaredError](err) {
		t.Errorf("nested undeclared err = %v", err)
	}
}

func TestRedact(t *testing.T) {
	b := testBox()
	jsonForm := value.QuoteJSON(key)
	texts := []string{
		"curl: bad header Authorization: Bearer " + key,
		`{"authorization":` + jsonForm + `}`,
		"GET /v0?token=" + strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(key, `"`, "%22"), "/", "%2F"), "&", "%26"),
		key + key,
		"sentinel " + b.Sentinel("AGENTMAIL_KEY"),
	}
	for _, text := range texts {
		out := b.Redact(text)
		if strings.Contains(out, key) || strings.Contains(out, jsonForm[1:len(jsonForm)-1]) || strings.Contains(out, "S3cret") || strings.Contains(out, "\x00") {
			t.Errorf("Redact(%q) = %q still holds the secret", text, out)
		}
		if !strings.Contains(out, "{{secret.AGENTMAIL_KEY}}") {
			t.Errorf("Redact(%q) = %q lacks the marker", text, out)
		}
	}
	if got := b.Redact("nothing here"); got != "nothing here" {
		t.Errorf("Redact changed clean text: %q", got)
	}
	// OTHER is not declared, so it is not known to the redactor.
	if got := b.Redact("xyzzy-other"); got != "xyzzy-other" {
		t.Errorf("undeclared secret redacted: %q", got)
	}
}

// TestRedactLearnsResolvedValues: a value that appears only when a sink
// resolves it is redacted from then on.
func TestRedactLearnsResolvedValues(t *testing.T) {
	vals := map[string]string{"LATE": "late-value-42"}
	calls := 0
	b := NewBox([]string{"LATE"}, func(n string) (string, bool) {
		calls++
		if calls == 1 {
			return "", false // not there yet when the run starts
		}
		v, ok := vals[n]
		return v, ok
	})
	if got := b.Redact("late-value-42"); got != "late-value-42" {
		t.Fatalf("redacted before the value was known: %q", got)
	}
	if _, err := b.Resolve(b.Sentinel("LATE")); err != nil {
		t.Fatal(err)
	}
	if got := b.Redact("x late-value-42"); got != "x {{secret.LATE}}" {
		t.Errorf("Redact after resolve = %q", got)
	}
}

func TestRedactorLongestFirst(t *testing.T) {
	var red Redactor
	red.Add("SHORT", "abc")
	red.Add("LONG", "abcdef")
	red.Add("NONE", "")
	if got := red.Redact("abcdef abc x"); got != "{{secret.LONG}} {{secret.SHORT}} x" {
		t.Errorf("Redact = %q", got)
	}
	var nilRed *Redactor
	if nilRed.Redact("abc") != "abc" {
		t.Error("nil redactor")
	}
}

func TestRedactValue(t *testing.T) {
	b := NewBox([]string{"K"}, func(string) (string, bool) { return "hunter22x", true })
	o := value.NewObject(1)
	o.Set("hunter22x", []any{"pw=hunter22x", 1.0, b.Sentinel("K")})
	got := value.ToJSON(b.RedactValue([]any{o}))
	if strings.Contains(got, "hunter22x") || !strings.Contains(got, `"pw={{secret.K}}"`) {
		t.Errorf("RedactValue = %s", got)
	}
	if k, _ := o.Get("hunter22x"); k == nil {
		t.Error("RedactValue modified its input")
	}
}

func TestRedactorConcurrent(t *testing.T) {
	var red Redactor
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := fmt.Sprintf("S%d", i)
			red.Add(name, "value-"+name)
			for range 100 {
				if strings.Contains(red.Redact("x value-"+name+" y"), "value-"+name) {
					t.Errorf("%s not redacted", name)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestShellSinkEndToEnd runs a real process through the shell runner with
// the box plugged in and searches every output for the value.
func TestShellSinkEndToEnd(t *testing.T) {
	t.Setenv("SKILLSCRIPT_SECRET_API_TOKEN", "tok_live_9f8e7d")
	lookup := func(n string) (string, bool) { return os.LookupEnv("SKILLSCRIPT_SECRET_" + n) }
	b := NewBox([]string{"API_TOKEN"}, lookup)
	runner := &shellexec.Runner{Allowlist: []string{"bash"}, EnableUnsafe: true, Resolve: b.Resolve, Redact: b.Redact}
	res, err := runner.Run(context.Background(), shellexec.Request{
		Command: `echo "auth failed for token ` + b.Sentinel("API_TOKEN") + `" >&2; exit 22`, Unsafe: true,
	})
	if err == nil {
		t.Fatal("expected failure")
	}
	for _, out := range []string{err.Error(), res.Stderr, strings.Join(res.Argv, " ")} {
		if strings.Contains(out, "tok_live_9f8e7d") {
			t.Errorf("secret value leaked in %q", out)
		}
	}
	if !strings.Contains(err.Error(), "auth failed for token {{secret.API_TOKEN}}") {
		t.Errorf("error = %v", err)
	}
	// A refused op never resolves the secret.
	refusing := &shellexec.Runner{Allowlist: []string{"echo"}, Resolve: func(s string) (string, error) {
		t.Errorf("Resolve called for a refused op with %q", s)
		return b.Resolve(s)
	}}
	if _, err := refusing.Run(context.Background(), shellexec.Request{Command: "curl -H " + b.Sentinel("API_TOKEN")}); !shellexec.IsRefusal(err) {
		t.Errorf("err = %v", err)
	}
}

func TestShortSecretRefused(t *testing.T) {
	b := NewBox([]string{"PIN"}, func(string) (string, bool) { return "7", true })
	_, err := b.Resolve("pin=" + b.Sentinel("PIN"))
	var short *TooShortError
	if !errors.As(err, &short) || short.Len != 1 || !strings.Contains(err.Error(), "shorter than 8 bytes") {
		t.Fatalf("Resolve of a 1-byte secret: %v, want a TooShortError", err)
	}
	// A short value is never a redaction pattern: "7" is not rewritten.
	if got := b.Redact("route 77"); got != "route 77" {
		t.Errorf("Redact = %q: a short secret rewrote ordinary text", got)
	}
}
