package secret

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/skillscript/skillc/eval/shellexec"
	"github.com/skillscript/skillc/eval/value"
)

const key = "am_us_Sup3r\"S3cret/Value&more"

func resolver() *Resolver {
	vals := map[string]string{"AGENTMAIL_KEY": key, "OTHER": "xyzzy-other", "EMPTY": ""}
	return &Resolver{
		Lookup:   func(n string) (string, bool) { v, ok := vals[n]; return v, ok },
		Declared: map[string]bool{"AGENTMAIL_KEY": true, "EMPTY": true, "UNSET": true},
	}
}

func TestFind(t *testing.T) {
	ms, err := Find("a {{secret.A_1}} b {{secret._x}}{{secret.C}}")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "A_1,_x,C" || ms[0].Start != 2 || ms[0].End != 16 || ms[0].Text() != "{{secret.A_1}}" {
		t.Errorf("Find = %+v", ms)
	}
	for _, bad := range []string{"{{secret.${NM}}}", "{{secret.}}", "{{secret.1A}}", "{{secret.A", "{{secret.A}", "{{secret.A-B}}", "ok {{secret.A}} then {{secret."} {
		_, err := Find(bad)
		var me *MalformedMarkerError
		if !errors.As(err, &me) {
			t.Errorf("Find(%q) err = %v, want malformed", bad, err)
		}
	}
	if ms, err := Find("{{ secret.A }} {{SECRET.A}} ${secret.A}"); err != nil || len(ms) != 0 {
		t.Errorf("non-markers: %v, %v", ms, err)
	}
	if !Contains("x{{secret.") || Contains("{secret.A}") {
		t.Error("Contains")
	}
}

func TestResolve(t *testing.T) {
	r := resolver()
	got, err := r.Resolve("Authorization: Bearer {{secret.AGENTMAIL_KEY}} ({{secret.EMPTY}})")
	if err != nil || got != "Authorization: Bearer "+key+" ()" {
		t.Fatalf("Resolve = %q, %v", got, err)
	}
	if got, err := r.Resolve("no markers ${X}"); err != nil || got != "no markers ${X}" {
		t.Errorf("plain = %q, %v", got, err)
	}
}

func TestResolveErrorsNeverShowValues(t *testing.T) {
	r := resolver()
	tests := []struct {
		in   string
		want string
		is   func(error) bool
	}{
		{"{{secret.OTHER}}", "secret {{secret.OTHER}} is not declared (add # Requires: secret.OTHER)", isA[*UndeclaredError]},
		{"{{secret.UNSET}}", "secret {{secret.UNSET}} is not provisioned (set SKILLSCRIPT_SECRET_UNSET)", isA[*NotProvisionedError]},
		{"{{secret.AGENTMAIL_KEY}} {{secret.${N}}}", "malformed secret marker at offset 25 (want {{secret.NAME}} with a literal name)", isA[*MalformedMarkerError]},
	}
	for _, tt := range tests {
		got, err := r.Resolve(tt.in)
		if err == nil || !tt.is(err) || err.Error() != tt.want {
			t.Errorf("Resolve(%q) err = %v, want %q", tt.in, err, tt.want)
		}
		if got != "" && got != tt.in || strings.Contains(fmt.Sprint(err), key) || strings.Contains(fmt.Sprint(err), "xyzzy") {
			t.Errorf("Resolve(%q) leaked: %q / %v", tt.in, got, err)
		}
	}
	var nilR *Resolver
	if _, err := nilR.Resolve("{{secret.A}}"); !isA[*UndeclaredError](err) {
		t.Errorf("nil resolver err = %v", err)
	}
}

func isA[T error](err error) bool {
	var target T
	return errors.As(err, &target)
}

func TestEnvLookup(t *testing.T) {
	t.Setenv("SKILLSCRIPT_SECRET_TOKEN", "tok-123")
	t.Setenv("HOME_SECRET_PLAIN", "nope")
	look := EnvLookup(nil)
	if v, ok := look("TOKEN"); !ok || v != "tok-123" {
		t.Errorf("TOKEN = %q, %v", v, ok)
	}
	if _, ok := look("PATH"); ok {
		t.Error("{{secret.PATH}} must not read $PATH")
	}
	r := &Resolver{Lookup: look, Declared: map[string]bool{"TOKEN": true, "PATH": true}}
	if _, err := r.Resolve("{{secret.PATH}}"); !isA[*NotProvisionedError](err) {
		t.Errorf("PATH err = %v", err)
	}
}

func TestResolveValue(t *testing.T) {
	r := resolver()
	args := map[string]any{"auth": "Bearer {{secret.AGENTMAIL_KEY}}", "n": 3.0, "list": []any{"{{secret.EMPTY}}x"}}
	got, err := r.ResolveValue(args)
	if err != nil {
		t.Fatal(err)
	}
	m := got.(map[string]any)
	if m["auth"] != "Bearer "+key || m["n"] != 3.0 || m["list"].([]any)[0] != "x" {
		t.Errorf("ResolveValue = %v", m)
	}
	if args["auth"] != "Bearer {{secret.AGENTMAIL_KEY}}" {
		t.Error("ResolveValue modified its input")
	}
	if _, err := r.ResolveValue([]any{"{{secret.OTHER}}"}); !isA[*UndeclaredError](err) {
		t.Errorf("nested undeclared err = %v", err)
	}
}

func TestRedactor(t *testing.T) {
	red := resolver().Redactor()
	jsonForm := value.QuoteJSON(key)
	texts := []string{
		"curl: bad header Authorization: Bearer " + key,
		`{"authorization":` + jsonForm + `}`,
		"GET /v0?token=" + strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(key, `"`, "%22"), "/", "%2F"), "&", "%26"),
		key + key,
	}
	for _, text := range texts {
		out := red.Redact(text)
		if strings.Contains(out, key) || strings.Contains(out, jsonForm[1:len(jsonForm)-1]) || strings.Contains(out, "S3cret") {
			t.Errorf("Redact(%q) = %q still holds the secret", text, out)
		}
		if !strings.Contains(out, "{{secret.AGENTMAIL_KEY}}") {
			t.Errorf("Redact(%q) = %q lacks the marker", text, out)
		}
	}
	if got := red.Redact("nothing here"); got != "nothing here" {
		t.Errorf("Redact changed clean text: %q", got)
	}
	// OTHER is not declared, so it is not known to the redactor.
	if got := red.Redact("xyzzy-other"); got != "xyzzy-other" {
		t.Errorf("undeclared secret redacted: %q", got)
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

func TestRedactValueAndError(t *testing.T) {
	var red Redactor
	red.Add("K", "hunter2")
	o := value.NewObject(1)
	o.Set("hunter2", []any{"pw=hunter2", 1.0})
	got := value.ToJSON(red.RedactValue([]any{o, map[string]any{"k": "hunter2"}}))
	if strings.Contains(got, "hunter2") {
		t.Errorf("RedactValue = %s", got)
	}
	if got := red.RedactError(errors.New("login hunter2 failed")); got != "login {{secret.K}} failed" {
		t.Errorf("RedactError = %q", got)
	}
	if red.RedactError(nil) != "" {
		t.Error("RedactError(nil)")
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
// the resolver and redactor plugged in and searches every output for the
// value.
func TestShellSinkEndToEnd(t *testing.T) {
	t.Setenv("SKILLSCRIPT_SECRET_API_TOKEN", "tok_live_9f8e7d")
	r := &Resolver{Lookup: EnvLookup(nil), Declared: map[string]bool{"API_TOKEN": true}}
	red := r.Redactor()
	runner := &shellexec.Runner{Allowlist: []string{"sh"}, Resolve: r.Resolve, Redact: red.Redact}
	res, err := runner.Run(context.Background(), shellexec.Request{
		Argv: []string{"sh", "-c", `echo "auth failed for token $1" >&2; exit 22`, "sh", "{{secret.API_TOKEN}}"},
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
	t.Setenv("SKILLSCRIPT_SECRET_API_TOKEN", "")
	refusing := &shellexec.Runner{Allowlist: []string{"echo"}, Resolve: func(s string) (string, error) {
		t.Errorf("Resolve called for a refused op with %q", s)
		return r.Resolve(s)
	}}
	if _, err := refusing.Run(context.Background(), shellexec.Request{Command: "curl -H {{secret.API_TOKEN}}"}); !shellexec.IsRefusal(err) {
		t.Errorf("err = %v", err)
	}
}
