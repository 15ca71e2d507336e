package syntax

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/skillscript/skillc/internal/leaf/textdist"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/robfig/cron/v3"
	"github.com/skillscript/skillc/ast"
)

// hashLine handles a column-0 line starting with '#': a header (with, for
// # Tests:, its indented YAML block) or a comment.
func (p *parser) hashLine(i int) int {
	ls, le := p.lineStart(i), p.lineEnd(i)
	line := p.src[ls:le]
	ks, ke, end, ok := headerMatch(line)
	if !ok {
		p.comment(ls, le, false)
		return i + 1
	}
	m := [4]int{0, end, ks, ke}
	key := p.text[ls+m[2] : ls+m[3]] // a slice of the source, as every name
	kind, exact := ast.LookupHeader(key)
	if kind == ast.HeaderUnknown {
		p.unknownHeader(ls, le, key, ls+m[2], ls+m[3])
		return i + 1
	}
	p.closeTemplate()
	p.lastTarget = nil
	h := &ast.Header{Range: ast.RangeOf(ls, le), Kind: kind, Key: p.newIdent(ast.RangeOf(ls+m[2], ls+m[3]), key)}
	if !exact {
		p.warnf("header-case", h.Key.Range, "header key %q is spelled %q", key, kind.String()).
			WithFix(fmt.Sprintf("rename to %s", kind), h.Key.Range, kind.String())
	}
	vs := skipBlanks(p.src, ls+m[1], le)
	ve := le
	if kind != ast.HeaderDescription && kind != ast.HeaderTests {
		// DECISIONS 4: a trailing " # ..." outside quotes is a comment.
		ve = stripTrailingComment(p.src, vs, le)
		p.trailingComment(ve, le)
	}
	for ve > vs && (p.src[ve-1] == ' ' || p.src[ve-1] == '\t' || p.src[ve-1] == '\r') {
		ve--
	}
	h.ValueRng = ast.RangeOf(vs, ve)
	h.Value = p.text[vs:ve]
	p.file.Headers = append(p.file.Headers, h)
	if kind == ast.HeaderTests {
		return p.testsBlock(h, i)
	}
	p.headerValue(h, vs, ve)
	return i + 1
}

// unknownHeader keeps a "# Word:" line as a comment, and reports it when it
// is close to a known header.
func (p *parser) unknownHeader(ls, le int, key string, ks, ke int) {
	p.comment(ls, le, false)
	best, dist := "", 3
	for _, k := range ast.HeaderKinds() {
		if d := textdist.Distance(strings.ToLower(key), strings.ToLower(k.String())); d < dist {
			best, dist = k.String(), d
		}
	}
	if best != "" && len(key) > 3 {
		p.report(ast.Infof("unknown-header", ast.RangeOf(ks, ke), "%q is not a header, so this line is a comment; did you mean %q?", key, best)).
			WithFix("rename to "+best, ast.RangeOf(ks, ke), best)
	}
}

func (p *parser) headerValue(h *ast.Header, vs, ve int) {
	switch h.Kind {
	case ast.HeaderSkill, ast.HeaderType, ast.HeaderEventType, ast.HeaderDeliveryContext:
		p.singleName(h, vs, ve)
	case ast.HeaderStatus:
		p.status(h, vs, ve)
	case ast.HeaderVars:
		p.vars(h, vs, ve)
	case ast.HeaderReturns, ast.HeaderTemplates, ast.HeaderTags:
		p.nameList(h, vs, ve)
	case ast.HeaderRequires:
		p.requires(h, vs, ve)
	case ast.HeaderTriggers:
		p.triggers(h, vs, ve)
	case ast.HeaderOutput:
		p.outputs(h, vs, ve)
	case ast.HeaderAutonomous:
		p.autonomous(h, vs, ve)
	case ast.HeaderTimeout, ast.HeaderDeadline:
		p.duration(h, vs, ve)
	case ast.HeaderClassification:
		p.classification(h, vs, ve)
	case ast.HeaderOnError:
		p.errorf("parse-error", h.Range, "# OnError: was removed: handle failures with a target-level \"else:\" block or an op-level (fallback: value)")
	}
	if h.Kind == ast.HeaderDeliveryContext {
		p.warnf("legacy-frontmatter-header", h.Key.Range, "# Delivery-context: was renamed # Event-type:").
			WithFix("rename to Event-type", h.Key.Range, "Event-type")
	}
}

func (p *parser) singleName(h *ast.Header, vs, ve int) {
	if vs == ve {
		if h.Kind == ast.HeaderSkill || h.Kind == ast.HeaderType {
			p.errorf("parse-error", h.Range, "# %s: needs a value", h.Kind)
		}
		return
	}
	name := p.text[vs:ve]
	h.Names = []*ast.Ident{{Range: ast.RangeOf(vs, ve), Name: name}}
	switch h.Kind {
	case ast.HeaderSkill:
		if strings.ContainsAny(name, " \t\"'${}()") {
			p.errorf("parse-error", h.ValueRng, "skill name %q may contain only letters, digits, '-', '_' and '.'", name)
		}
	case ast.HeaderType:
		canon := strings.ToLower(name)
		if canon != "procedural" && canon != "data" {
			p.errorf("parse-error", h.ValueRng, "# Type: is procedural or data, not %q", name)
		}
		h.Names[0].Name = canon
	}
}

func (p *parser) status(h *ast.Header, vs, ve int) {
	f := strings.Fields(p.text[vs:ve])
	sv := &ast.StatusValue{Range: ast.RangeOf(vs, ve), Raw: p.text[vs:ve]}
	h.Status = sv
	if len(f) == 0 {
		p.errorf("parse-error", h.Range, "# Status: needs Draft, Approved or Disabled")
		return
	}
	for _, s := range []string{"Draft", "Approved", "Disabled"} {
		if strings.EqualFold(f[0], s) {
			sv.State = s
		}
	}
	wordEnd := vs + len(f[0])
	if sv.State == "" {
		p.errorf("parse-error", ast.RangeOf(vs, wordEnd), "unknown status %q: use Draft, Approved or Disabled", f[0])
		return
	}
	if len(f) > 1 {
		ts := skipBlanks(p.src, wordEnd, ve)
		sv.Token = p.text[ts:ve]
		sv.TokenRng = ast.RangeOf(ts, ve)
		if sv.State != "Approved" {
			p.errorf("parse-error", sv.TokenRng, "only Approved takes an approval token")
		}
	}
}

// splitTop splits src[from:to] at sep outside quotes and brackets. It
// returns [start,end) pairs, trimmed of blanks.
func splitTop(src []byte, from, to int, sep byte) [][2]int {
	var out [][2]int
	depth := 0
	var q byte
	start := from
	push := func(a, b int) {
		a = skipBlanks(src, a, b)
		for b > a && (src[b-1] == ' ' || src[b-1] == '\t') {
			b--
		}
		out = append(out, [2]int{a, b})
	}
	for i := from; i < to; i++ {
		c := src[i]
		switch {
		case q != 0:
			if c == '\\' {
				i++
			} else if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '[' || c == '{' || c == '(':
			depth++
		case c == ']' || c == '}' || c == ')':
			depth--
		case c == sep && depth <= 0:
			push(start, i)
			start = i + 1
		}
	}
	push(start, to)
	return out
}

func (p *parser) vars(h *ast.Header, vs, ve int) {
	if vs == ve || p.noEntries(vs, ve) {
		return
	}
	for _, seg := range splitTop(p.src, vs, ve, ',') {
		a, b := seg[0], seg[1]
		if a == b {
			p.errorf("parse-error", ast.RangeOf(a, min(a+1, ve)), "empty declaration in # Vars: (stray comma?)")
			continue
		}
		p.varDecl(h, a, b)
	}
}

func (p *parser) varDecl(h *ast.Header, a, b int) {
	text := p.text[a:b]
	eq := strings.IndexByte(text, '=')
	nameText := text
	if eq >= 0 {
		nameText = text[:eq]
	}
	nameEnd := a + len(strings.TrimRight(nameText, " \t"))
	d := &ast.VarDecl{Range: ast.RangeOf(a, b), Name: p.newIdent(ast.RangeOf(a, nameEnd), p.text[a:nameEnd])}
	h.Vars = append(h.Vars, d)
	if strings.ContainsAny(d.Name.Name, " \t") && !allIdents(strings.Fields(d.Name.Name)) {
		p.errorf("parse-error", d.Name.Range, "%q is not a valid variable name", d.Name.Name)
		return
	}
	if strings.ContainsAny(d.Name.Name, " \t") {
		if eq >= 0 {
			p.warnf("vars-space-separated", d.Name.Range, "declarations in # Vars: are separated by commas: %q looks like several", text)
		} else {
			p.warnf("space-separated-vars", d.Name.Range, "variable names cannot contain spaces: separate declarations with commas (%s)", strings.Join(strings.Fields(d.Name.Name), ", ")).
				WithFix("separate with commas", d.Name.Range, strings.Join(strings.Fields(d.Name.Name), ", "))
		}
		return
	}
	if !isIdent(d.Name.Name) {
		p.errorf("parse-error", d.Name.Range, "%q is not a valid variable name", d.Name.Name)
		return
	}
	if eq < 0 {
		return
	}
	d.Eq = ast.PosOf(a + eq)
	ds := skipBlanks(p.src, a+eq+1, b)
	if rest := p.text[ds:b]; strings.Contains(rest, "=") && !strings.ContainsAny(rest[:1], "\"'[{") {
		if f := strings.Fields(rest); len(f) > 1 {
			p.warnf("vars-space-separated", ast.RangeOf(ds, b), "declarations in # Vars: are separated by commas: %q looks like several", rest)
		}
	}
	d.Default = p.defaultValue(ds, b)
}

// defaultValue parses a # Vars: default: one value, or else the raw text as
// a bare word (FORMAT=plain text stays "plain text").
func (p *parser) defaultValue(from, to int) ast.Expr {
	if from == to {
		return &ast.StringLit{Range: ast.RangeOf(from, to), Kind: ast.DoubleQuoted, Value: &ast.Text{Range: ast.RangeOf(from, to)}}
	}
	mark := p.lexMark()
	defer p.lexRelease(mark)
	toks, _ := p.lex(from, to)
	v, err := p.parseValueToks(toks)
	if err != nil {
		if toks[0].typ == tBadString || toks[0].typ == tString && len(toks) > 2 {
			p.badStmt(from, to, err, "parse-error")
		}
		return p.bareWord(from, to)
	}
	return v
}

func (p *parser) nameList(h *ast.Header, vs, ve int) {
	if vs == ve || p.noEntries(vs, ve) {
		return
	}
	for _, seg := range splitTop(p.src, vs, ve, ',') {
		a, b := seg[0], seg[1]
		if a == b {
			continue
		}
		name := p.text[a:b]
		h.Names = append(h.Names, &ast.Ident{Range: ast.RangeOf(a, b), Name: name})
		if h.Kind == ast.HeaderReturns && !isIdent(name) {
			p.errorf("parse-error", ast.RangeOf(a, b), "%q is not a valid variable name", name)
		}
	}
}

// classification reads "key=value" pairs separated by blanks; a value may
// list comma-separated items (attach_targets=run,output). Keys and values
// are checked by the classification-* lint rules; only the shape is
// checked here.
func (p *parser) classification(h *ast.Header, vs, ve int) {
	if vs == ve {
		p.errorf("parse-error", h.Range, "# Classification: needs key=value pairs: role=..., invocation=..., effect_mode=... and, for attach|both, attach_targets=...")
		return
	}
	for i := vs; i < ve; {
		for i < ve && (p.src[i] == ' ' || p.src[i] == '\t') {
			i++
		}
		j := i
		for j < ve && p.src[j] != ' ' && p.src[j] != '\t' {
			j++
		}
		if i == j {
			break
		}
		p.keyValue(h, i, j)
		i = j
	}
}

// keyValue reads one key=value token of src[a:b].
func (p *parser) keyValue(h *ast.Header, a, b int) {
	tok := string(p.src[a:b])
	eq := strings.IndexByte(tok, '=')
	if eq <= 0 {
		p.errorf("parse-error", ast.RangeOf(a, b), "%q is not key=value (# Classification: role=procedure invocation=direct effect_mode=read_only)", tok)
		return
	}
	kv := &ast.KeyValue{Range: ast.RangeOf(a, b), Key: &ast.Ident{Range: ast.RangeOf(a, a+eq), Name: tok[:eq]}}
	vs := a + eq + 1
	kv.Value, kv.ValueRng = tok[eq+1:], ast.RangeOf(vs, b)
	if vs == b {
		p.errorf("parse-error", ast.RangeOf(a, b), "%s= has no value", tok[:eq])
		return
	}
	for _, seg := range splitTop(p.src, vs, b, ',') {
		if seg[0] == seg[1] {
			p.errorf("parse-error", ast.RangeOf(vs, b), "empty item in %q", tok)
			continue
		}
		kv.Items = append(kv.Items, &ast.Ident{Range: ast.RangeOf(seg[0], seg[1]), Name: string(p.src[seg[0]:seg[1]])})
	}
	h.Pairs = append(h.Pairs, kv)
}

func (p *parser) requires(h *ast.Header, vs, ve int) {
	if vs == ve {
		p.errorf("parse-error", h.Range, "# Requires: needs a declaration")
		return
	}
	if p.noEntries(vs, ve) {
		return
	}
	for _, seg := range splitTop(p.src, vs, ve, ',') {
		for _, tok := range p.requirementTokens(seg[0], seg[1]) {
			p.requirement(h, tok[0], tok[1])
		}
	}
}

// noEntries reports whether the header value src[vs:ve] is "(none)" or
// "()", which real skills write for an empty # Vars:, # Returns: or
// # Requires: list.
func (p *parser) noEntries(vs, ve int) bool {
	v := strings.TrimSpace(p.text[vs:ve])
	return v == "()" || strings.EqualFold(v, "(none)")
}

// requirementTokens splits one comma-separated # Requires: entry at
// src[a:b] into its space-separated requirements ("secret.A secret.B"); a
// user-var:/system-var: requirement ("user-var:k -> NAME (fallback: v)")
// runs to the end of the entry whatever its spaces.
func (p *parser) requirementTokens(a, b int) [][2]int {
	var out [][2]int
	for i := a; i < b; {
		for i < b && isSpace(p.src[i]) {
			i++
		}
		j := i
		for j < b && !isSpace(p.src[j]) {
			j++
		}
		if j == i {
			break
		}
		if w := p.text[i:j]; strings.HasPrefix(w, "user-var:") || strings.HasPrefix(w, "system-var:") {
			return append(out, [2]int{i, b})
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

func (p *parser) requirement(h *ast.Header, a, b int) {
	text := p.text[a:b]
	r := &ast.Requirement{Range: ast.RangeOf(a, b)}
	h.Reqs = append(h.Reqs, r)
	switch {
	case strings.HasPrefix(text, "user-var:") || strings.HasPrefix(text, "system-var:"):
		r.Kind = ast.ReqUserVar
		if text[0] == 's' {
			r.Kind = ast.ReqSystemVar
		}
		p.reqVar(r, a, b)
	case strings.HasPrefix(text, "secret."):
		r.Kind = ast.ReqSecret
		name := text[len("secret."):]
		r.Key = &ast.Ident{Range: ast.RangeOf(a+len("secret."), b), Name: name}
		if !isIdent(name) || strings.Contains(name, "-") {
			p.errorf("parse-error", r.Key.Range, "secret name %q must be a plain identifier (letters, digits, _)", name)
		}
	case reDotted().MatchString(text):
		r.Kind = ast.ReqCapability
		r.Key = &ast.Ident{Range: r.Range, Name: text}
	default:
		p.errorf("parse-error", r.Range, "cannot parse requirement %q: use user-var:KEY -> NAME, system-var:KEY -> NAME, secret.NAME or type.flag", text)
	}
}

// reqVar parses "user-var:key -> NAME (fallback: v)".
func (p *parser) reqVar(r *ast.Requirement, a, b int) {
	colon := a + bytes.IndexByte(p.src[a:b], ':')
	ks := colon + 1
	ke := ks
	for ke < b && !isSpace(p.src[ke]) && !hasAt(p.src, ke, b, "->") && !hasAt(p.src, ke, b, "→") {
		ke++
	}
	r.Key = p.newIdent(ast.RangeOf(ks, ke), p.text[ks:ke])
	if ke == ks {
		p.errorf("parse-error", ast.RangeOf(a, b), "missing key after %q", p.text[a:ks])
	}
	mark := p.lexMark()
	defer p.lexRelease(mark)
	toks, _ := p.lex(ke, b)
	dmark := len(p.diags)
	if bind, fb, ok := p.fastTrailers(toks); p.fastOK(ok, dmark) {
		r.Bind, r.Fallback = bind, fb
	} else {
		// the slow path: the tail parsed as the trailers of a "$" op
		dollar := lexer.Token{Type: tDollar, Value: "$", Pos: lexer.Position{Offset: ke}}
		line, err := lineParser().ParseFromLexer(mustUpgrade(append([]lexer.Token{dollar}, p.tokens(toks)...)))
		if err != nil || len(line.Stmts) != 1 || line.Stmts[0].Dispatch == nil || len(line.Stmts[0].Dispatch.Items) > 0 {
			p.errorf("parse-error", ast.RangeOf(ke, b), "expected \"-> NAME\" and an optional (fallback: value) after the key")
			return
		}
		r.Bind, r.Fallback = p.convTrailers(line.Stmts[0].Dispatch.Trailer)
	}
	if r.Bind == nil {
		p.errorf("parse-error", ast.RangeOf(a, b), "%s requirement needs \"-> NAME\" to name the variable it provides", strings.TrimSuffix(p.text[a:colon+1], ":"))
	}
}

func (p *parser) triggers(h *ast.Header, vs, ve int) {
	if vs == ve {
		p.errorf("invalid-trigger", h.Range, "# Triggers: needs cron: <expression> or event: <name>")
		return
	}
	text := p.text[vs:ve]
	starts := triggerStarts(text)
	if len(starts) == 0 || starts[0] != 0 {
		p.errorf("invalid-trigger", h.ValueRng, "unknown trigger %q: the sources are cron: <5-field expression> and event: <name>", text)
		return
	}
	for k, s := range starts {
		e := len(text)
		if k+1 < len(starts) {
			e = starts[k+1]
		}
		p.trigger(h, vs+s, vs+e)
	}
}

// triggerStarts finds where "cron:" and "event:" sources start in text.
func triggerStarts(text string) []int {
	var out []int
	low := strings.ToLower(text)
	for i := 0; i < len(low); i++ {
		if i > 0 && !strings.ContainsRune(" \t,;", rune(low[i-1])) {
			continue
		}
		for _, src := range []string{"cron", "event"} {
			if strings.HasPrefix(low[i:], src) {
				j := i + len(src)
				for j < len(low) && (low[j] == ' ' || low[j] == '\t') {
					j++
				}
				if j < len(low) && low[j] == ':' {
					out = append(out, i)
				}
			}
		}
	}
	return out
}

func (p *parser) trigger(h *ast.Header, a, b int) {
	for b > a && strings.ContainsRune(" \t,;", rune(p.src[b-1])) {
		b--
	}
	text := p.text[a:b]
	colon := strings.IndexByte(text, ':')
	srcName := strings.ToLower(strings.TrimSpace(text[:colon]))
	t := &ast.Trigger{Range: ast.RangeOf(a, b), Source: &ast.Ident{Range: ast.RangeOf(a, a+len(strings.TrimSpace(text[:colon]))), Name: srcName}}
	ss := skipBlanks(p.src, a+colon+1, b)
	spec := p.text[ss:b]
	if len(spec) >= 2 && (spec[0] == '"' || spec[0] == '\'') && spec[len(spec)-1] == spec[0] {
		spec = spec[1 : len(spec)-1]
	}
	t.Spec, t.SpecRange = spec, ast.RangeOf(ss, b)
	h.Triggers = append(h.Triggers, t)
	switch {
	case spec == "":
		p.errorf("invalid-trigger", t.Range, "%s: trigger needs a value", srcName)
	case srcName == "cron":
		if _, err := cron.ParseStandard(spec); err != nil || strings.HasPrefix(spec, "@") || len(strings.Fields(spec)) != 5 {
			msg := "want 5 fields: minute hour day-of-month month day-of-week"
			if err != nil && len(strings.Fields(spec)) == 5 {
				msg = err.Error()
			}
			p.errorf("invalid-trigger", t.SpecRange, "invalid cron expression %q: %s", spec, msg)
		}
	case srcName == "event":
		if strings.ContainsAny(spec, " \t${}") {
			p.errorf("invalid-trigger", t.SpecRange, "event name %q must be one word (letters, digits, '-', '_', '.')", spec)
		}
	}
}

var outputKinds = []string{"text", "none", "agent", "template", "file"}

func (p *parser) outputs(h *ast.Header, vs, ve int) {
	if vs == ve {
		p.errorf("parse-error", h.Range, "# Output: needs a kind: text, none, agent: NAME, template: NAME or file: PATH")
		return
	}
	text := p.text[vs:ve]
	starts := outputStarts(text)
	if len(starts) == 0 || starts[0] != 0 {
		p.errorf("parse-error", h.ValueRng, "unknown output kind %q: use text, none, agent: NAME, template: NAME or file: PATH", text)
		return
	}
	for k, s := range starts {
		e := len(text)
		if k+1 < len(starts) {
			e = starts[k+1]
		}
		p.output(h, vs+s, vs+e)
	}
}

// outputStarts finds output kinds at the start and after ", ".
func outputStarts(text string) []int {
	var out []int
	for i := 0; i < len(text); i++ {
		if i > 0 {
			j := i - 1
			for j >= 0 && (text[j] == ' ' || text[j] == '\t') {
				j--
			}
			if j < 0 || text[j] != ',' || j == i-1 {
				continue
			}
		}
		for _, k := range outputKinds {
			if len(text)-i >= len(k) && strings.EqualFold(text[i:i+len(k)], k) {
				rest := text[i+len(k):]
				if rest == "" || rest[0] == ':' || rest[0] == ' ' || rest[0] == ',' {
					out = append(out, i)
				}
			}
		}
	}
	return out
}

func (p *parser) output(h *ast.Header, a, b int) {
	for b > a && strings.ContainsRune(" \t,", rune(p.src[b-1])) {
		b--
	}
	text := p.text[a:b]
	kindEnd := a
	for kindEnd < b && isWordByte(p.src[kindEnd]) {
		kindEnd++
	}
	kind := strings.ToLower(p.text[a:kindEnd])
	o := &ast.OutputSpec{Range: ast.RangeOf(a, b), Kind: &ast.Ident{Range: ast.RangeOf(a, kindEnd), Name: kind}}
	h.Outputs = append(h.Outputs, o)
	rest := skipBlanks(p.src, kindEnd, b)
	hasColon := rest < b && p.src[rest] == ':'
	ts := b
	if hasColon {
		ts = skipBlanks(p.src, rest+1, b)
	}
	switch kind {
	case "text", "none":
		if hasColon || rest < b {
			p.errorf("parse-error", o.Range, "# Output: %s takes no target: write just \"%s\"", kind, kind).
				WithFix("drop the target", ast.RangeOf(kindEnd, b), "")
		}
	default:
		if !hasColon || ts == b {
			p.errorf("parse-error", o.Range, "# Output: %s needs a target: write \"%s: NAME\"", kind, kind)
			return
		}
		o.Target = textParser{p: p}.parse(ts, b)
	}
	_ = text
}

func (p *parser) autonomous(h *ast.Header, vs, ve int) {
	// Only the literal words grant or deny mutation authority: "yes", "1",
	// "on" or "True" are errors, so a header nobody meant as a grant never
	// becomes one (issue 13 item 12).
	text := p.text[vs:ve]
	switch text {
	case "true":
		h.Bool = &ast.BoolLit{Range: ast.RangeOf(vs, ve), Value: true}
		return
	case "false":
		h.Bool = &ast.BoolLit{Range: ast.RangeOf(vs, ve), Value: false}
		return
	}
	d := p.errorf("parse-error", h.ValueRng, "# Autonomous: takes true or false, not %q", text)
	switch strings.ToLower(text) {
	case "true", "yes", "y", "1", "on":
		d.WithFix("write true", ast.RangeOf(vs, ve), "true")
	case "false", "no", "n", "0", "off":
		d.WithFix("write false", ast.RangeOf(vs, ve), "false")
	}
}

func (p *parser) duration(h *ast.Header, vs, ve int) {
	text := p.text[vs:ve]
	if n, err := strconv.Atoi(text); err == nil && n > 0 {
		h.Duration = &ast.NumberLit{Range: ast.RangeOf(vs, ve), Raw: text, Value: float64(n)}
		return
	}
	if (strings.HasPrefix(text, "${") && strings.HasSuffix(text, "}")) || (strings.HasPrefix(text, "$(") && strings.HasSuffix(text, ")")) {
		h.Duration = p.parseSubst(vs, ve, false)
		return
	}
	p.errorf("parse-error", h.ValueRng, "# %s: takes a positive whole number of seconds or ${VAR}, not %q", h.Kind, text)
}

// allIdents reports whether every word is a plain identifier.
func allIdents(words []string) bool {
	for _, w := range words {
		if !isIdent(w) {
			return false
		}
	}
	return true
}
