package lsp

import (
	"context"
	"os"
	"regexp"
	"sort"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	wsenv "github.com/skillscript/skillc/internal/workspace"
)

// definition answers textDocument/definition.
func (s *Server) definition(_ context.Context, p *protocol.DefinitionParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	sym := snap.symbolAt(byteOffset(snap.lines, p.Position))
	var locs []protocol.Location
	switch sym.kind {
	case symVar:
		for _, b := range sym.binds {
			locs = append(locs, snap.location(b.Ident.Range))
		}
	case symTarget:
		if sym.target != nil && sym.target.Name != nil {
			locs = append(locs, snap.location(sym.target.Name.Range))
		}
	case symSecret:
		if req, ok := snap.Info.Secrets[sym.name]; ok {
			locs = append(locs, snap.location(req.Range))
		}
	case symSkill:
		if loc, ok := s.skillLocation(snap, sym.name); ok {
			locs = append(locs, loc)
		}
	}
	if len(locs) == 0 {
		return nil, nil
	}
	return locs, nil
}

// location converts a range of the snapshot's document.
func (snap *snapshot) location(r ast.Range) protocol.Location {
	return protocol.Location{URI: uri.URI(snap.uri), Range: lspRange(snap.lines, r)}
}

// skillLocation finds the # Skill: line of a workspace skill.
func (s *Server) skillLocation(snap *snapshot, name string) (protocol.Location, bool) {
	path, ok := snap.env.Skills[name]
	if !ok {
		return protocol.Location{}, false
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return protocol.Location{}, false
	}
	f := wsenv.Parse(path, src).File
	r := ast.RangeOf(0, 0)
	if h := f.Header(ast.HeaderSkill); h != nil && h.ValueRng.IsValid() {
		r = h.ValueRng
	}
	return protocol.Location{URI: uri.URI(fileURI(path)), Range: lspRange(f.Lines, r)}, true
}

// occurrences returns every range naming the same symbol in the document.
func (snap *snapshot) occurrences(sym symbol) []ast.Range {
	var out []ast.Range
	switch sym.kind {
	case symVar:
		out = snap.varOccurrences(sym)
	case symTarget:
		out = snap.targetOccurrences(sym.name)
	case symSecret:
		out = snap.secretOccurrences(sym.name)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return dedupRanges(out)
}

// varOccurrences returns binding sites, references and # Returns: names of
// the variable.
func (snap *snapshot) varOccurrences(sym symbol) []ast.Range {
	binds := map[*check.Binding]bool{}
	for _, b := range sym.binds {
		binds[b] = true
	}
	var out []ast.Range
	for _, b := range sym.binds {
		out = append(out, b.Ident.Range)
	}
	for _, r := range snap.Info.Refs {
		if r.Subst.Root == nil || r.Name() != sym.name || r.TargetOf != nil {
			continue
		}
		if sameBinding(r.Bindings, binds) || (len(sym.binds) == 0 && len(r.Bindings) == 0) {
			out = append(out, r.Subst.Root.Range)
		}
	}
	rootLevel := len(sym.binds) == 0 || sym.binds[0].Scope == snap.Info.Root
	if rootLevel {
		for _, id := range snap.Info.Returns {
			if id.Name == sym.name {
				out = append(out, id.Range)
			}
		}
	}
	return out
}

// sameBinding reports whether any of bs is in set.
func sameBinding(bs []*check.Binding, set map[*check.Binding]bool) bool {
	for _, b := range bs {
		if set[b] {
			return true
		}
	}
	return false
}

// targetOccurrences returns the declaration, needs entries, default: and
// ${name.output} roots naming a target.
func (snap *snapshot) targetOccurrences(name string) []ast.Range {
	var out []ast.Range
	for _, t := range snap.File.Targets {
		if t.Name != nil && t.Name.Name == name {
			out = append(out, t.Name.Range)
		}
		for _, n := range t.Needs {
			if n.Name == name {
				out = append(out, n.Range)
			}
		}
		for _, ns := range t.NeedsInBody {
			for _, n := range ns.Names {
				if n.Name == name {
					out = append(out, n.Range)
				}
			}
		}
	}
	for _, d := range snap.File.Defaults {
		if d.Goal != nil && d.Goal.Name == name {
			out = append(out, d.Goal.Range)
		}
	}
	for _, r := range snap.Info.Refs {
		if r.TargetOf != nil && r.TargetOf.Name != nil && r.TargetOf.Name.Name == name {
			out = append(out, r.Subst.Root.Range)
		}
	}
	return out
}

// secretOccurrences returns the declaration and markers of a secret.
func (snap *snapshot) secretOccurrences(name string) []ast.Range {
	var out []ast.Range
	if req, ok := snap.Info.Secrets[name]; ok && req.Key != nil {
		out = append(out, req.Key.Range)
	}
	ast.Inspect(snap.File, func(n ast.Node) bool {
		if sr, ok := n.(*ast.SecretRef); ok && sr.Name == name {
			out = append(out, sr.Range)
		}
		return true
	})
	return out
}

// dedupRanges drops repeated ranges of a sorted list.
func dedupRanges(rs []ast.Range) []ast.Range {
	var out []ast.Range
	for i, r := range rs {
		if i == 0 || r != rs[i-1] {
			out = append(out, r)
		}
	}
	return out
}

// references answers textDocument/references.
func (s *Server) references(ctx context.Context, p *protocol.ReferenceParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	off := byteOffset(snap.lines, p.Position)
	if name, _, ok := snap.skillNameAt(off); ok {
		return append([]protocol.Location{}, s.skillReferences(ctx, name)...), nil
	}
	sym := snap.symbolAt(off)
	locs := []protocol.Location{}
	for _, r := range snap.occurrences(sym) {
		locs = append(locs, snap.location(r))
	}
	return locs, nil
}

// renameable reports whether the symbol can be renamed here.
func renameable(sym symbol) bool {
	switch sym.kind {
	case symVar:
		return !(len(sym.binds) == 0 && (check.IsAmbient(sym.name) || sym.name == "ERROR_CONTEXT"))
	case symTarget:
		return sym.target != nil
	}
	return false
}

// prepareRename answers textDocument/prepareRename.
func (s *Server) prepareRename(_ context.Context, p *protocol.PrepareRenameParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	off := byteOffset(snap.lines, p.Position)
	if _, rng, ok := snap.skillNameAt(off); ok {
		r := lspRange(snap.lines, rng)
		return &r, nil
	}
	sym := snap.symbolAt(off)
	if !renameable(sym) {
		return nil, nil
	}
	r := lspRange(snap.lines, sym.rng)
	return &r, nil
}

// reName is the shape of a valid variable or target name.
var reName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][\w-]*$`) })

// rename answers textDocument/rename.
func (s *Server) rename(ctx context.Context, p *protocol.RenameParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	off := byteOffset(snap.lines, p.Position)
	if name, _, ok := snap.skillNameAt(off); ok {
		return s.renameSkill(ctx, name, p.NewName)
	}
	sym := snap.symbolAt(off)
	if !renameable(sym) {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "nothing to rename here")
	}
	if !reName().MatchString(p.NewName) {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid name %q", p.NewName)
	}
	var edits []protocol.TextEdit
	for _, r := range snap.occurrences(sym) {
		edits = append(edits, protocol.TextEdit{Range: lspRange(snap.lines, r), NewText: p.NewName})
	}
	return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{uri.URI(snap.uri): edits}}, nil
}
