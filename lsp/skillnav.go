package lsp

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/ast"
	wsenv "github.com/skillscript/skillc/internal/workspace"
)

// skillNameAt returns the skill name under byte offset off: a literal
// execute_skill / inline name or the name of the file's `# Skill:` header.
func (snap *snapshot) skillNameAt(off int) (string, ast.Range, bool) {
	sym := snap.symbolAt(off)
	if sym.kind == symSkill {
		return sym.name, sym.rng, true
	}
	if h := snap.File.Header(ast.HeaderSkill); h != nil && len(h.Names) == 1 {
		r := h.Names[0].Span()
		if int(r.From.Offset()) <= off && off <= r.To.Offset() {
			return h.Names[0].Name, r, true
		}
	}
	return "", ast.Range{}, false
}

// skillFile is one skill source of the workspace: an open buffer or a
// file on disk.
type skillFile struct {
	uri   string
	path  string
	file  *ast.File
	lines *ast.LineTable
}

// skillSources parses the workspace's skill files (open buffers override
// the disk) whose text mentions name ("" for all).
func (s *Server) skillSources(ctx context.Context, name string) []skillFile {
	texts := map[string][]byte{}
	s.mu.Lock()
	for u, d := range s.docs {
		texts[u] = d.text
	}
	s.mu.Unlock()
	for _, path := range s.ws.skillFiles() {
		u := fileURI(path)
		if _, open := texts[u]; open {
			continue
		}
		if src, err := os.ReadFile(path); err == nil {
			texts[u] = src
		}
	}
	var out []skillFile
	for u, src := range texts {
		if ctx.Err() != nil || (name != "" && !bytes.Contains(src, []byte(name))) || isSkillMD(u) {
			continue
		}
		f := wsenv.Parse(docName(u), src).File
		out = append(out, skillFile{uri: u, path: filePath(u), file: f, lines: f.Lines})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].uri < out[j].uri })
	return out
}

// skillOccurrences returns every place naming skill name in the
// workspace: its `# Skill:` headers and the literal names of calls.
func (s *Server) skillOccurrences(ctx context.Context, name string) map[string][]protocol.Range {
	out := map[string][]protocol.Range{}
	for _, sf := range s.skillSources(ctx, name) {
		if h := sf.file.Header(ast.HeaderSkill); h != nil && len(h.Names) == 1 && h.Names[0].Name == name {
			out[sf.uri] = append(out[sf.uri], lspRange(sf.lines, h.Names[0].Span()))
		}
		for _, r := range skillRefs(sf.file) {
			if r.name == name {
				out[sf.uri] = append(out[sf.uri], lspRange(sf.lines, r.rng))
			}
		}
	}
	return out
}

// skillReferences lists the workspace-wide occurrences of a skill name.
func (s *Server) skillReferences(ctx context.Context, name string) []protocol.Location {
	occ := s.skillOccurrences(ctx, name)
	uris := make([]string, 0, len(occ))
	for u := range occ {
		uris = append(uris, u)
	}
	sort.Strings(uris)
	var locs []protocol.Location
	for _, u := range uris {
		for _, r := range occ[u] {
			locs = append(locs, protocol.Location{URI: uri.URI(u), Range: r})
		}
	}
	return locs
}

// renameSkill renames a skill everywhere in the workspace.
func (s *Server) renameSkill(ctx context.Context, name, newName string) (*protocol.WorkspaceEdit, error) {
	if !reName().MatchString(newName) {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid skill name %q", newName)
	}
	changes := map[uri.URI][]protocol.TextEdit{}
	for u, rs := range s.skillOccurrences(ctx, name) {
		for _, r := range rs {
			changes[uri.URI(u)] = append(changes[uri.URI(u)], protocol.TextEdit{Range: r, NewText: newName})
		}
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}

// callItem is the call-hierarchy item of the skill declared by sf, or of
// name when sf is nil (a skill the workspace does not define).
func callItem(name string, sf *skillFile) protocol.CallHierarchyItem {
	it := protocol.CallHierarchyItem{Name: name, Kind: protocol.SymbolKindModule}
	if sf == nil {
		return it
	}
	it.URI = uri.URI(sf.uri)
	if h := sf.file.Header(ast.HeaderSkill); h != nil && len(h.Names) == 1 {
		it.SelectionRange = lspRange(sf.lines, h.Names[0].Span())
	}
	it.Range = lspRange(sf.lines, ast.RangeOf(0, len(sf.lines.Src())))
	return it
}

// declaredName is the skill a source declares (its file name without the
// extension when it has no `# Skill:` header).
func (sf *skillFile) declaredName() string {
	if n := sf.file.SkillName(); n != "" {
		return n
	}
	return trimSkillExt(sf.path)
}

// trimSkillExt returns the file name of path without the skill extension.
func trimSkillExt(path string) string {
	return strings.TrimSuffix(filepath.Base(path), SkillExt)
}

// prepareCallHierarchy answers textDocument/prepareCallHierarchy on a
// skill name.
func (s *Server) prepareCallHierarchy(ctx context.Context, p *protocol.CallHierarchyPrepareParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	name, _, ok := snap.skillNameAt(byteOffset(snap.lines, p.Position))
	if !ok {
		return nil, nil
	}
	return []protocol.CallHierarchyItem{s.skillItem(ctx, name)}, nil
}

// skillItem returns the item of the skill called name.
func (s *Server) skillItem(ctx context.Context, name string) protocol.CallHierarchyItem {
	for _, sf := range s.skillSources(ctx, name) {
		if sf.declaredName() == name {
			return callItem(name, &sf)
		}
	}
	return callItem(name, nil)
}

// incomingCalls answers callHierarchy/incomingCalls: the skills that run
// or inline the item's skill.
func (s *Server) incomingCalls(ctx context.Context, p *protocol.CallHierarchyIncomingCallsParams) (any, error) {
	out := []protocol.CallHierarchyIncomingCall{}
	for _, sf := range s.skillSources(ctx, p.Item.Name) {
		var from []protocol.Range
		for _, r := range skillRefs(sf.file) {
			if r.name == p.Item.Name {
				from = append(from, lspRange(sf.lines, r.rng))
			}
		}
		if len(from) > 0 {
			out = append(out, protocol.CallHierarchyIncomingCall{From: callItem(sf.declaredName(), &sf), FromRanges: from})
		}
	}
	return out, nil
}

// outgoingCalls answers callHierarchy/outgoingCalls: the skills the item's
// skill runs or inlines.
func (s *Server) outgoingCalls(ctx context.Context, p *protocol.CallHierarchyOutgoingCallsParams) (any, error) {
	out := []protocol.CallHierarchyOutgoingCall{}
	var self *skillFile
	for _, sf := range s.skillSources(ctx, p.Item.Name) {
		if sf.uri == string(p.Item.URI) {
			self = &sf
			break
		}
	}
	if self == nil {
		return out, nil
	}
	index := map[string]int{}
	for _, r := range skillRefs(self.file) {
		i, ok := index[r.name]
		if !ok {
			i = len(out)
			index[r.name] = i
			out = append(out, protocol.CallHierarchyOutgoingCall{To: s.skillItem(ctx, r.name)})
		}
		out[i].FromRanges = append(out[i].FromRanges, lspRange(self.lines, r.rng))
	}
	return out, nil
}
