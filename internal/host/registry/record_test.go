package registry

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// TestRecordJSONFields keeps recordJSON in step with Record: its fields
// are Record's exported fields, same names, types and tags, in Record's
// order, with "frontmatter" right after "root_dir" and "headings" right
// after "domain" (where the fields stood when they were exported, so the
// JSON is byte for byte what it was).
func TestRecordJSONFields(t *testing.T) {
	var want []reflect.StructField
	rt := reflect.TypeOf(Record{})
	for i := 0; i < rt.NumField(); i++ {
		f := rt.Field(i)
		if !f.IsExported() {
			continue
		}
		want = append(want, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
		switch f.Name {
		case "Root":
			want = append(want, reflect.StructField{Name: "Frontmatter", Type: reflect.TypeOf(map[string]any(nil)), Tag: `json:"frontmatter,omitempty"`})
		case "Domain":
			want = append(want, reflect.StructField{Name: "Headings", Type: reflect.TypeOf([]string(nil)), Tag: `json:"headings,omitempty"`})
		}
	}
	jt := reflect.TypeOf(recordJSON{})
	var got []reflect.StructField
	for i := 0; i < jt.NumField(); i++ {
		f := jt.Field(i)
		got = append(got, reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("recordJSON's fields differ from Record's:\n got %v\nwant %v", got, want)
	}
	// MarshalJSON and UnmarshalJSON copy every field: a record with each
	// field set goes there and back unchanged
	full := Record{Kind: KindPackage, Name: "n", Origin: "o", ID: "o/n", Description: "d", Location: "/l", Root: "/r",
		frontmatter: map[string]any{"k": "v"}, Status: "s", Tags: []string{"t"}, Resources: []Resource{{Path: "p", Size: 1, SHA256: "h"}},
		Digest: "sha256:x", Contract: &Contract{Vars: []string{"V"}}, ClassProblems: []string{"1:1: p"}, Domain: "dom",
		headings: []string{"H"}, Requires: []string{"c"}, Tools: []string{"c.t"}, Env: []string{"E"}, Loadable: true, ShadowedBy: "x/n"}
	for i := 0; i < rt.NumField(); i++ {
		if f := rt.Field(i); f.IsExported() && f.Name != "Class" && reflect.ValueOf(full).Field(i).IsZero() {
			t.Errorf("the test record leaves %s unset", f.Name)
		}
	}
	b, err := json.Marshal(&full)
	if err != nil {
		t.Fatal(err)
	}
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, full) {
		t.Errorf("the record did not survive JSON:\n got %+v\nwant %+v", back, full)
	}
	if !strings.Contains(string(b), `"root_dir":"/r","frontmatter":{"k":"v"},"status"`) || !strings.Contains(string(b), `"domain":"dom","headings":["H"],"requires"`) {
		t.Errorf("frontmatter or headings out of place: %s", b)
	}
}

// TestRecordJSONCached: a record loaded from the cache file encodes to
// the same JSON as the record parsed from its package — frontmatter and
// headings included (before the fields were unexported, `skills show`
// with a warm cache printed neither) — whether it is encoded through a
// pointer or as a value, and many goroutines may read a cached record's
// parts at once (run with -race).
func TestRecordJSONCached(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"plain/SKILL.md":    skillMD("plain", "Reads spreadsheets aloud."),
		"typed/SKILL.md":    "---\nname: typed\ndescription: Typed frontmatter values.\nreleased: 2024-01-02\nlimits:\n  max: 3\n  ratio: 0.5\n  list: [a, 1, null]\nmetadata:\n  tags: charts plots\n---\n# Typed\n\n## Usage\n\nBody.\n",
		"nofront/SKILL.md":  "# No frontmatter\n",
		"greet.skill.md":    strings.ReplaceAll(script, "%s", "greet"),
		"mismatch/SKILL.md": skillMD("other-name", "Its name differs from its directory."),
	})
	a, b, _ := parsedAndCached(t, root, 5)
	var lazy, fm, heads int
	for i := range b {
		if b[i].lazy != nil {
			lazy++
		}
	}
	if lazy == 0 {
		t.Fatal("no record came from the cache file")
	}
	// many readers of the cached records at once
	var wg sync.WaitGroup
	out := make([][]byte, 8)
	for g := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, r := range b {
				_, _, _, _ = r.Source(), r.Text(), r.HeadingTexts(), r.Diagnostics()
				j, err := json.Marshal(r)
				if err != nil {
					t.Error(err)
				}
				out[g] = append(out[g], j...)
			}
		}()
	}
	wg.Wait()
	for i := range a {
		want, err := json.Marshal(a[i])
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []any{b[i], *b[i]} {
			got, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("%s from the cache (%T) encodes as\n%s\nparsed:\n%s", a[i].ID, v, got, want)
			}
		}
		if strings.Contains(string(want), `"frontmatter":`) {
			fm++
		}
		if strings.Contains(string(want), `"headings":`) {
			heads++
		}
	}
	if fm == 0 || heads == 0 {
		t.Errorf("the tree does not exercise the fields: %d with frontmatter, %d with headings", fm, heads)
	}
	for g := range out[1:] {
		if string(out[g+1]) != string(out[0]) {
			t.Errorf("reader %d saw other JSON than reader 0", g+1)
		}
	}
}
