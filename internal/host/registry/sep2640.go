package registry

import (
	"fmt"
	"net/url"
	"strings"
)

// SkillResource is one file of a skill in the MCP Skills extension
// (SEP-2640): its resource URI, "sha256:<hex>" digest and size.
type SkillResource struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// SkillEntry is the SEP-2640 entry of a skill, as skills/list and
// skills/get return it: the SKILL.md URI, the frontmatter verbatim and
// the complete file manifest.
type SkillEntry struct {
	URI         string          `json:"uri"`
	Frontmatter map[string]any  `json:"frontmatter"`
	Resources   []SkillResource `json:"resources"`
}

// SkillURI returns skill://<prefix>/<name>/<file>, each path segment
// escaped; prefix may be empty or hold "/"-separated segments.
func SkillURI(prefix, name, file string) string {
	var segs []string
	for _, s := range strings.Split(strings.Trim(prefix, "/"), "/") {
		if s != "" {
			segs = append(segs, url.PathEscape(s))
		}
	}
	segs = append(segs, url.PathEscape(name))
	for _, s := range strings.Split(file, "/") {
		segs = append(segs, url.PathEscape(s))
	}
	return "skill://" + strings.Join(segs, "/")
}

// Entry returns the SEP-2640 entry of a package. The last segment of the
// skill path is the frontmatter name, as the extension requires;
// skillscripts are not Agent Skills and are refused, and so are packages
// that cannot be loaded.
func (r *Record) Entry(prefix string) (SkillEntry, error) {
	if r.Kind != KindPackage {
		return SkillEntry{}, fmt.Errorf("%s is a skillscript; only SKILL.md packages are published as MCP skills", r.ID)
	}
	if !r.Loadable {
		return SkillEntry{}, fmt.Errorf("%s cannot be loaded; see skillc skills validate", r.ID)
	}
	e := SkillEntry{URI: SkillURI(prefix, r.Name, "SKILL.md"), Frontmatter: r.FrontmatterMap(), Resources: make([]SkillResource, 0, len(r.Resources))}
	for _, res := range r.Resources {
		e.Resources = append(e.Resources, SkillResource{URI: SkillURI(prefix, r.Name, res.Path), Digest: "sha256:" + res.SHA256, Size: res.Size})
	}
	return e, nil
}
