package mock

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/value"
)

// Connector returns the mock as the connector called name: Call(tool)
// answers the op "name.tool".
func (m *Mock) Connector(name string) contract.Connector {
	return &connector{m: m, name: name}
}

type connector struct {
	m    *Mock
	name string
}

func (c *connector) Call(ctx context.Context, tool string, args map[string]any) (any, error) {
	return c.m.Respond(ctx, c.name+"."+tool, args)
}

// Tools lists the tools the file mocks for this connector.
func (c *connector) Tools(context.Context) ([]contract.Tool, error) {
	var tools []contract.Tool
	seen := map[string]bool{}
	for _, e := range c.m.entries {
		if conn, tool := splitOp(e.op); conn == c.name && !seen[tool] {
			seen[tool] = true
			tools = append(tools, contract.Tool{Name: tool, Description: fmt.Sprintf("mocked at line %d", e.line)})
		}
	}
	return tools, nil
}

func (c *connector) HealthCheck(context.Context) error { return nil }

func (c *connector) Close() error { return nil }

// Model returns the mock as a LocalModel answering the llm op.
func (m *Mock) Model() contract.LocalModel { return &model{m: m} }

type model struct{ m *Mock }

func (l *model) Run(ctx context.Context, prompt string, opts contract.RunOptions) (string, error) {
	args := map[string]any{"prompt": prompt, "model": opts.Model, "maxTokens": float64(opts.MaxTokens)}
	v, err := l.m.Respond(ctx, OpLLM, args)
	if err != nil {
		return "", err
	}
	return value.String(v), nil
}

func (l *model) Manifest(context.Context) (contract.ModelManifest, error) {
	return contract.ModelManifest{Implementation: "mock", DefaultModel: "mock", Models: []contract.ModelInfo{{Name: "mock"}}}, nil
}

// DataStore returns the mock as a DataStore answering data_read and
// data_write.
func (m *Mock) DataStore() contract.DataStore { return &dataStore{m: m} }

type dataStore struct{ m *Mock }

func (d *dataStore) Write(ctx context.Context, req contract.WriteRequest) (contract.WriteResult, error) {
	var exp any
	if req.ExpiresAt != nil {
		exp = req.ExpiresAt.UTC().Format(time.RFC3339)
	}
	args := map[string]any{"content": req.Content, "tags": value.Normalize(req.Tags),
		"metadata": value.Normalize(req.Metadata), "recipients": value.Normalize(req.Recipients), "expires_at": exp}
	v, err := d.m.Respond(ctx, OpDataWrite, args)
	if err != nil {
		return contract.WriteResult{}, err
	}
	id := value.String(v)
	if o, ok := v.(*value.Object); ok {
		id = field(o, "id")
	}
	if id == "" {
		id = fmt.Sprintf("mock-%d", len(d.m.Calls()))
	}
	return contract.WriteResult{ID: id, CreatedAt: time.Now().UTC()}, nil
}

func (d *dataStore) Query(ctx context.Context, q contract.Query) ([]contract.Record, error) {
	args := map[string]any{"mode": q.Mode, "query": q.Text, "limit": float64(q.Limit),
		"domain_tags": value.Normalize(q.DomainTags), "filters": value.Normalize(q.Filters), "min_confidence": q.MinConfidence}
	v, err := d.m.Respond(ctx, OpDataRead, args)
	if err != nil {
		return nil, err
	}
	return records(v)
}

func (d *dataStore) Get(ctx context.Context, id string) (*contract.Record, error) {
	v, err := d.m.Respond(ctx, OpDataRead, map[string]any{"id": id})
	if err != nil {
		return nil, err
	}
	rs, err := records(v)
	if err != nil || len(rs) == 0 {
		return nil, err
	}
	return &rs[0], nil
}

func (d *dataStore) Manifest(context.Context) contract.DataManifest {
	return contract.DataManifest{Implementation: "mock", SupportedModes: []string{"fts", "semantic", "rerank"},
		SupportedFilters: []string{"*"}, SupportsWrites: true, SupportsTagFilter: true, SupportsSemantic: true}
}

// records converts a canned data_read result (a list of objects, or one
// object) into records.
func records(v any) ([]contract.Record, error) {
	if o, ok := v.(*value.Object); ok {
		v = []any{o}
	}
	list, ok := value.AsList(v)
	if !ok {
		return nil, fmt.Errorf("mock data_read result must be a list of records, got %s", value.TypeName(v))
	}
	out := make([]contract.Record, 0, len(list))
	for i, e := range list {
		o, ok := e.(*value.Object)
		if !ok {
			return nil, fmt.Errorf("mock data_read record %d must be an object, got %s", i, value.TypeName(e))
		}
		out = append(out, record(o))
	}
	return out, nil
}

func record(o *value.Object) contract.Record {
	detail := field(o, "detail")
	if detail == "" {
		detail = field(o, "content")
	}
	summary := field(o, "summary")
	if summary == "" {
		summary = contract.Summarize(detail)
	}
	r := contract.Record{ID: field(o, "id"), Summary: summary, Detail: detail, Tags: stringList(o, "tags"),
		Recipients: stringList(o, "recipients"), CreatedAt: time.Now().UTC()}
	if s, ok := o.Get("score"); ok {
		r.Score, _ = value.Number(s)
	}
	if meta, ok := o.Get("metadata"); ok {
		r.Metadata = plainMap(meta)
	}
	return r
}

// field returns the string form of key, or "" when absent.
func field(o *value.Object, key string) string {
	v, _ := o.Get(key)
	return value.String(v)
}

func stringList(o *value.Object, key string) []string {
	v, _ := o.Get(key)
	list, _ := value.AsList(v)
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = value.String(e)
	}
	return out
}

// plainMap converts an object value to map[string]any (nested objects too).
func plainMap(v any) map[string]any {
	o, ok := v.(*value.Object)
	if !ok {
		return nil
	}
	m := make(map[string]any, o.Len())
	for k, e := range o.All() {
		m[k] = plain(e)
	}
	return m
}

func plain(v any) any {
	switch x := v.(type) {
	case *value.Object:
		return plainMap(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plain(e)
		}
		return out
	}
	return v
}

// SkillStore returns the mock as a SkillStore answering skill_read and
// skill_write.
func (m *Mock) SkillStore() contract.SkillStore { return &skillStore{m: m} }

type skillStore struct{ m *Mock }

func (s *skillStore) Get(ctx context.Context, name string) (*contract.SkillRecord, error) {
	v, err := s.m.Respond(ctx, OpSkillRead, map[string]any{"name": name})
	if err != nil {
		return nil, err
	}
	return skillRecord(name, "", "", v), nil
}

func (s *skillStore) Write(ctx context.Context, name, body, author string) (*contract.SkillRecord, error) {
	v, err := s.m.Respond(ctx, OpSkillWrite, map[string]any{"name": name, "source": body, "author": author})
	if err != nil {
		return nil, err
	}
	return skillRecord(name, body, author, v), nil
}

// skillRecord builds a record from a canned result, defaulting to the
// given name, body and author.
func skillRecord(name, body, author string, v any) *contract.SkillRecord {
	r := &contract.SkillRecord{Name: name, Body: body, Author: author, Status: contract.StatusDraft}
	if o, ok := v.(*value.Object); ok {
		setIf(&r.Name, field(o, "name"))
		setIf(&r.Body, field(o, "source"))
		setIf(&r.Body, field(o, "body"))
		setIf(&r.Author, field(o, "author"))
		setIf(&r.Description, field(o, "description"))
		setIf(&r.Type, field(o, "type"))
		if st, ok := contract.CanonicalStatus(field(o, "status")); ok {
			r.Status = st
		}
	} else if text := value.String(v); text != "" {
		r.Body = text
	}
	r.ContentHash = contract.ContentHash(r.Body)
	r.Version = contract.VersionOf(r.ContentHash)
	return r
}

func setIf(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

// List returns the skills the file serves from skill_read entries with a
// fixed name argument, sorted by name.
func (s *skillStore) List(ctx context.Context, q contract.SkillQuery) ([]contract.SkillMeta, error) {
	var out []contract.SkillMeta
	for _, e := range s.m.entries {
		name, ok := e.args.Get("name")
		if e.op != OpSkillRead || !ok || len(e.responses) == 0 || e.responses[0].errText != "" {
			continue
		}
		meta := skillRecord(value.String(name), "", "", e.responses[0].result).Meta()
		if (q.Status == "" || contract.StatusWord(meta.Status) == contract.StatusWord(mustCanon(q.Status))) &&
			(q.Author == "" || meta.Author == q.Author) {
			out = append(out, meta)
		}
	}
	slices.SortFunc(out, func(a, b contract.SkillMeta) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func mustCanon(s string) string {
	c, _ := contract.CanonicalStatus(s)
	return c
}

func (s *skillStore) Delete(context.Context, string) error {
	return &contract.NotImplementedError{Method: "mock skill store Delete"}
}

func (s *skillStore) Versions(context.Context, string) ([]contract.SkillVersion, error) {
	return nil, nil
}

func (s *skillStore) UpdateStatus(context.Context, string, string) error {
	return &contract.NotImplementedError{Method: "mock skill store UpdateStatus"}
}
