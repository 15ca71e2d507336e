package skillrt

import (
	"encoding/xml"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillscript/skillc/internal/host/registry"
)

// Realistic pieces of Agent Skills descriptions: what the skill does,
// when to use it, and the details publishers add (formats, tools,
// caveats).
var (
	topics = []string{"xlsx", "docx", "pptx", "pdf", "canvas-design", "brand-guidelines", "mcp-builder", "webapp-testing",
		"slack-gif-creator", "algorithmic-art", "internal-comms", "theme-factory", "frontend-design", "skill-creator",
		"changelog-writer", "invoice-extractor", "sql-reviewer", "terraform-planner", "k8s-debugger", "incident-postmortem"}
	does = []string{"Create, edit and analyse %s files with formulas, formatting and charts",
		"Review %s changes for correctness, style and security problems before they merge",
		"Turn raw notes into a polished %s deliverable that follows the house style",
		"Extract structured fields from %s documents and check them against the ledger"}
	when = []string{" Use when the user asks to build, fix or explain a %s artefact, or mentions a file ending in .%s.",
		" Use this skill whenever %s work comes up, even if the user does not name the format (for example \"the numbers sheet\" or \"the %s thing\")."}
	details = []string{" Keeps formulas live instead of pasting values, and recalculates before returning the file.",
		" Reads the team's template from the brand kit when one exists; otherwise falls back to a neutral theme with accessible colours.",
		" Never uploads content to third-party services; every transformation runs locally with the bundled scripts.",
		" Handles large inputs in chunks of 5,000 rows so that memory stays bounded on laptops.",
		" Produces a short summary of what changed, with line references, so a reviewer can check the work quickly.",
		" Supports English, German and Japanese content; dates follow the locale of the source document.",
		" Asks before deleting anything and keeps a backup copy next to the original file."}
)

// realDescription returns a deterministic description of 300 to 900
// characters for skill i.
func realDescription(i int, topic string) string {
	d := fmt.Sprintf(does[i%len(does)], topic) + "." + fmt.Sprintf(when[i%len(when)], topic, topic)
	target := 300 + (i*137)%601
	for j := 0; len(d) < target; j++ {
		d += details[(i+j)%len(details)]
	}
	if len(d) > 900 {
		d = d[:strings.LastIndex(d[:900], ".")+1]
	}
	return d
}

// realCatalog writes n packages with real-sized descriptions and returns
// the registry over them.
func realCatalog(t *testing.T, n int) *registry.Registry {
	t.Helper()
	base := t.TempDir()
	files := map[string]string{}
	for i := range n {
		topic := topics[i%len(topics)]
		name := topic
		if i >= len(topics) {
			name = fmt.Sprintf("%s-%d", topic, i/len(topics))
		}
		desc := realDescription(i, topic)
		if l := len(desc); l < 300 || l > 900 {
			t.Fatalf("description %d is %d bytes", i, l)
		}
		files[name+"/SKILL.md"] = skillMD(name, ">-\n  "+desc, "# "+name+"\n\nFollow the checklist in references/checklist.md.\n")
	}
	write(t, base, files)
	reg := registry.New(registry.Options{Roots: []registry.Root{{Dir: base, Origin: "project"}}})
	reg.Refresh()
	if got := len(reg.List()); got != n {
		t.Fatalf("indexed %d skills, want %d: %v", got, n, reg.Problems())
	}
	return reg
}

type catalogSkill struct {
	Name        string  `xml:"name,attr"`
	Description *string `xml:"description"`
	Location    *string `xml:"location"`
}

// parseCatalog decodes the <available_skills> block of a composition.
func parseCatalog(t *testing.T, out string) []catalogSkill {
	t.Helper()
	block := regexp.MustCompile(`(?s)<available_skills>.*</available_skills>\n`).FindString(out)
	var c struct {
		Skills []catalogSkill `xml:"skill"`
	}
	if err := xml.Unmarshal([]byte(block), &c); err != nil {
		t.Fatalf("catalog is not XML: %v\n%s", err, block)
	}
	return c.Skills
}

// TestCatalogListsEverySkill composes the prompt catalog of real-sized
// catalogs: 77 skills in the default 16 KiB (the reported case: xlsx was
// never listed), 200 in 64 KiB (first sentences), 32 KiB (first sentences
// cut at one cap) and 16 KiB (names only). Every visible skill is
// listed by name in every case, the block stays in its budget, and when
// descriptions are shortened every skill gets the same treatment.
func TestCatalogListsEverySkill(t *testing.T) {
	for _, tc := range []struct {
		skills, budget int
		wantDescs      bool
	}{{77, 0, true}, {200, 64 << 10, true}, {200, 32 << 10, true}, {200, 0, false}} {
		t.Run(fmt.Sprintf("%d-skills-%d-bytes", tc.skills, tc.budget), func(t *testing.T) {
			reg := realCatalog(t, tc.skills)
			rt := New(reg, Options{CatalogBudget: tc.budget})
			out := rt.Compose("s")
			block := regexp.MustCompile(`(?s)<available_skills>.*</available_skills>\n`).FindString(out)
			budget := tc.budget
			if budget == 0 {
				budget = DefaultCatalogBudget
			}
			if len(block) > budget {
				t.Errorf("block is %d bytes, over the budget of %d", len(block), budget)
			}
			skills := parseCatalog(t, out)
			listed := map[string]bool{}
			for _, s := range skills {
				listed[s.Name] = true
			}
			for _, name := range reg.Names() {
				if !listed[name] {
					t.Errorf("%s is not listed", name)
				}
			}
			if len(skills) != tc.skills {
				t.Errorf("listed %d skills, want %d", len(skills), tc.skills)
			}
			if !tc.wantDescs {
				if !strings.Contains(block, "names alone fill the catalog budget") {
					t.Error("names-only catalog without its note")
				}
				return
			}
			// fairness: no skill loses its description; the cut ones are
			// cut at one cap, so their lengths are close to each other
			minCut, maxLen := 1<<30, 0
			for _, s := range skills {
				if s.Description == nil || utf8.RuneCountInString(*s.Description) < 40 {
					t.Errorf("%s: description missing or under 40 characters: %v", s.Name, s.Description)
					continue
				}
				maxLen = max(maxLen, len(*s.Description))
				if strings.HasSuffix(*s.Description, "…") {
					minCut = min(minCut, len(*s.Description))
				}
			}
			if minCut < 1<<30 && maxLen-minCut > 40 {
				t.Errorf("unfair cut: shortest cut description %d bytes, longest description %d", minCut, maxLen)
			}
			if !strings.Contains(block, "descriptions shortened") {
				t.Error("shortened catalog without its note")
			}
			if tc.skills == 77 {
				for _, s := range skills {
					if s.Name == "xlsx" && !strings.HasPrefix(*s.Description, "Create, edit and analyse xlsx files") {
						t.Errorf("xlsx description %q", *s.Description)
					}
				}
			}
		})
	}
}

// TestCatalogFullWhenItFits: a catalog within the budget keeps full
// descriptions and locations.
func TestCatalogFullWhenItFits(t *testing.T) {
	reg := realCatalog(t, 20)
	out := New(reg, Options{CatalogBudget: 1 << 20}).Compose("s")
	for _, s := range parseCatalog(t, out) {
		rec, _ := reg.Lookup(s.Name)
		if s.Description == nil || *s.Description != rec.Description || s.Location == nil || *s.Location != rec.Location {
			t.Errorf("%s: not the full entry", s.Name)
		}
	}
	if strings.Contains(out, "shortened") {
		t.Error("a catalog that fits is marked shortened")
	}
}
