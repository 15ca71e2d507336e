package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
)

// semanticTokensRange answers textDocument/semanticTokens/range.
func (s *Server) semanticTokensRange(ctx context.Context, p *protocol.SemanticTokensRangeParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	from, to := byteOffset(snap.lines, p.Range.Start), byteOffset(snap.lines, p.Range.End)
	var in []token
	for _, t := range snap.tokens() {
		if t.rng.To.Offset() > from && t.rng.From.Offset() < to {
			in = append(in, t)
		}
	}
	return &protocol.SemanticTokens{Data: encodeTokens(snap.lines, in)}, ctx.Err()
}

// semanticTokensFull answers textDocument/semanticTokens/full with a
// result id, remembered for a later delta request.
func (s *Server) semanticTokensFull(ctx context.Context, p *protocol.SemanticTokensParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	data := encodeTokens(snap.lines, snap.tokens())
	id := s.rememberTokens(snap.uri, data)
	return &protocol.SemanticTokens{ResultID: &id, Data: data}, ctx.Err()
}

// semanticTokensDelta answers textDocument/semanticTokens/full/delta: one
// edit replacing what changed between the previous result and now, or the
// full tokens when the previous result is not the one remembered.
func (s *Server) semanticTokensDelta(ctx context.Context, p *protocol.SemanticTokensDeltaParams) (any, error) {
	u := string(p.TextDocument.URI)
	snap, err := s.snapshot(u)
	if err != nil {
		return nil, err
	}
	data := encodeTokens(snap.lines, snap.tokens())
	s.mu.Lock()
	var prevID string
	var prev []uint32
	if d := s.docs[u]; d != nil {
		prevID, prev = d.tokensID, d.tokens
	}
	s.mu.Unlock()
	id := s.rememberTokens(u, data)
	if prevID == "" || prevID != p.PreviousResultID {
		return &protocol.SemanticTokens{ResultID: &id, Data: data}, ctx.Err()
	}
	return &protocol.SemanticTokensDelta{ResultID: &id, Edits: tokenEdits(prev, data)}, ctx.Err()
}

// rememberTokens stores data as the document's latest tokens and returns
// their result id.
func (s *Server) rememberTokens(u string, data []uint32) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokenSeq++
	id := strconv.FormatUint(s.tokenSeq, 10)
	if d := s.docs[u]; d != nil {
		d.tokensID, d.tokens = id, data
	}
	return id
}

// tokenEdits returns the edits turning old into cur: none when equal,
// else one replacing the middle between the common prefix and suffix.
func tokenEdits(old, cur []uint32) []protocol.SemanticTokensEdit {
	pre := 0
	for pre < len(old) && pre < len(cur) && old[pre] == cur[pre] {
		pre++
	}
	if pre == len(old) && pre == len(cur) {
		return []protocol.SemanticTokensEdit{}
	}
	suf := 0
	for suf < len(old)-pre && suf < len(cur)-pre && old[len(old)-1-suf] == cur[len(cur)-1-suf] {
		suf++
	}
	return []protocol.SemanticTokensEdit{{
		Start: uint32(pre), DeleteCount: uint32(len(old) - pre - suf),
		Data: append([]uint32{}, cur[pre:len(cur)-suf]...),
	}}
}

// inlayHint answers textDocument/inlayHint: the type of each $set value
// and, after a target's header, the targets it runs after (its
// dependencies resolved transitively, in run order).
func (s *Server) inlayHint(_ context.Context, p *protocol.InlayHintParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	from, to := byteOffset(snap.lines, p.Range.Start), byteOffset(snap.lines, p.Range.End)
	in := func(r ast.Range) bool { return r.From.Offset() <= to && r.To.Offset() >= from }
	out := []protocol.InlayHint{}
	yes := true
	typer := snap.typer()
	for _, b := range snap.Info.Binds {
		if b.Kind != check.BindOp && b.Kind != check.BindIter || b.Ident == nil || !in(b.Ident.Range) {
			continue
		}
		if ty := typer.Binding(b); ty != nil {
			out = append(out, protocol.InlayHint{Position: lspPosition(snap.lines, b.Ident.Span().To.Offset()),
				Label: protocol.String(": " + ty.String()), Kind: protocol.InlayHintKindType})
		}
	}
	ast.Inspect(snap.File, func(n ast.Node) bool {
		st, ok := n.(*ast.SetStmt)
		if !ok || st.Name == nil || st.Value == nil || !in(st.Range) {
			return true
		}
		if typ := literalType(st.Value); typ != "" {
			out = append(out, protocol.InlayHint{Position: lspPosition(snap.lines, st.Name.Span().To.Offset()),
				Label: protocol.String(": " + typ), Kind: protocol.InlayHintKindType, PaddingLeft: nil})
		}
		return true
	})
	deps := targetDeps(snap.File)
	for _, t := range snap.File.Targets {
		if t.Name == nil || !in(t.Range) || len(deps[t.Name.Name]) == 0 {
			continue
		}
		line := snap.lines.Position(t.Name.Span().From).Line
		out = append(out, protocol.InlayHint{Position: lspPosition(snap.lines, snap.lines.LineEnd(line)),
			Label: protocol.String(depsLabel(deps[t.Name.Name])), Kind: protocol.InlayHintKindParameter, PaddingLeft: &yes})
	}
	return out, nil
}

// literalType names the type of a literal $set value ("" when only the
// run knows it).
func literalType(e ast.Expr) string {
	switch v := e.(type) {
	case *ast.StringLit:
		if _, plain := v.Value.LitValue(); !plain {
			return "string (template)"
		}
		return "string"
	case *ast.NumberLit:
		return "number"
	case *ast.BoolLit:
		return "bool"
	case *ast.NullLit:
		return "null"
	case *ast.ListLit:
		return fmt.Sprintf("list[%d]", len(v.Elems))
	case *ast.ObjectLit:
		return "object"
	}
	return ""
}

// targetDeps resolves each target's dependencies transitively, in the
// order they run (a dependency before what needs it); cycles stop.
func targetDeps(f *ast.File) map[string][]string {
	needs := map[string][]string{}
	for _, t := range f.Targets {
		if t.Name == nil {
			continue
		}
		for _, n := range t.Needs {
			needs[t.Name.Name] = append(needs[t.Name.Name], n.Name)
		}
		for _, ns := range t.NeedsInBody {
			for _, n := range ns.Names {
				needs[t.Name.Name] = append(needs[t.Name.Name], n.Name)
			}
		}
	}
	out := map[string][]string{}
	for name := range needs {
		seen := map[string]bool{name: true}
		var order []string
		var visit func(string)
		visit = func(n string) {
			for _, d := range needs[n] {
				if !seen[d] {
					seen[d] = true
					visit(d)
					order = append(order, d)
				}
			}
		}
		visit(name)
		out[name] = order
	}
	return out
}

// depsLabel renders resolved dependencies, the nearest last.
func depsLabel(deps []string) string {
	const show = 4
	if len(deps) <= show {
		return "after " + strings.Join(deps, " → ")
	}
	return fmt.Sprintf("after %d targets: %s → … → %s", len(deps), deps[0], strings.Join(deps[len(deps)-2:], " → "))
}

// codeLens answers textDocument/codeLens: "Run" and "Test" on the skill's
// first line, with the document URI as the argument.
func (s *Server) codeLens(_ context.Context, p *protocol.CodeLensParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	out := []protocol.CodeLens{}
	if isSkillMD(snap.uri) || len(snap.File.Targets) == 0 {
		return out, nil
	}
	r := protocol.Range{}
	if h := snap.File.Header(ast.HeaderSkill); h != nil {
		r = lspRange(snap.lines, h.Range)
	}
	arg, _ := json.Marshal(snap.uri)
	args := []protocol.LSPAny{arg}
	for _, c := range []struct{ title, cmd string }{{"▶ Run", CommandRun}, {"Test", CommandTest}} {
		out = append(out, protocol.CodeLens{Range: r, Command: protocol.Command{Title: c.title, Command: c.cmd, Arguments: args}})
	}
	return out, nil
}
