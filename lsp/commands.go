package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check/effects"
)

// The commands of workspace/executeCommand. Run and Test are also what the
// code lenses name.
const (
	CommandRun            = "skillc.run"             // `skillc run FILE`
	CommandTest           = "skillc.test"            // `skillc test FILE`
	CommandApprovePreview = "skillc.approve.preview" // the effect footprint `skillc approve` reviews
	CommandFixAll         = "skillc.fix.all"         // every machine-applicable fix, as a workspace edit
)

// serverCommands lists the commands the server executes.
func serverCommands() []string {
	return []string{CommandRun, CommandTest, CommandApprovePreview, CommandFixAll}
}

// SkillRunner runs `skillc run|test path` (kind is "run" or "test") in
// dir and returns its combined output and exit code; err is set when the
// command could not be started. skillc lsp passes ExecRunner; nil means
// the server cannot run skills.
type SkillRunner func(ctx context.Context, kind, path, dir string) (output []byte, exitCode int, err error)

// maxRunOutput bounds the output of a run returned to the client.
const maxRunOutput = 1 << 20

// ExecRunner returns a SkillRunner executing the skillc binary at bin
// (`bin run|test path`); the run goes through the same approval gate as
// on the command line. It ends with ctx.
func ExecRunner(bin string) SkillRunner {
	return func(ctx context.Context, kind, path, dir string) ([]byte, int, error) {
		cmd := exec.CommandContext(ctx, bin, kind, path)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return out, ee.ExitCode(), nil
		}
		if err != nil {
			return out, -1, err
		}
		return out, 0, nil
	}
}

// RunResult is the answer of skillc.run and skillc.test.
type RunResult struct {
	Command  string `json:"command"` // e.g. "skillc run /w/brief.skill.md"
	ExitCode int    `json:"exitCode"`
	Output   string `json:"output"` // stdout and stderr, truncated at 1 MiB
}

// PreviewResult is the answer of skillc.approve.preview.
type PreviewResult struct {
	Skill     string           `json:"skill"`
	Effectful bool             `json:"effectful"` // the skill itself has effects (children are gated on their own)
	Effects   []effects.Effect `json:"effects"`
	Summary   []string         `json:"summary"` // one line per effect, as `skillc approve` prints it
	Children  []string         `json:"children,omitempty"`
}

// executeCommand answers workspace/executeCommand. Every command takes the
// document URI as its first argument (skillc.fix.all without one fixes
// every open document).
func (s *Server) executeCommand(ctx context.Context, p *protocol.ExecuteCommandParams) (any, error) {
	var docURI string
	if len(p.Arguments) > 0 {
		if err := json.Unmarshal(p.Arguments[0], &docURI); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: the first argument must be a document URI string: %v", p.Command, err)
		}
	}
	switch p.Command {
	case CommandRun, CommandTest:
		return s.runCommand(ctx, strings.TrimPrefix(p.Command, "skillc."), docURI)
	case CommandApprovePreview:
		return s.approvePreview(docURI)
	case CommandFixAll:
		return s.fixAll(ctx, docURI)
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q (known: %s)", p.Command, strings.Join(serverCommands(), ", "))
}

// runCommand runs `skillc run|test` on the skill file of docURI, saved on
// disk, and shows its result.
func (s *Server) runCommand(ctx context.Context, kind, docURI string) (any, error) {
	if s.opts.RunSkill == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "skillc.%s: this server cannot run skills", kind)
	}
	path := filePath(docURI)
	if path == "" || !strings.HasSuffix(path, SkillExt) {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "skillc.%s: %q is not a %s file on disk (save it first)", kind, docURI, SkillExt)
	}
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "skillc.%s: %s is not a saved file", kind, path)
	}
	dir := filepath.Dir(path)
	for _, root := range s.ws.rootDirs() {
		if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
			dir = root
			break
		}
	}
	out, code, err := s.opts.RunSkill(ctx, kind, path, dir)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "skillc %s %s: %v", kind, path, err)
	}
	if len(out) > maxRunOutput {
		out = append(out[:maxRunOutput:maxRunOutput], "\n[output truncated]\n"...)
	}
	res := &RunResult{Command: "skillc " + kind + " " + path, ExitCode: code, Output: string(out)}
	s.notify("window/logMessage", &protocol.LogMessageParams{Type: protocol.MessageTypeLog,
		Message: fmt.Sprintf("$ %s\n%s[exit %d]", res.Command, res.Output, code)})
	t := protocol.MessageTypeInfo
	if code != 0 {
		t = protocol.MessageTypeWarning
	}
	s.showMessage(t, fmt.Sprintf("skillc %s %s: exit %d (output in the log)", kind, filepath.Base(path), code))
	return res, nil
}

// approvePreview lists the effect footprint of the document's skill: what
// `skillc approve` would show the reviewer.
func (s *Server) approvePreview(docURI string) (any, error) {
	snap, err := s.snapshot(docURI)
	if err != nil {
		return nil, err
	}
	if isSkillMD(snap.uri) || snap.File == nil || snap.Info == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "skillc.approve.preview: %s is not a skill", docURI)
	}
	var mut effects.Mutating
	if snap.env != nil && snap.env.Env != nil {
		mut = snap.env.Mutating()
	}
	fp := effects.Of(snap.File, snap.Info, mut)
	name := ""
	if h := snap.File.Header(ast.HeaderSkill); h != nil {
		name = strings.TrimSpace(snap.text(h.ValueRng))
	}
	return &PreviewResult{Skill: name, Effectful: fp.Effectful(), Effects: fp.Effects, Summary: fp.Summary(), Children: fp.Children()}, nil
}

// fixAll builds the workspace edit applying the first fix of every
// diagnostic of the document (of every open document without a URI),
// leaving out fixes that overlap an earlier one, and asks the client to
// apply it (workspace/applyEdit) when it can. The edit is also the answer.
func (s *Server) fixAll(ctx context.Context, docURI string) (any, error) {
	uris := []string{docURI}
	if docURI == "" {
		uris = s.openURIs()
	}
	edit := &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{}}
	for _, u := range uris {
		snap, err := s.snapshot(u)
		if err != nil {
			return nil, err
		}
		if tes := snap.fixAllEdits(); len(tes) > 0 {
			edit.Changes[uri.URI(u)] = tes
		}
	}
	if len(edit.Changes) == 0 {
		return edit, nil
	}
	s.mu.Lock()
	apply := s.client.applyEdit
	s.mu.Unlock()
	if apply {
		label := "skillc: fix all"
		cctx, cancel := context.WithTimeout(ctx, clientCallTimeout)
		defer cancel()
		var res protocol.ApplyWorkspaceEditResult
		if _, err := s.conn.Call(cctx, "workspace/applyEdit", &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: *edit}, &res); err != nil {
			s.logf("workspace/applyEdit: %v", err)
		} else if !res.Applied {
			s.logf("workspace/applyEdit: the client did not apply the fixes")
		}
	}
	return edit, nil
}

// fixAllEdits returns the first fix of each diagnostic, in source order,
// without the edits that overlap an earlier one.
func (snap *snapshot) fixAllEdits() []protocol.TextEdit {
	var edits []ast.TextEdit
	for _, d := range snap.Diags {
		if len(d.Fixes) > 0 {
			edits = append(edits, d.Fixes[0].Edits...)
		}
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Range.From < edits[j].Range.From })
	out := []protocol.TextEdit{}
	end := ast.Pos(0)
	for _, e := range edits {
		if e.Range.From < end {
			continue // overlaps the previous fix; a later fix all applies it
		}
		out = append(out, protocol.TextEdit{Range: lspRange(snap.lines, e.Range), NewText: e.NewText})
		end = e.Range.To
	}
	return out
}

// openURIs lists the open documents, sorted.
func (s *Server) openURIs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.docs))
	for u := range s.docs {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}
