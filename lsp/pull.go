package lsp

import (
	"context"
	"fmt"
	"os"
	"sort"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
)

// fullReport is a full document diagnostic report (LSP 3.17 pull model).
type fullReport struct {
	Kind     string                `json:"kind"`
	ResultID string                `json:"resultId,omitempty"`
	Items    []protocol.Diagnostic `json:"items"`
}

// workspaceReport is one document's report in a workspace/diagnostic answer.
type workspaceReport struct {
	fullReport
	URI     string `json:"uri"`
	Version *int32 `json:"version"`
}

// documentDiagnostic answers textDocument/diagnostic: the newest
// diagnostics of an open document (the quick ones until the full analysis
// is done, then workspace/diagnostic/refresh asks the client to pull
// again), or those of a skill file on disk.
func (s *Server) documentDiagnostic(_ context.Context, p *protocol.DocumentDiagnosticParams) (any, error) {
	u := string(p.TextDocument.URI)
	s.mu.Lock()
	var ready []protocol.Diagnostic
	if d := s.docs[u]; d != nil && d.pulled != nil && d.pulledVersion == d.version {
		ready = d.pulled
	}
	s.mu.Unlock()
	if ready != nil {
		return fullReport{Kind: "full", Items: ready}, nil
	}
	if snap, err := s.snapshot(u); err == nil {
		return fullReport{Kind: "full", ResultID: resultID(snap), Items: s.lspDiagnostics(snap)}, nil
	}
	items, err := s.diskDiagnostics(u)
	if err != nil {
		return nil, err
	}
	return fullReport{Kind: "full", Items: items}, nil
}

// resultID names one analysis of a document.
func resultID(snap *snapshot) string {
	return fmt.Sprintf("%d.%d.%d.%d", snap.version, snap.edit, snap.gen, snap.deps)
}

// diskDiagnostics analyses a file that is not open, as `skillc check`
// would in the workspace.
func (s *Server) diskDiagnostics(u string) ([]protocol.Diagnostic, error) {
	path := filePath(u)
	if path == "" {
		return nil, fmt.Errorf("document not open: %s", u)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	env, _ := s.ws.env(u)
	a := analyze(s.opts.Analyzer, path, src, env, nil, nil)
	lines := ast.NewLineTable(src)
	ds := append(ast.Diagnostics(nil), a.Diags...)
	ds.Sort()
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, d := range ds {
		out = append(out, s.lspDiagnosticIn(u, lines, d))
	}
	return out, nil
}

// workspaceDiagnostic answers workspace/diagnostic: every open document
// and every skill file of the workspace.
func (s *Server) workspaceDiagnostic(ctx context.Context, _ *protocol.WorkspaceDiagnosticParams) (any, error) {
	s.mu.Lock()
	open := make(map[string]bool, len(s.docs))
	for u := range s.docs {
		open[u] = true
	}
	s.mu.Unlock()
	items := []workspaceReport{}
	for u := range open {
		if snap, err := s.snapshot(u); err == nil {
			v := snap.version
			items = append(items, workspaceReport{fullReport{"full", resultID(snap), s.lspDiagnostics(snap)}, u, &v})
		}
	}
	for _, path := range s.ws.skillFiles() {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		u := fileURI(path)
		if open[u] {
			continue
		}
		if diags, err := s.diskDiagnostics(u); err == nil {
			items = append(items, workspaceReport{fullReport{Kind: "full", Items: diags}, u, nil})
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].URI < items[j].URI })
	return map[string]any{"items": items}, nil
}
