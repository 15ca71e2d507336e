package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillscript/skillc/internal/host/registry"
	"github.com/skillscript/skillc/internal/host/serve"
)

// sepPackage is a SKILL.md package whose frontmatter has nested metadata
// and an allowed-tools string (copied exactly into skills/list).
var sepPackage = map[string]string{
	"SKILL.md":            "---\nname: pdf-tools\ndescription: Fill and merge PDF forms.\nlicense: MIT\nmetadata:\n  author: ana\n  version: \"1.2\"\nallowed-tools: Bash(pdftk:*) Read\n---\n\nRead references/guide.md.\n",
	"references/guide.md": "the guide\n",
	"scripts/hello.sh":    "echo \"hello $1\"\n",
}

// sepClient connects a go-sdk client that knows the SEP-2640 methods.
func sepClient(t *testing.T, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "sep-test", Version: "1"}, nil)
	for _, err := range []error{
		mcp.AddSendingCustomMethod[*serve.SkillsListParams, *serve.SkillsListResult](c, serve.MethodSkillsList),
		mcp.AddSendingCustomMethod[*serve.SkillsGetParams, *serve.SkillsGetResult](c, serve.MethodSkillsGet),
		mcp.AddSendingCustomMethod[*serve.DirectoryReadParams, *serve.DirectoryReadResult](c, serve.MethodDirectoryRead),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	cs, err := c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func wantInvalidParams(t *testing.T, what string, err error) {
	t.Helper()
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("%s: err = %v, want -32602", what, err)
	}
}

func sepSkillsList(t *testing.T, cs *mcp.ClientSession) []registry.SkillEntry {
	t.Helper()
	res, err := mcp.CallCustomMethod[*serve.SkillsListParams, *serve.SkillsListResult](context.Background(), cs, serve.MethodSkillsList, &serve.SkillsListParams{})
	if err != nil {
		t.Fatalf("skills/list: %v", err)
	}
	return res.Skills
}

// TestServeSEP2640 checks the MCP Skills extension over Streamable HTTP
// with the go-sdk client: the capability, skills/list (exact frontmatter,
// complete sha256 manifest, skillscripts left out), skills/get,
// resources/read and resources/list of skill:// URIs,
// resources/directory/read, and -32602 for unknown skills and files.
func TestServeSEP2640(t *testing.T) {
	home := t.TempDir()
	writeSkill(t, home, "hello", helloSkill)
	writePackage(t, filepath.Join(home, "skills", "pdf-tools"), sepPackage)
	p := startServe(t, home, []string{"HOME=" + t.TempDir()})
	cs := sepClient(t, &mcp.StreamableClientTransport{Endpoint: p.url + "/mcp", DisableStandaloneSSE: true})
	ctx := context.Background()

	caps := cs.InitializeResult().Capabilities
	ext, ok := caps.Extensions[serve.ExtSkills].(map[string]any)
	if !ok || ext["directoryRead"] != true || caps.Resources == nil {
		t.Fatalf("capabilities: extensions %v, resources %v", caps.Extensions, caps.Resources)
	}

	skills := sepSkillsList(t, cs)
	if len(skills) != 1 {
		t.Fatalf("skills/list = %+v, want only pdf-tools (skillscripts are not SEP-2640 skills)", skills)
	}
	e := skills[0]
	if e.URI != "skill://pdf-tools/SKILL.md" {
		t.Errorf("uri = %q", e.URI)
	}
	wantFM := map[string]any{"name": "pdf-tools", "description": "Fill and merge PDF forms.", "license": "MIT",
		"metadata": map[string]any{"author": "ana", "version": "1.2"}, "allowed-tools": "Bash(pdftk:*) Read"}
	if !reflect.DeepEqual(e.Frontmatter, wantFM) {
		t.Errorf("frontmatter = %#v\nwant %#v", e.Frontmatter, wantFM)
	}
	var got []string
	for _, r := range e.Resources {
		got = append(got, r.URI)
		rel := strings.TrimPrefix(r.URI, "skill://pdf-tools/")
		sum := sha256.Sum256([]byte(sepPackage[rel]))
		if r.Digest != "sha256:"+hex.EncodeToString(sum[:]) || r.Size != int64(len(sepPackage[rel])) {
			t.Errorf("%s: digest %s size %d", r.URI, r.Digest, r.Size)
		}
	}
	slices.Sort(got)
	if want := []string{"skill://pdf-tools/SKILL.md", "skill://pdf-tools/references/guide.md", "skill://pdf-tools/scripts/hello.sh"}; !slices.Equal(got, want) {
		t.Errorf("manifest = %v, want %v", got, want)
	}

	for _, params := range []*serve.SkillsGetParams{{URI: "skill://pdf-tools/SKILL.md"}, {Name: "pdf-tools"}} {
		g, err := mcp.CallCustomMethod[*serve.SkillsGetParams, *serve.SkillsGetResult](ctx, cs, serve.MethodSkillsGet, params)
		if err != nil || !reflect.DeepEqual(g.Skill, e) {
			t.Errorf("skills/get %+v = %+v, %v", params, g, err)
		}
	}
	for _, params := range []*serve.SkillsGetParams{{Name: "nope"}, {URI: "skill://hello/SKILL.md"}, {URI: "https://x/SKILL.md"}, {}} {
		_, err := mcp.CallCustomMethod[*serve.SkillsGetParams, *serve.SkillsGetResult](ctx, cs, serve.MethodSkillsGet, params)
		wantInvalidParams(t, "skills/get unknown", err)
	}

	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://pdf-tools/references/guide.md"})
	if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text != "the guide\n" || rr.Contents[0].MIMEType != "text/markdown" {
		t.Errorf("resources/read guide = %+v, %v", rr, err)
	}
	rr, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://pdf-tools/SKILL.md"})
	if err != nil || rr.Contents[0].Text != sepPackage["SKILL.md"] {
		t.Errorf("resources/read SKILL.md = %+v, %v", rr, err)
	}
	for _, uri := range []string{"skill://pdf-tools/nope.md", "skill://pdf-tools/../hello.skill.md", "skill://nope/SKILL.md", "skill://hello/SKILL.md"} {
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		wantInvalidParams(t, "resources/read "+uri, err)
	}
	lr, err := cs.ListResources(ctx, nil)
	if err != nil || len(lr.Resources) != 1 || lr.Resources[0].URI != "skill://pdf-tools/SKILL.md" {
		t.Errorf("resources/list = %+v, %v", lr, err)
	}

	d, err := mcp.CallCustomMethod[*serve.DirectoryReadParams, *serve.DirectoryReadResult](ctx, cs, serve.MethodDirectoryRead, &serve.DirectoryReadParams{URI: "skill://pdf-tools/references"})
	if err != nil || len(d.Resources) != 1 || d.Resources[0].URI != "skill://pdf-tools/references/guide.md" {
		t.Errorf("directory/read references = %+v, %v", d, err)
	}
	d, err = mcp.CallCustomMethod[*serve.DirectoryReadParams, *serve.DirectoryReadResult](ctx, cs, serve.MethodDirectoryRead, &serve.DirectoryReadParams{URI: "skill://pdf-tools/"})
	if err != nil || len(d.Resources) != 3 {
		t.Errorf("directory/read root = %+v, %v", d, err)
	}
	for _, uri := range []string{"skill://pdf-tools/assets", "skill://pdf-tools/SKILL.md", "skill://nope/"} {
		_, err := mcp.CallCustomMethod[*serve.DirectoryReadParams, *serve.DirectoryReadResult](ctx, cs, serve.MethodDirectoryRead, &serve.DirectoryReadParams{URI: uri})
		wantInvalidParams(t, "directory/read "+uri, err)
	}
}

// TestServeSEP2640Stdio checks skills/list and a resource read over the
// stdio transport (the same go-sdk dispatch).
func TestServeSEP2640Stdio(t *testing.T) {
	home := t.TempDir()
	writePackage(t, filepath.Join(home, "skills", "pdf-tools"), sepPackage)
	cmd := exec.Command("skillc", "serve", "--stdio")
	cmd.Env = append(os.Environ(), "SKILLSCRIPT_HOME="+home, "HOME="+t.TempDir())
	cs := sepClient(t, &mcp.CommandTransport{Command: cmd})
	if skills := sepSkillsList(t, cs); len(skills) != 1 || skills[0].URI != "skill://pdf-tools/SKILL.md" {
		t.Fatalf("skills/list over stdio = %+v", skills)
	}
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "skill://pdf-tools/scripts/hello.sh"})
	if err != nil || rr.Contents[0].Text != sepPackage["scripts/hello.sh"] {
		t.Errorf("resources/read over stdio = %+v, %v", rr, err)
	}
	_, err = mcp.CallCustomMethod[*serve.SkillsGetParams, *serve.SkillsGetResult](context.Background(), cs, serve.MethodSkillsGet, &serve.SkillsGetParams{Name: "nope"})
	wantInvalidParams(t, "skills/get over stdio", err)
}

// toolEnum returns the enum of a skills_* tool's name parameter.
func toolEnum(t *testing.T, cs *mcp.ClientSession, tool, prop string) []string {
	t.Helper()
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range lt.Tools {
		if tl.Name != tool {
			continue
		}
		schema, _ := tl.InputSchema.(map[string]any)
		props, _ := schema["properties"].(map[string]any)
		p, _ := props[prop].(map[string]any)
		if items, ok := p["items"].(map[string]any); ok {
			p = items
		}
		var out []string
		for _, v := range p["enum"].([]any) {
			out = append(out, v.(string))
		}
		return out
	}
	t.Fatalf("no tool %s", tool)
	return nil
}

// TestServeSkillsToolEnums checks that the skills_* name parameters carry
// the visible names as an enum, refreshed when a package is added at run
// time, and that a name outside the enum is -32602.
func TestServeSkillsToolEnums(t *testing.T) {
	home := t.TempDir()
	writePackage(t, filepath.Join(home, "skills", "pdf-tools"), sepPackage)
	p := startServe(t, home, []string{"HOME=" + t.TempDir()})
	cs := connect(t, p.url, nil)
	if got := toolEnum(t, cs, "skills_load", "names"); !slices.Equal(got, []string{"pdf-tools"}) {
		t.Errorf("skills_load names enum = %v", got)
	}
	if got := toolEnum(t, cs, "skills_read", "skill"); !slices.Equal(got, []string{"pdf-tools"}) {
		t.Errorf("skills_read skill enum = %v", got)
	}
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "skills_load", Arguments: map[string]any{"names": []string{"nope"}}})
	wantInvalidParams(t, "skills_load outside the enum", err)
	writePackage(t, filepath.Join(home, "skills", "csv-tools"), map[string]string{
		"SKILL.md": "---\nname: csv-tools\ndescription: Clean CSV files.\n---\n\nUse pandas.\n",
	})
	deadline := time.Now().Add(10 * time.Second)
	for !slices.Equal(toolEnum(t, cs, "skills_load", "names"), []string{"csv-tools", "pdf-tools"}) {
		if time.Now().After(deadline) {
			t.Fatalf("the enum was not refreshed: %v\n%s", toolEnum(t, cs, "skills_load", "names"), p.stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var load struct {
		ActiveSkills []any `json:"active_skills"`
	}
	callJSON(t, cs, "skills_load", map[string]any{"names": []string{"csv-tools"}}, &load)
	if len(load.ActiveSkills) != 1 {
		t.Errorf("skills_load csv-tools = %+v", load)
	}
}

// TestServeSkillsInstructions checks skills_instructions (tool and
// prompt): the catalog before any load, the active body after
// skills_load, per session.
func TestServeSkillsInstructions(t *testing.T) {
	home := t.TempDir()
	writePackage(t, filepath.Join(home, "skills", "pdf-tools"), sepPackage)
	p := startServe(t, home, []string{"HOME=" + t.TempDir()})
	cs, other := connect(t, p.url, nil), connect(t, p.url, nil)
	var ins struct{ Instructions string }
	callJSON(t, cs, serve.ToolInstructions, nil, &ins)
	if !strings.Contains(ins.Instructions, "<available_skills>") || !strings.Contains(ins.Instructions, `<skill name="pdf-tools"`) || strings.Contains(ins.Instructions, "<active_skills>") {
		t.Errorf("before load:\n%s", ins.Instructions)
	}
	callJSON(t, cs, "skills_load", map[string]any{"names": []string{"pdf-tools"}}, nil)
	callJSON(t, cs, serve.ToolInstructions, nil, &ins)
	if !strings.Contains(ins.Instructions, "<active_skills>") || !strings.Contains(ins.Instructions, "Read references/guide.md.") {
		t.Errorf("after load:\n%s", ins.Instructions)
	}
	gp, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: serve.ToolInstructions})
	if err != nil || gp.Messages[0].Content.(*mcp.TextContent).Text != ins.Instructions {
		t.Errorf("prompt = %+v, %v; want the tool's text", gp, err)
	}
	callJSON(t, other, serve.ToolInstructions, nil, &ins)
	if strings.Contains(ins.Instructions, "<active_skills>") {
		t.Errorf("another session sees the first one's active skills:\n%s", ins.Instructions)
	}
}

// TestServeRunScriptSwitch checks that skills_run_script is absent by
// default and, with --enable-scripts (or SKILLSCRIPT_SKILLS_RUN_SCRIPT),
// runs a script of a loaded package.
func TestServeRunScriptSwitch(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	home := t.TempDir()
	writePackage(t, filepath.Join(home, "skills", "pdf-tools"), sepPackage)
	off := connect(t, startServe(t, home, []string{"HOME=" + t.TempDir()}).url, nil)
	res, err := off.CallTool(context.Background(), &mcp.CallToolParams{Name: "skills_run_script", Arguments: map[string]any{"path": "scripts/hello.sh"}})
	if err == nil && !res.IsError {
		t.Errorf("skills_run_script ran with scripts off: %+v", res)
	}
	for name, p := range map[string]*serveProc{
		"flag": startServe(t, home, []string{"HOME=" + t.TempDir()}, "--enable-scripts"),
		"env":  startServe(t, home, []string{"HOME=" + t.TempDir(), serve.EnvSkillsRunScript + "=true"}),
	} {
		cs := connect(t, p.url, nil)
		callJSON(t, cs, "skills_load", map[string]any{"names": []string{"pdf-tools"}}, nil)
		var out struct {
			ExitCode int `json:"exit_code"`
			Stdout   string
		}
		callJSON(t, cs, "skills_run_script", map[string]any{"skill": "pdf-tools", "path": "scripts/hello.sh", "args": []string{"ana"}}, &out)
		if out.Stdout != "hello ana\n" || out.ExitCode != 0 {
			t.Errorf("%s: skills_run_script = %+v", name, out)
		}
	}
}
