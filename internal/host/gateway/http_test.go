package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

func post(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v: %s", url, err, data)
	}
	return resp.StatusCode, m
}

// TestHTTPEndpoints drives the four endpoints on a loopback server with a
// real recorded run, and validates every response against the schema of
// the OpenAPI document the server publishes.
func TestHTTPEndpoints(t *testing.T) {
	l := newLive(t)
	srv := httptest.NewServer(Handler(l.g, "test"))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/gateway/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OpenAPI    string `json:"openapi"`
		Paths      map[string]any
		Components struct {
			Schemas map[string]*jsonschema.Schema
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if doc.OpenAPI != "3.1.0" || len(doc.Paths) != 4 {
		t.Fatalf("openapi document: %v %v", doc.OpenAPI, doc.Paths)
	}
	validate := func(schema string, v map[string]any) {
		t.Helper()
		s := doc.Components.Schemas[schema]
		if s == nil {
			t.Fatalf("no schema %s", schema)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s does not match its schema: %v", schema, err)
		}
	}
	code, run := post(t, srv.URL+"/gateway/run", `{"skill_id":"nightly-report","inputs":{"DAY":"sunday"}}`)
	if code != 200 {
		t.Fatalf("run: %d %v", code, run)
	}
	validate("RunResponse", run)
	id := run["execution"].(map[string]any)["trace_id"].(string)
	code, att := post(t, srv.URL+"/gateway/attach", `{"skill_id":"run-auditor","target_type":"run","target_ref":"`+id+`"}`)
	if code != 200 || !strings.Contains(att["execution"].(map[string]any)["output"].(string), "sunday") {
		t.Fatalf("attach: %d %v", code, att)
	}
	validate("AttachResult", att)
	code, disc := post(t, srv.URL+"/gateway/discover", `{"intent":"search the logs for errors","limit":3}`)
	if code != 200 || len(disc["results"].([]any)) != 3 {
		t.Fatalf("discover: %d %v", code, disc)
	}
	validate("DiscoverResponse", disc)
	code, list := post(t, srv.URL+"/gateway/list", `{"role":"sidecar","limit":2}`)
	if code != 200 || list["next_offset"].(float64) != 2 {
		t.Fatalf("list: %d %v", code, list)
	}
	validate("ListResponse", list)
	bad := []struct {
		path, body string
		code       int
		reason     string
	}{
		{"/gateway/attach", `{"skill_id":"nightly-report","target_type":"run","target_ref":"` + id + `"}`, 409, ReasonNotAttachable},
		{"/gateway/attach", `{"skill_id":"run-auditor","target_type":"run","target_ref":"nope"}`, 404, ReasonTargetNotFound},
		{"/gateway/attach", `{"skill_id":"csv-profiler","target_type":"artifact","target_ref":"../../etc/passwd"}`, 422, ReasonTargetOutsideRoot},
		{"/gateway/run", `{"skill_id":"run-auditor"}`, 409, ReasonNotCallable},
		{"/gateway/run", `{"skill_id":"ghost"}`, 404, ReasonUnknownSkill},
		{"/gateway/discover", `{"intent":""}`, 400, ReasonInvalidRequest},
		{"/gateway/discover", `{"intent":"x","limit":"ten"}`, 400, ReasonInvalidRequest},
		{"/gateway/discover", `{"intent":"logs","colour":1}`, 400, ReasonInvalidRequest},
		{"/gateway/list", `{"limit":100000}`, 400, ReasonInvalidRequest},
		{"/gateway/list", `not json`, 400, ReasonInvalidRequest},
	}
	for _, c := range bad {
		code, body := post(t, srv.URL+c.path, c.body)
		reason, _ := body["reason"].(map[string]any)
		if code != c.code || reason["code"] != c.reason {
			t.Errorf("%s %s: %d %v, want %d %s", c.path, c.body, code, body, c.code, c.reason)
		}
		validate("Error", body)
	}
	if r, _ := http.Get(srv.URL + "/gateway/run"); r.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /gateway/run: %d", r.StatusCode)
	}
}

// TestOpenAPIFromStructs checks that the document names every field of
// the shared request types (it is generated, not written by hand).
func TestOpenAPIFromStructs(t *testing.T) {
	data, err := OpenAPI("v")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"role_filter"`, `"include_unavailable"`, `"target_ref"`, `"attached_at"`, `"score_breakdown"`, `"reason_codes"`, `"next_offset"`, `"skills_attach"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("openapi lacks %s", want)
		}
	}
}

// FuzzDiscoverIntent ranks arbitrary intents: no panic, a structured
// refusal or results whose scores equal their breakdowns.
func FuzzDiscoverIntent(f *testing.F) {
	for _, j := range loadJudged(f) {
		f.Add(j.Intent, "")
	}
	f.Add(`"quoted" OR NOT near(a b) * ^`, "sidecar")
	f.Add("", "bogus")
	g := New(Options{Registry: newRegistry(f, skillsDir)})
	f.Cleanup(func() { g.Close() })
	f.Fuzz(func(t *testing.T, intent, role string) {
		resp, err := g.Discover(context.Background(), DiscoverRequest{Intent: intent, RoleFilter: role})
		if err != nil {
			if _, ok := ReasonOf(err); !ok {
				t.Fatalf("%q: unstructured error %v", intent, err)
			}
			return
		}
		for _, r := range resp.Results {
			b := r.ScoreBreakdown
			if d := r.Score - round(b.Lexical+b.Name+b.Role+b.Status+b.Tag+b.ReadOnly); d > 0.0002 || d < -0.0002 {
				t.Fatalf("%q: score %v != breakdown %+v", intent, r.Score, b)
			}
		}
	})
}

// FuzzAttachArtifactRef resolves arbitrary artifact references: content
// outside the artifact root is never returned.
func FuzzAttachArtifactRef(f *testing.F) {
	for _, s := range []string{"exports/users.csv", "../secret.txt", "/etc/passwd", "escape.txt", "exports/../exports/users.csv", "exports\\..\\..\\secret.txt", "", ".", "exports/", "./exports/users.csv"} {
		f.Add(s)
	}
	base := f.TempDir()
	arts := base + "/artifacts"
	os.MkdirAll(arts+"/exports", 0o755)
	os.WriteFile(arts+"/exports/users.csv", []byte("inside"), 0o644)
	os.WriteFile(base+"/secret.txt", []byte("OUTSIDE-SECRET"), 0o644)
	os.Symlink(base+"/secret.txt", arts+"/escape.txt")
	g := New(Options{Registry: newRegistry(f, skillsDir), ArtifactRoot: arts})
	f.Cleanup(func() { g.Close() })
	f.Fuzz(func(t *testing.T, ref string) {
		res, err := g.Attach(context.Background(), AttachRequest{SkillID: "data-quality-checker", TargetType: "artifact", TargetRef: ref})
		if err != nil {
			var ave *AttachValidationError
			if !errors.As(err, &ave) {
				t.Fatalf("%q: %v is not an AttachValidationError", ref, err)
			}
			return
		}
		if got := res.Execution.Inputs[InputTarget]; got != "inside" {
			t.Fatalf("%q resolved to %q", ref, got)
		}
	})
}
