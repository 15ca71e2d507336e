package lsp

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/check/types"
	"github.com/skillscript/skillc/internal/classification"
	"github.com/skillscript/skillc/internal/leaf/lang"
	"github.com/skillscript/skillc/lint"
)

// Completion contexts recognised from the text before the cursor.
var (
	reHeaderKey   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#\s*([A-Za-z-]*)$`) })
	reHeaderValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#\s*([A-Za-z-]+):\s*(.*)$`) })
	reNeeds       = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(needs|default):\s*(.*)$`) })
	reTargetHead  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][\w-]*:\s+(.*)$`) })
	reDispatch    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\$\s+([A-Za-z_]\w*)?$`) })
	reTool        = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\$\s+([A-Za-z_]\w*)\.(\w*)$`) })
	reDispatchArg = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\$\s+([A-Za-z_]\w*)(?:\.(\w+))?\s.*?(\w*)$`) })
	reCallArg     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([A-Za-z_]\w*)\(([^()]*)$`) })
	reSkillValue  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(execute_skill|inline)\(.*\b(name|skill_name|skill)\s*=\s*"([\w.-]*)$`)
	})
	reBodyStart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s+([\w$]*)$`) })
	reWordEnd   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[\w-]*$`) })
)

// completion answers textDocument/completion.
func (s *Server) completion(_ context.Context, p *protocol.CompletionParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	off := byteOffset(snap.lines, p.Position)
	var items []protocol.CompletionItem
	if isSkillMD(snap.uri) {
		items = snap.skillMDCompletion(off)
	} else {
		items = snap.complete(off)
	}
	if items == nil {
		items = []protocol.CompletionItem{}
	}
	// While the tool lists warm up, a completion that depends on tools
	// not known yet is incomplete: the client asks again as the user
	// types instead of keeping an empty list.
	incomplete := s.warming.Load() && !isSkillMD(snap.uri) && snap.awaitsTools(off)
	return &protocol.CompletionList{IsIncomplete: incomplete, Items: items}, nil
}

// awaitsTools reports whether the completion at off lists the tools of a
// connector (or a tool's arguments) whose tools are not known yet.
func (snap *snapshot) awaitsTools(off int) bool {
	line := snap.lines.Position(ast.PosOf(off)).Line
	prefix := string(snap.src[snap.lines.LineStart(line):off])
	conn := ""
	if m := reTool().FindStringSubmatch(prefix); m != nil {
		conn = m[1]
	} else if m := reDispatchArg().FindStringSubmatch(prefix); m != nil && m[2] != "" {
		conn = m[1]
	}
	if conn == "" || snap.env.Connectors.Connector(conn) == nil {
		return false
	}
	_, known := snap.env.Tools(conn)
	return !known
}

// complete computes the completion items at off.
func (snap *snapshot) complete(off int) []protocol.CompletionItem {
	line := snap.lines.Position(ast.PosOf(off)).Line
	prefix := string(snap.src[snap.lines.LineStart(line):off])
	if items, ok := snap.completeInSubst(prefix, off); ok {
		return items
	}
	if i := strings.LastIndex(prefix, "{{secret."); i >= 0 && !strings.Contains(prefix[i:], "}}") {
		return snap.secretItems()
	}
	if m := reHeaderValue().FindStringSubmatch(prefix); m != nil {
		return headerValueItems(m[1], m[2])
	}
	if reHeaderKey().MatchString(prefix) {
		return headerKeyItems()
	}
	if m := reNeeds().FindStringSubmatch(prefix); m != nil {
		return snap.targetItems(strings.Contains(m[2], ","))
	}
	if m := reTargetHead().FindStringSubmatch(prefix); m != nil && !strings.HasPrefix(prefix, "default:") {
		return snap.targetItems(true)
	}
	if m := reTool().FindStringSubmatch(prefix); m != nil {
		return snap.toolItems(m[1])
	}
	if reDispatch().MatchString(prefix) {
		return snap.dispatchItems()
	}
	if m := reSkillValue().FindStringSubmatch(prefix); m != nil {
		return snap.skillItems()
	}
	if !insideString(prefix) {
		if m := reCallArg().FindStringSubmatch(prefix); m != nil {
			return snap.callArgItems(m[1], m[2])
		}
		if m := reDispatchArg().FindStringSubmatch(prefix); m != nil && !strings.HasSuffix(strings.TrimRight(prefix, " "), "->") {
			return snap.dispatchArgItems(m[1], m[2], prefix)
		}
	}
	if reBodyStart().MatchString(prefix) {
		return opItems()
	}
	if prefix == "" || reWordEnd().FindString(prefix) == prefix {
		return append(headerKeyItems(), protocol.CompletionItem{Label: "default:", Kind: protocol.CompletionItemKindKeyword,
			InsertText: protocol.NewOptional("default: ")})
	}
	return nil
}

// insideString reports whether prefix ends inside a double-quoted string.
func insideString(prefix string) bool {
	in := false
	for i := 0; i < len(prefix); i++ {
		switch prefix[i] {
		case '\\':
			i++
		case '"':
			in = !in
		}
	}
	return in
}

// completeInSubst handles the inside of an unclosed ${...}.
func (snap *snapshot) completeInSubst(prefix string, off int) ([]protocol.CompletionItem, bool) {
	i := strings.LastIndex(prefix, "${")
	if i < 0 || strings.Contains(prefix[i:], "}") {
		return nil, false
	}
	inside := prefix[i+2:]
	if j := strings.LastIndex(inside, "|"); j >= 0 {
		return filterItems(), true
	}
	if strings.Contains(inside, ".") {
		return snap.fieldItems(inside, off), true
	}
	return snap.varItems(off), true
}

// varItems lists the variables visible at off, the ambient references and
// the targets (for ${target.output}).
func (snap *snapshot) varItems(off int) []protocol.CompletionItem {
	scope := snap.scopeAt(off)
	var items []protocol.CompletionItem
	for _, name := range sortedNames(scope.Names()) {
		bs := scope.Lookup(name)
		detail := ""
		if len(bs) > 0 {
			detail = bs[0].Kind.String()
		}
		items = append(items, protocol.CompletionItem{Label: name, Kind: protocol.CompletionItemKindVariable,
			Detail: protocol.NewOptional(detail)})
	}
	ambient := check.Ambient()
	if scope.InElse() {
		ambient = append(ambient, "ERROR_CONTEXT")
	}
	for _, a := range ambient {
		items = append(items, protocol.CompletionItem{Label: a, Kind: protocol.CompletionItemKindConstant,
			Detail: protocol.NewOptional("ambient"), Documentation: protocol.String(lang.AmbientDoc(a))})
	}
	for _, name := range snap.targetNames() {
		items = append(items, protocol.CompletionItem{Label: name + ".output", Kind: protocol.CompletionItemKindReference,
			Detail: protocol.NewOptional("target output")})
	}
	return items
}

// scopeAt returns the innermost scope at off.
func (snap *snapshot) scopeAt(off int) *check.Scope {
	path := pathAt(snap.File, off)
	for i := len(path) - 1; i >= 0; i-- {
		if st, ok := path[i].(ast.Stmt); ok {
			if op := snap.Info.OpOf(st); op != nil && op.Scope != nil {
				if fe, ok := st.(*ast.ForeachStmt); ok {
					if sc := snap.loopScope(fe); sc != nil {
						return sc
					}
				}
				return op.Scope
			}
		}
	}
	return snap.Info.Root
}

// loopScope returns the scope of a foreach body.
func (snap *snapshot) loopScope(fe *ast.ForeachStmt) *check.Scope {
	for _, b := range snap.Info.Binds {
		if b.Node == fe && b.Kind == check.BindIter {
			return b.Scope
		}
	}
	return nil
}

// sortedNames sorts a copy of names.
func sortedNames(names []string) []string {
	out := append([]string(nil), names...)
	sort.Strings(out)
	return out
}

// filterItems lists the shipped filters.
func filterItems() []protocol.CompletionItem {
	var items []protocol.CompletionItem
	for _, d := range lang.FilterDocs() {
		it := protocol.CompletionItem{Label: d.Name, Kind: protocol.CompletionItemKindFunction,
			Detail: protocol.NewOptional(d.Summary), Documentation: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: filterHover(d.Name)}}
		if d.TakesArg {
			it.InsertText = protocol.NewOptional(d.Name + `:"${1}"`)
			it.InsertTextFormat = protocol.InsertTextFormatSnippet
		}
		items = append(items, it)
	}
	return items
}

// secretItems lists the secrets declared in # Requires:.
func (snap *snapshot) secretItems() []protocol.CompletionItem {
	var items []protocol.CompletionItem
	for _, name := range sortedKeys(snap.Info.Secrets) {
		items = append(items, protocol.CompletionItem{Label: name, Kind: protocol.CompletionItemKindConstant,
			Detail: protocol.NewOptional("secret from # Requires:")})
	}
	return items
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// headerKeyItems lists the header keys.
func headerKeyItems() []protocol.CompletionItem {
	var items []protocol.CompletionItem
	for _, h := range lang.Headers() {
		if h.Retired {
			continue
		}
		key := h.Kind.String()
		items = append(items, protocol.CompletionItem{Label: "# " + key + ":", Kind: protocol.CompletionItemKindProperty,
			FilterText: protocol.NewOptional("# " + key), InsertText: protocol.NewOptional("# " + key + ": "),
			Detail: protocol.NewOptional(h.Summary)})
	}
	return items
}

// headerValueItems lists the enumerated values of a header.
func headerValueItems(key, value string) []protocol.CompletionItem {
	kind, _ := ast.LookupHeader(key)
	h, ok := lang.Header(kind)
	if !ok {
		return []protocol.CompletionItem{}
	}
	if kind == ast.HeaderClassification {
		return classificationItems(value)
	}
	if kind == ast.HeaderRequires && strings.Contains(value, ":") || kind == ast.HeaderOutput && strings.Contains(value, ":") {
		return []protocol.CompletionItem{}
	}
	var items []protocol.CompletionItem
	for _, v := range h.Values {
		items = append(items, protocol.CompletionItem{Label: v, Kind: protocol.CompletionItemKindEnumMember,
			Detail: protocol.NewOptional("# " + h.Kind.String() + ":")})
	}
	return items
}

// classificationItems completes a # Classification: value: the keys not
// written yet, or after "key=" (and after a comma of attach_targets) the
// allowed values of that key.
func classificationItems(value string) []protocol.CompletionItem {
	items := []protocol.CompletionItem{}
	fields := strings.Fields(value)
	last := ""
	if len(fields) > 0 && !strings.HasSuffix(value, " ") && !strings.HasSuffix(value, "\t") {
		last = fields[len(fields)-1]
	}
	if key, _, ok := strings.Cut(last, "="); ok {
		for _, v := range classification.Values(strings.ToLower(key)) {
			items = append(items, protocol.CompletionItem{Label: v, Kind: protocol.CompletionItemKindEnumMember,
				Detail: protocol.NewOptional("classification " + key)})
		}
		return items
	}
	have := map[string]bool{}
	for _, f := range fields {
		if k, _, ok := strings.Cut(f, "="); ok {
			have[strings.ToLower(k)] = true
		}
	}
	for _, k := range classification.Keys() {
		if !have[k] {
			items = append(items, protocol.CompletionItem{Label: k + "=", Kind: protocol.CompletionItemKindProperty,
				Detail: protocol.NewOptional(strings.Join(classification.Values(k), " | "))})
		}
	}
	return items
}

// targetNames lists the target names in source order.
func (snap *snapshot) targetNames() []string {
	var out []string
	for _, t := range snap.File.Targets {
		if t.Name != nil && snap.Info.Targets[t.Name.Name] == t {
			out = append(out, t.Name.Name)
		}
	}
	return out
}

// targetItems lists the targets.
func (snap *snapshot) targetItems(_ bool) []protocol.CompletionItem {
	var items []protocol.CompletionItem
	for _, name := range snap.targetNames() {
		items = append(items, protocol.CompletionItem{Label: name, Kind: protocol.CompletionItemKindFunction,
			Detail: protocol.NewOptional("target")})
	}
	return items
}

// dispatchItems lists the connectors and typed-contract ops after "$ ".
func (snap *snapshot) dispatchItems() []protocol.CompletionItem {
	var items []protocol.CompletionItem
	for _, c := range snap.env.Connectors.Connectors {
		items = append(items, protocol.CompletionItem{Label: c.Name, Kind: protocol.CompletionItemKindModule,
			Detail: protocol.NewOptional("connector (" + c.Class + ")")})
	}
	for _, o := range lang.Ops() {
		if o.Class != lang.TypedContract {
			continue
		}
		items = append(items, protocol.CompletionItem{Label: o.Name, Kind: protocol.CompletionItemKindFunction,
			Detail: protocol.NewOptional(signature(o)), InsertText: protocol.NewOptional(snippet(o)),
			InsertTextFormat: protocol.InsertTextFormatSnippet,
			Documentation:    &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: opMarkdown(o)}})
	}
	return items
}

// toolItems lists the tools of a connector.
func (snap *snapshot) toolItems(conn string) []protocol.CompletionItem {
	tools, _ := snap.env.Tools(conn)
	var items []protocol.CompletionItem
	for _, t := range tools {
		items = append(items, protocol.CompletionItem{Label: t.Name, Kind: protocol.CompletionItemKindMethod,
			Detail: protocol.NewOptional(firstLine(t.Description)),
			Documentation: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown,
				Value: toolMarkdown(conn, t.Name, t.Description, t.InputSchema, t.Mutating)}})
	}
	return items
}

// skillItems lists the workspace's skills.
func (snap *snapshot) skillItems() []protocol.CompletionItem {
	var items []protocol.CompletionItem
	for _, name := range sortedKeys(snap.env.Skills) {
		items = append(items, protocol.CompletionItem{Label: name, Kind: protocol.CompletionItemKindFile,
			Detail: protocol.NewOptional(snap.env.Skills[name])})
	}
	return items
}

// callArgItems lists the kwargs of a function-call op not yet given.
func (snap *snapshot) callArgItems(op, args string) []protocol.CompletionItem {
	o, ok := lang.Op(op)
	if !ok || o.Class != lang.Intrinsic {
		return []protocol.CompletionItem{}
	}
	return paramItems(o.Params, usedKeys(args))
}

// dispatchArgItems lists the kwargs of a typed-contract op or of a tool
// from its input schema.
func (snap *snapshot) dispatchArgItems(first, tool, prefix string) []protocol.CompletionItem {
	used := usedKeys(prefix)
	if tool == "" {
		if o, ok := lang.Op(first); ok && o.Class == lang.TypedContract {
			return paramItems(o.Params, used)
		}
		return []protocol.CompletionItem{}
	}
	tools, _ := snap.env.Tools(first)
	var params []lang.Param
	for _, t := range tools {
		if t.Name != tool {
			continue
		}
		for _, p := range schemaProps(t.InputSchema) {
			params = append(params, lang.Param{Name: p.Name, Doc: p.Doc, Required: p.Required, Example: `"${1}"`})
		}
	}
	return paramItems(append(params, lang.Universal()...), used)
}

// reKey finds kwarg keys already written.
var reKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([A-Za-z_]\w*)\s*=`) })

// usedKeys returns the kwarg keys present in s.
func usedKeys(s string) map[string]bool {
	used := map[string]bool{}
	for _, m := range reKey().FindAllStringSubmatch(s, -1) {
		used[m[1]] = true
	}
	return used
}

// paramItems turns params into completion items, skipping used ones.
func paramItems(params []lang.Param, used map[string]bool) []protocol.CompletionItem {
	items := []protocol.CompletionItem{}
	for i, p := range params {
		if used[p.Name] {
			continue
		}
		detail := "optional"
		if p.Required {
			detail = "required"
		}
		items = append(items, protocol.CompletionItem{Label: p.Name, Kind: protocol.CompletionItemKindField,
			Detail: protocol.NewOptional(detail), Documentation: protocol.String(p.Doc),
			InsertText: protocol.NewOptional(p.Name + "=" + renumber(p.Example, 1)), InsertTextFormat: protocol.InsertTextFormatSnippet,
			SortText: protocol.NewOptional(sortKey(p.Required, i))})
	}
	return items
}

// sortKey orders required parameters first, then declaration order.
func sortKey(required bool, i int) string {
	k := "b"
	if required {
		k = "a"
	}
	return k + string(rune('a'+i%26))
}

// opItems lists the ops and statement keywords for the start of a body line.
func opItems() []protocol.CompletionItem {
	var items []protocol.CompletionItem
	for _, o := range lang.Ops() {
		label, insert := o.Name, snippet(o)
		if o.Class == lang.TypedContract {
			label, insert = "$ "+o.Name, "\\$ "+snippet(o)
		}
		items = append(items, protocol.CompletionItem{Label: label, Kind: protocol.CompletionItemKindFunction,
			Detail: protocol.NewOptional(signature(o)), InsertText: protocol.NewOptional(insert),
			InsertTextFormat: protocol.InsertTextFormatSnippet, FilterText: protocol.NewOptional(o.Name),
			Documentation: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: opMarkdown(o)}})
	}
	for _, k := range lang.Statements() {
		items = append(items, protocol.CompletionItem{Label: k.Label, Kind: protocol.CompletionItemKindKeyword,
			InsertText: protocol.NewOptional(k.Snippet), InsertTextFormat: protocol.InsertTextFormatSnippet,
			Documentation: protocol.String(k.Doc)})
	}
	return items
}

// fieldItems lists the fields of the value that "ROOT.a.b." (inside, up
// to the cursor) selects, when its type is known from a tool's
// outputSchema; an array offers its first index. Unknown types offer
// nothing.
func (snap *snapshot) fieldItems(inside string, off int) []protocol.CompletionItem {
	items := []protocol.CompletionItem{}
	parts := strings.Split(inside, ".")
	ty := snap.typer().Bindings(snap.scopeAt(off).Lookup(parts[0]))
	for _, seg := range parts[1 : len(parts)-1] {
		ty = lint.Step(ty, &ast.PathSeg{Name: seg, Index: seg != "" && strings.Trim(seg, "0123456789") == ""})
	}
	if ty == nil {
		return items
	}
	switch ty.Kind {
	case types.Object:
		for _, p := range ty.Props {
			detail := p.Type.String()
			if p.Required {
				detail += " (required)"
			}
			it := protocol.CompletionItem{Label: p.Name, Kind: protocol.CompletionItemKindField, Detail: protocol.NewOptional(detail)}
			if p.Type != nil && p.Type.Description != "" {
				it.Documentation = protocol.String(p.Type.Description)
			}
			items = append(items, it)
		}
	case types.Array:
		items = append(items, protocol.CompletionItem{Label: "0", Kind: protocol.CompletionItemKindField,
			Detail: protocol.NewOptional("first item: " + ty.Items.String())})
	}
	return items
}
