package eval

import (
	"context"
	"errors"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/leaf/lang"
)

// execDispatch runs a "$" op.
func (x *run) execDispatch(s *ast.DispatchStmt, sc *scope) error {
	op := &opCall{stmt: s, name: opName(s), args: s.Args, bind: s.Bind, fb: s.Fallback, external: true}
	if s.Tool == nil {
		return x.contain(op, sc, fatalf(KindInvalidSkill, "$ op without a tool name"))
	}
	tool := s.Tool.Name
	if s.Connector == nil && lang.IsTypedContract(tool) {
		op.external = lang.IsExternal(tool)
	}
	if s.Connector == nil && tool == "json_parse" {
		return x.runOp(op, sc, x.opJSONParse)
	}
	if s.Connector == nil && tool == "execute_skill" {
		// "$ execute_skill name=... inputs={...} -> R" is the same
		// composition op as execute_skill(...) (decision K4).
		op.external = false
		return x.runOp(op, sc, x.opExecuteSkill)
	}
	if len(s.Positional) > 0 {
		return x.contain(op, sc, errorf(KindArgument, "%s takes keyword arguments only (key=value)", op.name))
	}
	if s.Connector == nil && lang.IsTypedContract(tool) {
		return x.runOp(op, sc, x.typedOp(tool))
	}
	conn := contract.PrimaryConnector
	if s.Connector != nil {
		conn = s.Connector.Name
	}
	return x.runOp(op, sc, func(ctx context.Context, op *opCall) (any, error) {
		return x.opTool(ctx, op, conn, tool)
	})
}

func (x *run) typedOp(tool string) opFunc {
	switch tool {
	case "llm":
		return x.opLLM
	case "data_read":
		return x.opDataRead
	case "data_write":
		return x.opDataWrite
	case "skill_read":
		return x.opSkillRead
	}
	return x.opSkillWrite
}

func (x *run) opLLM(ctx context.Context, op *opCall) (any, error) {
	args, err := x.kwargs(op.args, x.opScope(op), false)
	if err != nil {
		return nil, err
	}
	prompt := str(args, "prompt")
	if strings.TrimSpace(prompt) == "" {
		return nil, errorf(KindArgument, "$ llm needs a non-empty prompt=")
	}
	opts := contract.RunOptions{}
	if has(args, "maxTokens") {
		n, err := value.Number(mustGet(args, "maxTokens"))
		if err != nil || n <= 0 {
			return nil, errorf(KindArgument, "$ llm maxTokens=%s: want a positive integer", str(args, "maxTokens"))
		}
		opts.MaxTokens = int(n)
	}
	if x.mech {
		return nil, nil
	}
	m, err := x.model(str(args, "model"), &opts)
	if err != nil {
		return nil, err
	}
	return m.Run(ctx, prompt, opts)
}

// model resolves model= against the registered aliases, falling back to
// the default model with the name passed on as a model hint.
func (x *run) model(name string, opts *contract.RunOptions) (contract.LocalModel, error) {
	reg := x.r.registry()
	m, err := reg.Model(name)
	if err == nil || name == "" {
		return m, err
	}
	if def, derr := reg.Model(""); derr == nil {
		opts.Model = name
		return def, nil
	}
	return nil, err
}

func mustGet(o *value.Object, key string) any {
	v, _ := o.Get(key)
	return v
}

func (x *run) opDataRead(ctx context.Context, op *opCall) (any, error) {
	args, err := x.kwargs(op.args, x.opScope(op), false)
	if err != nil {
		return nil, err
	}
	q, err := dataQuery(args)
	if err != nil || x.mech {
		return nil, err
	}
	store := x.r.registry().Data
	if store == nil {
		return nil, &RunError{Kind: KindStoreUnavailable, Msg: contract.ErrNoDataStore.Error()}
	}
	recs, err := store.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	env := value.NewObject(3)
	env.Set("items", value.Normalize(contract.RecordsValue(recs)))
	env.Set("count", float64(len(recs)))
	env.Set("mode", q.Mode)
	return env, nil
}

// dataQuery builds a data store query from $ data_read kwargs.
func dataQuery(args *value.Object) (contract.Query, error) {
	q := contract.Query{Mode: str(args, "mode"), Text: str(args, "query")}
	if q.Mode == "" {
		q.Mode = "fts"
	}
	if has(args, "limit") {
		n, err := value.Number(mustGet(args, "limit"))
		if err != nil || n < 0 {
			return q, errorf(KindArgument, "$ data_read limit=%s: want a non-negative integer", str(args, "limit"))
		}
		q.Limit = int(n)
	}
	q.DomainTags = stringList(mustGet(args, "domain_tags"))
	if f, ok := mustGet(args, "filters").(*value.Object); ok {
		q.Filters = plainMap(f)
	}
	if has(args, "min_confidence") {
		n, err := value.Number(mustGet(args, "min_confidence"))
		if err != nil {
			return q, errorf(KindArgument, "$ data_read min_confidence: %v", err)
		}
		q.MinConfidence = n
	}
	q.PermissiveFilters = value.Truthy(mustGet(args, "permissive_filters"))
	return q, nil
}

// stringList converts a list (or JSON-array string, or single string) to
// strings.
func stringList(v any) []string {
	if v == nil {
		return nil
	}
	list, ok := value.AsList(v)
	if !ok {
		if s := value.String(v); s != "" {
			return []string{s}
		}
		return nil
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		out = append(out, value.String(e))
	}
	return out
}

// plainMap converts an object to map[string]any with plain Go values.
func plainMap(o *value.Object) map[string]any {
	m := make(map[string]any, o.Len())
	for k, v := range o.All() {
		m[k] = plainValue(v)
	}
	return m
}

func plainValue(v any) any {
	switch t := v.(type) {
	case *value.Object:
		return plainMap(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = plainValue(e)
		}
		return out
	}
	return v
}

func (x *run) opDataWrite(ctx context.Context, op *opCall) (any, error) {
	sc := x.opScope(op)
	if err := x.gate(op, sc, "$ data_write"); err != nil {
		return nil, err
	}
	args, err := x.kwargs(op.args, sc, false)
	if err != nil {
		return nil, err
	}
	req := contract.WriteRequest{Content: str(args, "content"), Tags: stringList(mustGet(args, "tags")), Recipients: stringList(mustGet(args, "recipients"))}
	if x.flow {
		// The data store is an output boundary: a write whose arguments
		// derive from a secret stores the marker and nothing else of them.
		req = contract.WriteRequest{Content: TaintMarker}
		args = value.NewObject(0)
	}
	req.Content = x.secrets.Redact(req.Content)
	if strings.TrimSpace(req.Content) == "" {
		return nil, errorf(KindArgument, "$ data_write needs a non-empty content=")
	}
	if m, ok := mustGet(args, "metadata").(*value.Object); ok {
		req.Metadata = plainMap(m)
	}
	if req.ExpiresAt, err = contract.ExpiryFromValue(mustGet(args, "expires_at")); err != nil {
		return nil, errorf(KindArgument, "$ data_write %v", err)
	}
	if x.mech {
		return nil, nil
	}
	store := x.r.registry().Data
	if store == nil {
		return nil, &RunError{Kind: KindStoreUnavailable, Msg: contract.ErrNoDataStore.Error()}
	}
	w, err := store.Write(ctx, req)
	if err != nil {
		return nil, err
	}
	return value.Normalize(w.Map()), nil
}

func (x *run) opSkillRead(ctx context.Context, op *opCall) (any, error) {
	args, err := x.kwargs(op.args, x.opScope(op), false)
	if err != nil || x.mech {
		return nil, err
	}
	rec, err := x.getSkill(ctx, str(args, "name"))
	if err != nil {
		return nil, err
	}
	return value.Normalize(rec.Map()), nil
}

// getSkill fetches a skill from the store; an unknown name is a
// MissingSkillReferenceError.
func (x *run) getSkill(ctx context.Context, name string) (*contract.SkillRecord, error) {
	store := x.r.registry().Skills
	if store == nil {
		return nil, &RunError{Kind: KindStoreUnavailable, Msg: contract.ErrNoSkillStore.Error()}
	}
	if strings.TrimSpace(name) == "" {
		return nil, errorf(KindArgument, "a skill name is required")
	}
	rec, err := store.Get(ctx, name)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, errorf(KindMissingSkill, "skill %q is not in the skill store", name)
	}
	return rec, nil
}

func (x *run) opSkillWrite(ctx context.Context, op *opCall) (any, error) {
	sc := x.opScope(op)
	if err := x.gate(op, sc, "$ skill_write"); err != nil {
		return nil, err
	}
	args, err := x.kwargs(op.args, sc, false)
	if err != nil {
		return nil, err
	}
	name, source := str(args, "name"), str(args, "source")
	if x.flow {
		return nil, fatalf(KindSecret, "$ skill_write: the skill source derives from a secret and would carry it into the skill store")
	}
	if strings.TrimSpace(name) == "" || strings.TrimSpace(source) == "" {
		return nil, errorf(KindArgument, "$ skill_write needs name= and source=")
	}
	if x.mech {
		return nil, nil
	}
	store := x.r.registry().Skills
	if store == nil {
		return nil, &RunError{Kind: KindStoreUnavailable, Msg: contract.ErrNoSkillStore.Error()}
	}
	if !value.Truthy(mustGet(args, "overwrite")) {
		if old, err := store.Get(ctx, name); err != nil || old != nil {
			return nil, firstErr(err, errorf(KindArgument, "skill %q exists; pass overwrite=true to replace it", name))
		}
	}
	rec, err := store.Write(ctx, name, ForceDraft(source), x.identity)
	if err != nil {
		return nil, err
	}
	return value.Normalize(rec.Meta().Map()), nil
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func (x *run) opJSONParse(_ context.Context, op *opCall) (any, error) {
	s := op.stmt.(*ast.DispatchStmt)
	var src ast.Expr
	switch {
	case len(s.Positional) == 1:
		src = s.Positional[0]
	case argOf(s.Args, "text") != nil:
		src = argOf(s.Args, "text").Value
	default:
		return nil, errorf(KindArgument, "$ json_parse takes one value: $ json_parse ${RAW} -> PARSED")
	}
	v, err := x.evalPlain(src, x.opScope(op))
	if err != nil {
		return nil, err
	}
	text, isText := v.(string)
	if !isText {
		return v, nil // already structured
	}
	if strings.TrimSpace(text) == "" {
		return nil, nil // blank input is an empty result (a caller's empty list)
	}
	parsed, err := value.FromJSON(strings.TrimSpace(text))
	if err != nil {
		if x.mech {
			return nil, nil
		}
		return nil, &RunError{Kind: KindJSON, Msg: "$ json_parse: " + err.Error() + " (input " + value.Preview(text, 40) + ")", Err: err}
	}
	return parsed, nil
}

// opTool dispatches "$ conn.tool" (or a bare tool through "primary").
func (x *run) opTool(ctx context.Context, op *opCall, conn, tool string) (any, error) {
	sc := x.opScope(op)
	entry, err := x.r.registry().Connector(conn, tool)
	var notAllowed *contract.ToolNotAllowedError
	if errors.As(err, &notAllowed) {
		return nil, &RunError{Kind: "ToolNotAllowedError", Msg: err.Error(), Fatal: true, Err: err}
	}
	if err != nil && !x.mech {
		return nil, err
	}
	if x.toolMutation(ctx, entry, tool) != "" {
		if err := x.gate(op, sc, op.name); err != nil {
			return nil, err
		}
	}
	args, err := x.kwargs(op.args, sc, true)
	if err != nil || x.mech {
		return nil, err
	}
	resolved, err := x.secrets.resolveValue(args)
	if err != nil {
		return nil, err
	}
	if x.secrets.HasValue(args) {
		x.taint() // the backend receives a secret: all it returns is tainted
	}
	out, err := entry.Connector.Call(ctx, tool, plainMap(resolved.(*value.Object)))
	if err != nil {
		return nil, err
	}
	return value.Normalize(out), nil
}

// toolMutation classifies "$ conn.tool" with lang.ToolMutation: the
// connector's configuration, then the annotations of its discovered tools
// (the MCP connector serves them from the tool cache), then the verb
// heuristic. A mechanical walk contacts no backend, so it sees only the
// configuration.
func (x *run) toolMutation(ctx context.Context, entry contract.ConnectorEntry, tool string) string {
	var discovered []contract.Tool
	if entry.Connector != nil && !x.mech {
		discovered, _ = entry.Connector.Tools(ctx) // unknown tools: configuration and names decide
	}
	return lang.ToolMutation(tool, entry.Facts(tool, discovered))
}
