package serve

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/url"
	"os"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillscript/skillc/internal/host/registry"
)

// The MCP Skills extension (SEP-2640) as skillc serve publishes it: the
// visible SKILL.md packages of the registry (skillscripts stay tools) as
// skill://<name>/<file> resources, listed and described by skills/list and
// skills/get, with resources/directory/read for package directories. The
// go-sdk dispatches the extension methods itself (AddReceivingCustomMethod),
// over every transport; the files are served by its resources/read through
// a resource template.
const (
	ExtSkills             = "io.modelcontextprotocol/skills"
	MethodSkillsList      = "skills/list"
	MethodSkillsGet       = "skills/get"
	MethodDirectoryRead   = "resources/directory/read"
	skillURITemplate      = "skill://{name}/{+path}"
	maxSkillResourceBytes = 8 << 20
)

// sep2640Capabilities declares the extension (with directoryRead) and
// the resources capability it requires.
func sep2640Capabilities() *mcp.ServerCapabilities {
	c := &mcp.ServerCapabilities{Resources: &mcp.ResourceCapabilities{ListChanged: true}}
	c.AddExtension(ExtSkills, map[string]any{"directoryRead": true})
	return c
}

// SkillsListParams are the params of skills/list (a cursor is accepted and
// ignored: the list is one page).
type SkillsListParams struct {
	mcp.ParamsBase
	Cursor string `json:"cursor,omitempty"`
}

// SkillsListResult is the result of skills/list.
type SkillsListResult struct {
	mcp.ResultBase
	Skills []registry.SkillEntry `json:"skills"`
}

// SkillsGetParams name one skill by the URI of its SKILL.md (or its
// skill://<name> path), or by name.
type SkillsGetParams struct {
	mcp.ParamsBase
	URI  string `json:"uri,omitempty"`
	Name string `json:"name,omitempty"`
}

// SkillsGetResult is the result of skills/get.
type SkillsGetResult struct {
	mcp.ResultBase
	Skill registry.SkillEntry `json:"skill"`
}

// DirectoryReadParams name a directory of a skill: skill://<name>/ or
// skill://<name>/<dir>.
type DirectoryReadParams struct {
	mcp.ParamsBase
	URI string `json:"uri"`
}

// DirectoryReadResult lists every file under the directory (recursively),
// in manifest order.
type DirectoryReadResult struct {
	mcp.ResultBase
	Resources []registry.SkillResource `json:"resources"`
}

// registerSEP2640 adds the extension methods, the skill:// resource
// template and the SKILL.md resources.
func (ts *toolSet) registerSEP2640() error {
	reg := ts.h.skills.Registry()
	if err := mcp.AddReceivingCustomMethod(ts.srv, MethodSkillsList, func(_ context.Context, _ *mcp.ServerSession, _ *SkillsListParams) (*SkillsListResult, error) {
		out := &SkillsListResult{Skills: []registry.SkillEntry{}}
		for _, rec := range publishedSkills(reg) {
			if e, err := rec.Entry(""); err == nil {
				out.Skills = append(out.Skills, e)
			}
		}
		return out, nil
	}); err != nil {
		return err
	}
	if err := mcp.AddReceivingCustomMethod(ts.srv, MethodSkillsGet, func(_ context.Context, _ *mcp.ServerSession, p *SkillsGetParams) (*SkillsGetResult, error) {
		name := p.Name
		if p.URI != "" {
			n, _, err := splitSkillURI(p.URI)
			if err != nil {
				return nil, err
			}
			name = n
		}
		rec, err := publishedSkill(reg, name)
		if err != nil {
			return nil, err
		}
		e, err := rec.Entry("")
		if err != nil {
			return nil, sep2640Invalid("%v", err)
		}
		return &SkillsGetResult{Skill: e}, nil
	}); err != nil {
		return err
	}
	if err := mcp.AddReceivingCustomMethod(ts.srv, MethodDirectoryRead, func(_ context.Context, _ *mcp.ServerSession, p *DirectoryReadParams) (*DirectoryReadResult, error) {
		return directoryRead(reg, p.URI)
	}); err != nil {
		return err
	}
	ts.srv.AddResourceTemplate(&mcp.ResourceTemplate{Name: "agent-skill-file", URITemplate: skillURITemplate,
		Description: "A file of an Agent Skill package (SEP-2640): skill://<name>/<path relative to the package root>."},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return readSkillResource(reg, req.Params.URI)
		})
	ts.skillsMu.Lock()
	ts.syncSkillResources()
	ts.skillsMu.Unlock()
	return nil
}

// syncSkillResources lists the SKILL.md of every published package in
// resources/list (the other files are reached through the template and
// the manifests). The caller holds skillsMu.
func (ts *toolSet) syncSkillResources() {
	if len(ts.skillURIs) > 0 {
		ts.srv.RemoveResources(ts.skillURIs...)
	}
	ts.skillURIs = ts.skillURIs[:0]
	for _, rec := range publishedSkills(ts.h.skills.Registry()) {
		uri := registry.SkillURI("", rec.Name, "SKILL.md")
		var size int64
		for _, r := range rec.Resources {
			if r.Path == "SKILL.md" {
				size = r.Size
			}
		}
		ts.srv.AddResource(&mcp.Resource{URI: uri, Name: rec.Name, Description: rec.Description, MIMEType: "text/markdown", Size: size},
			func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return readSkillResource(ts.h.skills.Registry(), req.Params.URI)
			})
		ts.skillURIs = append(ts.skillURIs, uri)
	}
}

// publishedSkills are the visible, loadable SKILL.md packages.
func publishedSkills(reg *registry.Registry) []*registry.Record {
	var out []*registry.Record
	for _, rec := range reg.List() {
		if rec.Kind == registry.KindPackage && rec.Loadable {
			out = append(out, rec)
		}
	}
	return out
}

// publishedSkill resolves a published package by name; anything else is
// -32602.
func publishedSkill(reg *registry.Registry, name string) (*registry.Record, error) {
	if name == "" {
		return nil, sep2640Invalid("give the skill's uri (skill://<name>/SKILL.md) or name")
	}
	for _, rec := range publishedSkills(reg) {
		if rec.Name == name {
			return rec, nil
		}
	}
	return nil, sep2640Invalid("unknown skill %q", name)
}

// splitSkillURI splits skill://<name>/<file> into the name and the
// slash-separated file path (possibly empty), unescaping each segment.
func splitSkillURI(raw string) (string, string, error) {
	rest, ok := strings.CutPrefix(raw, "skill://")
	if !ok {
		return "", "", sep2640Invalid("%q is not a skill:// URI", raw)
	}
	segs := strings.Split(rest, "/")
	for i, s := range segs {
		u, err := url.PathUnescape(s)
		if err != nil || strings.ContainsRune(u, '/') {
			return "", "", sep2640Invalid("%q: bad path segment %q", raw, s)
		}
		segs[i] = u
	}
	if segs[0] == "" {
		return "", "", sep2640Invalid("%q names no skill", raw)
	}
	return segs[0], strings.Join(segs[1:], "/"), nil
}

// readSkillResource serves one manifest file of a published package. Only
// files of the manifest are served, read through an os.Root of the
// package directory (no escape through symlinks or "..").
func readSkillResource(reg *registry.Registry, uri string) (*mcp.ReadResourceResult, error) {
	name, file, err := splitSkillURI(uri)
	if err != nil {
		return nil, err
	}
	rec, err := publishedSkill(reg, name)
	if err != nil {
		return nil, err
	}
	var res *registry.Resource
	for i := range rec.Resources {
		if rec.Resources[i].Path == file {
			res = &rec.Resources[i]
		}
	}
	if res == nil {
		return nil, sep2640Invalid("skill %q has no file %q", name, file)
	}
	data, err := readPackageFile(rec.Root, res.Path)
	if err != nil {
		return nil, err
	}
	rc := &mcp.ResourceContents{URI: uri, MIMEType: resourceMIME(res.Path, data)}
	if utf8.Valid(data) {
		rc.Text = string(data)
	} else {
		rc.Blob = data
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}, nil
}

func readPackageFile(dir, rel string) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "skill package directory is not readable"}
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		return nil, sep2640Invalid("%s is not readable (it changed on disk?)", rel)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSkillResourceBytes+1))
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "reading " + rel + " failed"}
	}
	if len(data) > maxSkillResourceBytes {
		return nil, sep2640Invalid("%s is larger than %d bytes", rel, maxSkillResourceBytes)
	}
	return data, nil
}

func resourceMIME(rel string, data []byte) string {
	switch path.Ext(rel) {
	case ".md":
		return "text/markdown"
	case "":
		if utf8.Valid(data) {
			return "text/plain"
		}
		return "application/octet-stream"
	}
	if t := mime.TypeByExtension(path.Ext(rel)); t != "" {
		return t
	}
	if utf8.Valid(data) {
		return "text/plain"
	}
	return "application/octet-stream"
}

// directoryRead lists the files under a directory of a published package:
// skill://<name> or skill://<name>/ is the package root. A file or a
// missing directory is -32602.
func directoryRead(reg *registry.Registry, uri string) (*DirectoryReadResult, error) {
	name, dir, err := splitSkillURI(uri)
	if err != nil {
		return nil, err
	}
	rec, err := publishedSkill(reg, name)
	if err != nil {
		return nil, err
	}
	dir = strings.Trim(dir, "/")
	e, err := rec.Entry("")
	if err != nil {
		return nil, sep2640Invalid("%v", err)
	}
	out := &DirectoryReadResult{Resources: []registry.SkillResource{}}
	for i, r := range rec.Resources {
		if dir == "" || strings.HasPrefix(r.Path, dir+"/") {
			out.Resources = append(out.Resources, e.Resources[i])
		}
	}
	if len(out.Resources) == 0 {
		return nil, sep2640Invalid("skill %q has no directory %q", name, dir)
	}
	return out, nil
}

// sep2640Invalid is the extension's error for an unknown skill, file or
// directory: -32602 Invalid params.
func sep2640Invalid(format string, args ...any) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
}
