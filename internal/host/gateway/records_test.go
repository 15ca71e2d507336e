package gateway

import "github.com/skillscript/skillc/internal/host/registry"

// withBody returns r with its Markdown body set (a record built by hand,
// as Options.External's are).
func withBody(r *registry.Record, body string) *registry.Record {
	r.SetBody(body)
	return r
}

// withFrontmatter returns r with its raw frontmatter set.
func withFrontmatter(r *registry.Record, fm map[string]any) *registry.Record {
	r.SetFrontmatter(fm)
	return r
}
