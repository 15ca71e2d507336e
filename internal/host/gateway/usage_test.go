package gateway

import (
	"context"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/host/registry"
)

// TestUsageSections checks the extraction of a body's usage sections:
// the heading variants real packages use, levels, nesting, fences, the
// sub-blocks naming other tools and the word cap.
func TestUsageSections(t *testing.T) {
	cases := []struct {
		name, body, want string
		max              int
	}{
		{"when to use", "# X\n\nIntro.\n\n## When to Use\n\nMerging spreadsheets.\n\n## Setup\n\nInstall it.\n", "merging spreadsheets", 0},
		{"this skill", "## When to Use This Skill\n- rotating keys\n## Next\nno\n", "rotating keys", 0},
		{"lower case level 3", "### When to use this skill\nbatch jobs\n### Other\nno\n", "batch jobs", 0},
		{"use cases", "## Use cases\n1. invoices\n", "1 invoices", 0},
		{"triggers", "## Triggers\nsay deploy\n", "say deploy", 0},
		{"use when", "## Use When\nslow pages\n", "slow pages", 0},
		{"trailing hashes", "## When to use ##\nrepos\n", "repos", 0},
		{"level 4 does not open", "#### When to Use\nno\n", "", 0},
		{"triggers not first", "## Step 3: Identify Update Triggers\nno\n", "", 0},
		{"not a heading", "#When to Use\nno\n", "", 0},
		{"nested headings stay inside", "## When to Use\nalpha\n### Examples\nno\n#### Use it for\nbeta\n## After\nno\n", "alpha use it for beta", 0},
		{"higher level ends it", "### When to Use\nalpha\n## Next\nno\n### When to use vs alternatives\ngamma\n", "alpha gamma", 0},
		{"two sections", "## When to Use\nalpha\n## Mid\nno\n## Use cases\nbeta\n", "alpha beta", 0},
		{"fence skipped", "## When to Use\nalpha\n```sh\nrm -rf build\n## not a heading\n```\nbeta\n## End\nno\n", "alpha beta", 0},
		{"heading in fence opens nothing", "```md\n## When to Use\nno\n```\nplain\n", "", 0},
		{"tilde fence", "## When to Use\n~~~\ncode\n~~~\nbeta\n", "beta", 0},
		{"negative sub-block skipped", "## When to use AWQ\n**Use AWQ when:**\n- chat models\n\n**Use GPTQ instead when:**\n- old gpus\n\n**Use it for:**\n- serving\n", "use awq when chat models use it for serving", 0},
		{"unrelated sub-block skipped", "## When to Use\n**Use it when:**\n- tokens\n**Performance**:\n- speed\n", "use it when tokens", 0},
		{"when not to use", "## When to Use\n- dashboards\n\nWhen not to use it:\n- emails\n", "dashboards", 0},
		{"word cap", "## When to Use\none two three four five\n", "one two three", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			max := c.max
			if max == 0 {
				max = maxUsageWords
			}
			if got := strings.Join(usageSections(c.body, max), " "); got != c.want {
				t.Errorf("usageSections = %q, want %q", got, c.want)
			}
		})
	}
}

// TestUsageField checks that the usage field is indexed for packages
// only and weighs a word in it above the same word in the body alone.
func TestUsageField(t *testing.T) {
	recs := []*registry.Record{
		{ID: "project/body", Name: "body", Kind: registry.KindPackage, Description: "Tools.", Body: "## Notes\n\nAlso handles invoices.\n"},
		{ID: "project/usage", Name: "usage", Kind: registry.KindPackage, Description: "Tools.", Body: "## When to Use\n\nAlso handles invoices.\n"},
		{ID: "project/script", Name: "script", Kind: registry.KindScript, Description: "Tools.", Body: "## When to Use\n\ninvoices\n"},
	}
	if d := analyze(recs[1]); strings.Join(d[fieldUsage], " ") != "also handl invoic" {
		t.Errorf("usage field %q", d[fieldUsage])
	}
	if d := analyze(recs[2]); len(d[fieldUsage]) != 0 {
		t.Errorf("a skillscript has a usage field: %q", d[fieldUsage])
	}
	w := DefaultConfig().Weights
	w.BM25Usage = 1
	ix, _ := buildIndex(context.Background(), recs, 1, w, analyze)
	hits, _ := ix.search(context.Background(), []string{"invoices"}, 10)
	var got []string
	for _, h := range hits {
		got = append(got, h.rec.Name)
	}
	if strings.Join(got, " ") != "usage body" {
		t.Errorf("invoices finds %q, want usage then body", got)
	}
}
