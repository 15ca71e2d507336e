package lsp

import (
	"context"
	"os"
	"sort"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/lint"
)

// skillRef is one literal skill name in an execute_skill or inline call.
type skillRef struct {
	name string
	rng  ast.Range
}

// skillRefs lists the literal skill names a file runs or inlines.
func skillRefs(f *ast.File) []skillRef {
	var out []skillRef
	if f == nil {
		return nil
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallStmt)
		if !ok || call.Name == nil {
			return true
		}
		for _, a := range call.Args {
			if a == nil || a.Key == nil || a.Value == nil || !isSkillArg(call.Name.Name, a.Key.Name) {
				continue
			}
			if name, rng, ok := literalValue(a.Value); ok {
				out = append(out, skillRef{name, rng})
			}
		}
		return true
	})
	return out
}

// documentLink answers textDocument/documentLink: each skill name in an
// execute_skill or inline call links to the file defining it.
func (s *Server) documentLink(_ context.Context, p *protocol.DocumentLinkParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentLink{}
	for _, r := range skillRefs(snap.File) {
		path, ok := snap.env.Skills[r.name]
		if !ok {
			continue
		}
		target := uri.URI(fileURI(path))
		tip := "skill " + r.name
		out = append(out, protocol.DocumentLink{Range: lspRange(snap.lines, r.rng), Target: &target, Tooltip: &tip})
	}
	return out, nil
}

// maxWorkspaceSymbols bounds a workspace/symbol answer.
const maxWorkspaceSymbols = 200

// nameRange returns the range of a skill's `# Skill:` name in its file.
func nameRange(si lint.SkillInfo) protocol.Range {
	r, ok := si.NameAt[si.File]
	src, err := os.ReadFile(si.File)
	if !ok || err != nil {
		return protocol.Range{}
	}
	return lspRange(ast.NewLineTable(src), r)
}

// workspaceSymbol answers workspace/symbol: the workspace's skills whose
// name contains the query (case-insensitively), pointing at their files.
func (s *Server) workspaceSymbol(_ context.Context, p *protocol.WorkspaceSymbolParams) (any, error) {
	q := strings.ToLower(p.Query)
	out := []protocol.SymbolInformation{}
	for _, si := range s.ws.skillInfos() {
		if !strings.Contains(strings.ToLower(si.Name), q) {
			continue
		}
		out = append(out, protocol.SymbolInformation{
			BaseSymbolInformation: protocol.BaseSymbolInformation{Name: si.Name, Kind: protocol.SymbolKindModule},
			Location:              protocol.Location{URI: uri.URI(fileURI(si.File)), Range: nameRange(si)},
		})
		if len(out) == maxWorkspaceSymbols {
			break
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
