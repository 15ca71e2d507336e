package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/internal/leaf/shellwords"
)

// codeAction answers textDocument/codeAction: the fixes of the diagnostics
// in range, plus the refactorings offered on the ops in range.
func (s *Server) codeAction(_ context.Context, p *protocol.CodeActionParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	rng := astRange(snap.lines, p.Range)
	out := []protocol.CodeAction{}
	out = append(out, s.fixActions(snap, rng)...)
	out = append(out, snap.declareVarActions(rng)...)
	for _, op := range snap.Info.Ops {
		if overlaps(op.Stmt.Span(), rng) {
			out = append(out, snap.opActions(op.Stmt)...)
		}
	}
	return out, nil
}

// overlaps reports whether a and b share a position (touching counts).
func overlaps(a, b ast.Range) bool { return a.From <= b.To && b.From <= a.To }

// action builds a quick fix editing the snapshot's document.
func (snap *snapshot) action(title string, edits []ast.TextEdit, diags []protocol.Diagnostic) protocol.CodeAction {
	kind := protocol.CodeActionKindQuickFix
	var tes []protocol.TextEdit
	for _, e := range edits {
		tes = append(tes, protocol.TextEdit{Range: lspRange(snap.lines, e.Range), NewText: e.NewText})
	}
	return protocol.CodeAction{Title: title, Kind: &kind, Diagnostics: diags,
		Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{uri.URI(snap.uri): tes}}}
}

// fixActions turns the fixes of the diagnostics overlapping rng into actions.
func (s *Server) fixActions(snap *snapshot, rng ast.Range) []protocol.CodeAction {
	var out []protocol.CodeAction
	for _, d := range snap.Diags {
		if len(d.Fixes) == 0 || !overlaps(d.Range, rng) {
			continue
		}
		pd := []protocol.Diagnostic{s.lspDiagnostic(snap, d)}
		for i, f := range d.Fixes {
			a := snap.action(f.Title, f.Edits, pd)
			if i == 0 {
				t := true
				a.IsPreferred = &t
			}
			out = append(out, a)
		}
	}
	return out
}

// opActions offers the refactorings of one op.
func (snap *snapshot) opActions(st ast.Stmt) []protocol.CodeAction {
	var out []protocol.CodeAction
	var bind *ast.Binding
	var fb *ast.Fallback
	switch v := st.(type) {
	case *ast.DispatchStmt:
		bind, fb = v.Bind, v.Fallback
	case *ast.CallStmt:
		if v.Name != nil && (v.Name.Name == "shell" || v.Name.Name == "execute_skill") {
			bind, fb = v.Bind, v.Fallback
		}
		if a, ok := snap.argvAction(v); ok {
			out = append(out, a)
		}
	}
	if bind != nil && fb == nil {
		edit := ast.TextEdit{Range: ast.Range{From: bind.To, To: bind.To}, NewText: ` (fallback: "")`}
		out = append(out, snap.action("Add (fallback: ...)", []ast.TextEdit{edit}, nil))
	}
	return out
}

// argvAction converts shell(command="...") to shell(argv=[...]).
func (snap *snapshot) argvAction(c *ast.CallStmt) (protocol.CodeAction, bool) {
	if c.Name == nil || c.Name.Name != "shell" || c.Arg("unsafe") != nil || c.Arg("argv") != nil {
		return protocol.CodeAction{}, false
	}
	arg := c.Arg("command")
	if arg == nil || arg.Value == nil {
		return protocol.CodeAction{}, false
	}
	str, ok := arg.Value.(*ast.StringLit)
	if !ok || str.Kind == ast.TripleQuoted {
		return protocol.CodeAction{}, false
	}
	toks, err := shellwords.Tokenize(str.Value.Plain())
	if err != nil || len(toks) == 0 {
		return protocol.CodeAction{}, false
	}
	var substs []ast.Node
	for _, part := range str.Value.Parts {
		if _, lit := part.(*ast.Lit); !lit {
			substs = append(substs, part)
		}
	}
	elems := make([]string, len(toks))
	for i, t := range toks {
		t = restoreSubsts(t, &substs, snap)
		b, _ := json.Marshal(t)
		elems[i] = string(b)
	}
	edit := ast.TextEdit{Range: arg.Range, NewText: "argv=[" + strings.Join(elems, ", ") + "]"}
	return snap.action("Convert shell(command=) to argv=[...]", []ast.TextEdit{edit}, nil), true
}

// restoreSubsts puts the source form of substitutions and secret markers
// back into a token of Text.Plain, where each one stands as a NUL byte.
func restoreSubsts(tok string, substs *[]ast.Node, snap *snapshot) string {
	var b strings.Builder
	for _, r := range tok {
		if r == 0 && len(*substs) > 0 {
			b.WriteString(snap.text((*substs)[0].Span()))
			*substs = (*substs)[1:]
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// declareVarActions offers to declare undeclared references in # Vars:.
func (snap *snapshot) declareVarActions(rng ast.Range) []protocol.CodeAction {
	var out []protocol.CodeAction
	seen := map[string]bool{}
	for _, r := range snap.Info.Refs {
		name := r.Name()
		if name == "" || r.Declared() || check.IsAmbient(name) || seen[name] || !overlaps(r.Subst.Range, rng) {
			continue
		}
		seen[name] = true
		out = append(out, snap.action(fmt.Sprintf("Declare %s in # Vars:", name), []ast.TextEdit{snap.declareEdit(name)}, nil))
	}
	return out
}

// declareEdit adds name to the # Vars: header, creating it when missing.
func (snap *snapshot) declareEdit(name string) ast.TextEdit {
	if h := snap.File.Header(ast.HeaderVars); h != nil {
		end := h.ValueRng.To
		if !h.ValueRng.IsValid() || strings.TrimSpace(h.Value) == "" {
			return ast.TextEdit{Range: ast.Range{From: h.To, To: h.To}, NewText: " " + name}
		}
		return ast.TextEdit{Range: ast.Range{From: end, To: end}, NewText: ", " + name}
	}
	at := 0
	if n := len(snap.File.Headers); n > 0 {
		last := snap.File.Headers[n-1]
		at = snap.lines.LineStart(snap.line(last.To-1) + 1)
		if at > len(snap.src) || at <= last.From.Offset() {
			at = last.To.Offset()
			return ast.TextEdit{Range: ast.RangeOf(at, at), NewText: "\n# Vars: " + name}
		}
	}
	return ast.TextEdit{Range: ast.RangeOf(at, at), NewText: "# Vars: " + name + "\n"}
}
