package dashboard

import (
	"context"
	"errors"
	"html/template"
	"net/http"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/internal/format/highlight"
	"github.com/skillscript/skillc/internal/host/trace"
	"github.com/skillscript/skillc/lint"
	"github.com/skillscript/skillc/lint/rulesets"
)

// chrome is what every page shows around its content: the navigation,
// the mode and the misconfiguration banners.
type chrome struct {
	Title   string
	Nav     string // the active section
	Prefix  string
	Secured bool
	Banners []string
	Note    string // a page-level note (no trace store, ...)
}

func (d *Dashboard) chrome(title, nav string) chrome {
	return chrome{Title: title, Nav: nav, Prefix: d.o.Prefix, Secured: d.o.Policy.Secured, Banners: d.banners}
}

// layout holds the shared head and navigation; each page template
// defines "content".
const layout = `{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>skillc {{.Title}}</title>
<style>
body{font:14px system-ui,sans-serif;margin:0 2em 2em;max-width:78em}
nav{margin:0 -2em 1em;padding:.6em 2em;background:#1f2937}nav a{color:#e5e7eb;margin-right:1.4em;text-decoration:none}nav a.on{color:#fff;font-weight:bold;border-bottom:2px solid #60a5fa}
.banner{background:#fde2e1;border:1px solid #c0392b;padding:.6em;margin:.5em 0}
.msg{background:#e6f4ea;border:1px solid #2e7d32;padding:.6em;margin:.5em 0}
.note{color:#555;font-style:italic}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4em;vertical-align:top;text-align:left}
code{background:#f4f4f4;padding:0 .2em}.mut{color:#b00}
.st-Approved{color:#1b5e20}.st-Draft{color:#8a6d00}.st-Disabled{color:#777}.sig-stale,.sig-malformed,.sig-unsigned,.sig-unsupported,.sig-unsignable{color:#b00}
.o-ok{color:#1b5e20}.o-error,.o-failed,.o-refused,.o-aborted{color:#b00}.o-fallback{color:#8a6d00}
pre.src{background:#fafafa;border:1px solid #ddd;padding:.5em 0;overflow-x:auto;line-height:1.45}
pre.src .ln{display:inline-block;width:3.5em;color:#999;text-align:right;padding-right:1em;user-select:none}
pre.src .l-error{background:#fdecea}pre.src .l-warning{background:#fff8e1}pre.src .l-info{background:#e8f0fe}
.t-keyword{color:#7c3aed;font-weight:bold}.t-variable{color:#0e7490}.t-function{color:#1d4ed8}.t-method{color:#1d4ed8}
.t-parameter{color:#9a3412}.t-property{color:#0e7490}.t-number{color:#b45309}.t-comment{color:#6b7280;font-style:italic}
.t-namespace{color:#be185d}.t-type{color:#15803d;font-weight:bold}.t-enumMember{color:#b45309}.t-decorator{color:#c2410c}
.t-macro{color:#6d28d9}.t-string{color:#047857}
.bar{position:relative;height:14px;background:#f1f5f9;min-width:20em}.bar span{position:absolute;top:0;height:14px;background:#60a5fa}
.bar span.o-error,.bar span.o-refused{background:#ef4444}.bar span.o-fallback{background:#f59e0b}
</style></head><body>
<nav><a href="{{.Prefix}}/"{{if eq .Nav "approvals"}} class="on"{{end}}>Approvals</a><a href="{{.Prefix}}/skills"{{if eq .Nav "skills"}} class="on"{{end}}>Skills</a><a href="{{.Prefix}}/fires"{{if eq .Nav "fires"}} class="on"{{end}}>Fires</a><a href="{{.Prefix}}/health"{{if eq .Nav "health"}} class="on"{{end}}>Health</a></nav>
{{range .Banners}}<div class="banner">{{.}}</div>{{end}}
{{with .Note}}<p class="note">{{.}}</p>{{end}}
{{end}}{{define "foot"}}</body></html>
{{end}}`

// pageTemplate returns the page's template, parsed on first use: a
// process that never serves the dashboard (skillc check, run) does not
// pay for parsing its pages at start-up (issue 25).
func pageTemplate(name, content string) func() *template.Template {
	return sync.OnceValue(func() *template.Template {
		return template.Must(template.Must(template.New(name).Funcs(funcs).Parse(layout)).Parse(content))
	})
}

var funcs = template.FuncMap{
	"when": func(t *time.Time) string {
		if t == nil || t.IsZero() {
			return "never"
		}
		return t.UTC().Format("2006-01-02 15:04:05Z")
	},
	"ms":  func(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) },
	"pct": func(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) },
}

func (d *Dashboard) render(w http.ResponseWriter, t *template.Template, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
	_ = t.Execute(w, data)
}

// ---- catalog ----

var catalogTmpl = pageTemplate("catalog", `{{template "head" .Chrome}}
<h1>Skills</h1>
<p>{{len .Skills}} skill(s). Mode: {{if .Chrome.Secured}}<b>secured</b>{{else}}unsecured{{end}}.</p>
<table id="catalog"><tr><th>skill</th><th>status</th><th>author</th><th>triggers</th><th>last fire</th><th>footprint</th></tr>
{{range .Skills}}<tr>
<td><a href="{{$.Chrome.Prefix}}/skills/{{.Name}}"><b>{{.Name}}</b></a>{{with .Description}}<br><small>{{.}}</small>{{end}}</td>
<td class="st-{{.Status}}">{{.Status}}{{if ne .Signature "none"}}<br><small class="sig-{{.Signature}}">signature: {{.Signature}}</small>{{end}}{{with .ParseError}}<br><small class="mut">does not parse</small>{{end}}</td>
<td>{{with .Author}}{{.}}{{else}}—{{end}}</td>
<td>{{range .Triggers}}<code>{{.}}</code><br>{{else}}—{{end}}</td>
<td>{{if .LastFire}}<a href="{{$.Chrome.Prefix}}/fires/{{.LastTrace}}">{{when .LastFire}}</a> <span class="o-{{.LastStatus}}">{{.LastStatus}}</span>{{else}}never{{end}}</td>
<td>{{len .Effects}} effect(s){{range .Signals}}<br><small>{{.}}</small>{{end}}</td>
</tr>{{end}}</table>
{{template "foot"}}`)

func (d *Dashboard) catalogPage(w http.ResponseWriter, r *http.Request) {
	c := d.chrome("skills", "skills")
	var list []Skill
	if d.o.Store != nil {
		all, err := d.skills(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if list, err = d.withFires(r.Context(), all); err != nil {
			c.Note = "last fires unavailable: " + err.Error()
		}
	}
	if d.o.Traces == nil {
		c.Note = "no trace store: last fires are not shown (skillc serve records them; SKILLSCRIPT_HOME locates them)"
	}
	d.render(w, catalogTmpl(), struct {
		Chrome chrome
		Skills []Skill
	}{c, list})
}

// ---- one skill ----

var skillTmpl = pageTemplate("skill", `{{template "head" .Chrome}}
<h1>{{.Skill.Name}} <small class="st-{{.Skill.Status}}">{{.Skill.Status}}</small></h1>
{{with .Skill.Description}}<p>{{.}}</p>{{end}}
<p>Signature: <span class="sig-{{.Skill.Signature}}">{{.Skill.Signature}}</span>{{with .Skill.Reason}} — {{.}}{{end}}.
Author: {{with .Skill.Author}}{{.}}{{else}}unknown{{end}}. Updated {{when .Updated}}. Content hash <code>{{.Skill.ContentHash}}</code>.
File hash <code id="file-hash">{{.Skill.FileHash}}</code> (an approval from this page signs exactly the source below).
Approve at a terminal: <code>{{.Skill.Command}}</code></p>
{{if and .Unlocked (not .Skill.ParseError) (ne .Skill.Signature "valid") (ne .Skill.Status "Disabled")}}<form method="post" action="{{.Chrome.Prefix}}/approve" id="approve"><input type="hidden" name="csrf" value="{{.CSRF}}"><input type="hidden" name="name" value="{{.Skill.Name}}"><input type="hidden" name="file_hash" value="{{.Skill.FileHash}}"><button>Approve this source</button></form>{{end}}
<h2>Effectful footprint</h2>
<table id="footprint"><tr><th>line</th><th>kind</th><th>op</th><th>target</th><th>mutating</th></tr>
{{range .Skill.Effects}}<tr><td>{{.Line}}</td><td>{{.Kind}}</td><td><code>{{.Op}}</code></td><td>{{.Subject}}{{if .Dynamic}} <small>(known at run time)</small>{{end}}</td><td>{{if .Mutating}}<span class="mut">yes: {{.Why}}</span>{{else}}no{{end}}</td></tr>
{{else}}<tr><td colspan="5">none: this skill performs no effects</td></tr>{{end}}</table>
{{with .Skill.Signals}}<p>Signals: {{range $i, $s := .}}{{if $i}}; {{end}}{{$s}}{{end}}</p>{{end}}
<h2>Contract</h2>
<table id="contract"><tr><th>header</th><th>value</th></tr>
{{range .Contract}}<tr><td>{{.Key}}</td><td><code>{{.Value}}</code></td></tr>{{end}}
<tr><td>targets</td><td>{{range $i, $t := .Targets}}{{if $i}}, {{end}}<code>{{$t}}</code>{{end}}{{with .Default}} (default <code>{{.}}</code>){{end}}</td></tr></table>
<h2>Diagnostics</h2>
{{if .Diags}}<table id="diagnostics"><tr><th>at</th><th>severity</th><th>rule</th><th>message</th></tr>
{{range .Diags}}<tr><td>{{.At}}</td><td class="l-{{.Severity}}">{{.Severity}}</td><td><code>{{.Rule}}</code></td><td>{{.Message}}</td></tr>{{end}}</table>
{{else}}<p id="diagnostics">No findings.</p>{{end}}
<h2>Source</h2>
<pre class="src" id="source">{{range .Lines}}<span class="l-{{.Sev}}"><span class="ln">{{.N}}</span>{{.HTML}}</span>
{{end}}</pre>
<h2>Recent fires</h2>
{{template "runs" .}}
{{template "foot"}}`+runsTmpl)

// runsTmpl lists runs (the skill page and the fires page share it).
const runsTmpl = `{{define "runs"}}{{if .Runs}}<table id="fires"><tr><th>started</th><th>skill</th><th>trigger</th><th>status</th><th>duration</th><th>trace</th></tr>
{{range .Runs}}<tr><td>{{when .Started}}</td><td><a href="{{$.Chrome.Prefix}}/skills/{{.Skill}}">{{.Skill}}</a></td><td>{{.Trigger}}{{with .TriggerName}} <small>{{.}}</small>{{end}}</td><td class="o-{{.Status}}">{{.Status}}{{if .DeadlineExceeded}} (deadline){{end}}</td><td>{{.DurationMS}} ms</td><td><a href="{{$.Chrome.Prefix}}/fires/{{.ID}}">{{.ID}}</a></td></tr>{{end}}</table>
{{else}}<p>No fires recorded.</p>{{end}}{{end}}`

type headerRow struct{ Key, Value string }

type diagRow struct{ At, Severity, Rule, Message string }

// runRow is one run of a fires list.
type runRow struct {
	trace.Run
	Started *time.Time
}

func runRows(runs []trace.Run) []runRow {
	out := make([]runRow, len(runs))
	for i, r := range runs {
		t := r.StartedAt
		out[i] = runRow{Run: r, Started: &t}
	}
	return out
}

// contractHeaders are the headers that make up a skill's interface.
var contractHeaders = map[ast.HeaderKind]bool{
	ast.HeaderType: true, ast.HeaderVars: true, ast.HeaderReturns: true, ast.HeaderRequires: true,
	ast.HeaderTriggers: true, ast.HeaderOutput: true, ast.HeaderEventType: true, ast.HeaderTemplates: true,
	ast.HeaderAutonomous: true, ast.HeaderTimeout: true, ast.HeaderDeadline: true, ast.HeaderTests: true, ast.HeaderTags: true,
}

func (d *Dashboard) skillPage(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if d.o.Store == nil || !validName(name) {
		d.fail(w, r, http.StatusNotFound, "no such skill")
		return
	}
	rec, err := d.o.Store.Get(r.Context(), name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if rec == nil {
		d.fail(w, r, http.StatusNotFound, "no such skill")
		return
	}
	src := []byte(rec.Body)
	// the same review the queue shows (footprint, signature), and the
	// linter's findings with the operator's context
	it := d.item(rec.Name, src)
	f, info, diags := lint.Check(rec.Name+".skill.md", src, d.lintContext(rec.Name), lint.Options{Rules: rulesets.All()})
	lines := colour(src, highlight.Tokens(f))
	markDiagnostics(lines, f, diags)
	var rows []diagRow
	for _, dg := range diags {
		rows = append(rows, diagRow{At: posText(f.Lines.Position(dg.Range.From)), Severity: dg.Severity.String(), Rule: dg.Rule, Message: dg.Message})
	}
	var contract []headerRow
	for _, h := range f.Headers {
		if contractHeaders[h.Kind] {
			contract = append(contract, headerRow{h.Kind.String(), h.Value})
		}
	}
	var targets []string
	for n := range info.Targets {
		targets = append(targets, n)
	}
	sort.Strings(targets)
	def := ""
	if len(f.Defaults) > 0 && f.Defaults[0].Goal != nil {
		def = f.Defaults[0].Goal.Name
	}
	c := d.chrome(rec.Name, "skills")
	runs, note := d.runs(r.Context(), trace.Filter{Skill: rec.Name, Limit: 20})
	c.Note = note
	updated := rec.UpdatedAt
	unlocked, csrf := d.signing && d.s.touch(sessionID(r)), ""
	if unlocked {
		csrf = d.csrfToken(w, r)
	}
	d.render(w, skillTmpl(), struct {
		Chrome   chrome
		Skill    Skill
		Updated  *time.Time
		Contract []headerRow
		Targets  []string
		Default  string
		Diags    []diagRow
		Lines    []srcLine
		Runs     []runRow
		Unlocked bool   // in-browser signing is unlocked: the page offers approve
		CSRF     string // the form's CSRF token
	}{c, Skill{Item: it, Description: rec.Description, Author: rec.Author, UpdatedAt: rec.UpdatedAt}, &updated, contract, targets, def, rows, lines, runs, unlocked, csrf})
}

// lintContext is the operator's lint context pointed at the stored
// file, so store-wide rules know the skill from its own stored copy.
func (d *Dashboard) lintContext(name string) *lint.Context {
	if d.o.Lint == nil {
		return nil
	}
	lc := *d.o.Lint
	lc.FilePath = ""
	if s, ok := d.o.Store.(interface{ Dir() string }); ok {
		lc.FilePath = filepath.Join(s.Dir(), name+".skill.md")
	}
	return &lc
}

// runs lists recorded runs; note explains an empty list that is not
// "nothing ran".
func (d *Dashboard) runs(ctx context.Context, f trace.Filter) ([]runRow, string) {
	if d.o.Traces == nil {
		return nil, "no trace store: fires are recorded by skillc serve and skillc run under SKILLSCRIPT_HOME"
	}
	runs, err := d.o.Traces.Fires(ctx, f)
	if err != nil {
		return nil, "fires unavailable: " + err.Error()
	}
	return runRows(runs), ""
}

// ---- fires and one trace ----

var firesTmpl = pageTemplate("fires", `{{template "head" .Chrome}}
<h1>Fires{{with .Skill}} of {{.}}{{end}}</h1>
<p>The latest {{len .Runs}} run(s), newest first.</p>
{{template "runs" .}}
{{template "foot"}}`+runsTmpl)

func (d *Dashboard) firesPage(w http.ResponseWriter, r *http.Request) {
	skill := r.URL.Query().Get("skill")
	if skill != "" && !validName(skill) {
		skill = ""
	}
	c := d.chrome("fires", "fires")
	runs, note := d.runs(r.Context(), trace.Filter{Skill: skill, Limit: 200})
	c.Note = note
	d.render(w, firesTmpl(), struct {
		Chrome chrome
		Skill  string
		Runs   []runRow
	}{c, skill, runs})
}

var traceTmpl = pageTemplate("trace", `{{template "head" .Chrome}}
<h1>Trace <code>{{.Run.ID}}</code></h1>
<p><a href="{{.Chrome.Prefix}}/skills/{{.Run.Skill}}">{{.Run.Skill}}</a>, {{.Run.Trigger}}{{with .Run.TriggerName}} ({{.}}){{end}}, started {{when .Started}},
<span class="o-{{.Run.Status}}">{{.Run.Status}}</span> in {{.Run.DurationMS}} ms{{if .Run.DeadlineExceeded}}, deadline exceeded{{end}}{{with .Run.AbortReason}}, aborted: {{.}}{{end}}.</p>
{{with .Run.Errors}}<h2>Errors</h2><ul>{{range .}}<li><code>{{.Kind}}</code> {{.Msg}}</li>{{end}}</ul>{{end}}
<h2>Timeline</h2>
{{if .Ops}}<table id="timeline"><tr><th>+ms</th><th>skill</th><th>target</th><th>line</th><th>op</th><th>outcome</th><th>duration</th><th style="width:30%">span</th></tr>
{{range .Ops}}<tr><td>{{ms .Offset}}</td><td>{{.Indent}}{{.Skill}}</td><td>{{.Target}}</td><td>{{.Line}}</td><td><code>{{.Op.Op}}</code></td>
<td class="o-{{.Outcome}}">{{.Outcome}}{{with .ErrorKind}} <code>{{.}}</code>{{end}}{{with .Detail}}<br><small>{{.}}</small>{{end}}</td><td>{{ms .Duration}} ms</td>
<td><div class="bar"><span class="o-{{.Outcome}}" style="left:{{pct .Left}}%;width:{{pct .Width}}%"></span></div></td></tr>{{end}}</table>
{{else}}<p>No ops were recorded for this run.</p>{{end}}
{{with .Run.Output}}<h2>Output</h2><pre>{{.}}</pre>{{end}}
{{template "foot"}}`)

// opRow is one op of the timeline, placed on the run's time axis.
type opRow struct {
	trace.Op
	Offset      time.Duration
	Indent      string
	Left, Width float64 // percent of the run's span
}

func (d *Dashboard) tracePage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if d.o.Traces == nil {
		d.fail(w, r, http.StatusNotFound, "no trace store")
		return
	}
	run, _, err := d.o.Traces.Get(r.Context(), id)
	if errors.Is(err, trace.ErrNotFound) {
		d.fail(w, r, http.StatusNotFound, "no such trace")
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	started := run.StartedAt
	d.render(w, traceTmpl(), struct {
		Chrome  chrome
		Run     *trace.Run
		Started *time.Time
		Ops     []opRow
	}{d.chrome("trace "+run.ID, "fires"), run, &started, timeline(run)})
}

// timeline places each op on the run's time axis: from the run's start
// to the later of its finish and the last op's end.
func timeline(run *trace.Run) []opRow {
	start := run.StartedAt
	end := start
	if run.FinishedAt != nil {
		end = *run.FinishedAt
	}
	for _, o := range run.Ops {
		if o.StartedAt.Before(start) {
			start = o.StartedAt
		}
		if e := o.StartedAt.Add(o.Duration); e.After(end) {
			end = e
		}
	}
	span := end.Sub(start)
	out := make([]opRow, len(run.Ops))
	for i, o := range run.Ops {
		row := opRow{Op: o, Offset: o.StartedAt.Sub(start), Indent: strings.Repeat("↳ ", o.Depth)}
		if span > 0 {
			row.Left = 100 * float64(row.Offset) / float64(span)
			row.Width = 100 * float64(o.Duration) / float64(span)
		}
		if row.Width < 0.5 {
			row.Width = 0.5 // an instant op stays visible
		}
		if row.Left+row.Width > 100 {
			row.Left = 100 - row.Width
		}
		out[i] = row
	}
	return out
}

// ---- health ----

var healthTmpl = pageTemplate("health", `{{template "head" .Chrome}}
<h1>Health <small>since {{when .Since}}</small></h1>
<h2>Skills</h2>
{{if .Skills}}<table id="skill-health"><tr><th>skill</th><th>runs</th><th>ok</th><th>failed</th><th>aborted</th><th>running</th><th>deadline</th><th>uncertain</th><th>refusals</th><th>p50</th><th>p99</th><th>last</th></tr>
{{range .Skills}}<tr><td><a href="{{$.Chrome.Prefix}}/fires?skill={{.Skill}}">{{.Skill}}</a></td><td>{{.Runs}}</td><td class="o-ok">{{.OK}}</td><td{{if .Failed}} class="o-failed"{{end}}>{{.Failed}}</td><td>{{.Aborted}}</td><td>{{.Running}}</td><td>{{.DeadlineExceeded}}</td><td>{{.Uncertain}}</td><td{{if .Refusals}} class="o-refused"{{end}}>{{.Refusals}}</td><td>{{.P50MS}} ms</td><td>{{.P99MS}} ms</td><td>{{when .LastRun}} <span class="o-{{.LastStatus}}">{{.LastStatus}}</span></td></tr>{{end}}</table>
{{else}}<p>No runs in this window.</p>{{end}}
<h2>Connectors</h2>
{{if .Connectors}}<table id="connector-health"><tr><th>connector</th><th>calls</th><th>ok</th><th>errors</th><th>fallbacks</th><th>refused</th><th>p50</th><th>p99</th><th>last call</th><th>last problem</th></tr>
{{range .Connectors}}<tr><td><code>{{.Connector}}</code></td><td>{{.Calls}}</td><td class="o-ok">{{.OK}}</td><td{{if .Errors}} class="o-error"{{end}}>{{.Errors}}</td><td>{{.Fallbacks}}</td><td{{if .Refused}} class="o-refused"{{end}}>{{.Refused}}</td><td>{{.P50MS}} ms</td><td>{{.P99MS}} ms</td><td>{{when .LastCall}}</td><td>{{.LastError}}</td></tr>{{end}}</table>
{{else}}<p>No connector calls in this window.</p>{{end}}
{{template "foot"}}`)

// healthWindow is how far back the health page looks by default.
const healthWindow = 7 * 24 * time.Hour

func (d *Dashboard) healthPage(w http.ResponseWriter, r *http.Request) {
	c := d.chrome("health", "health")
	since := d.o.Now().Add(-healthWindow)
	var skills []trace.SkillHealth
	var conns []trace.ConnectorHealth
	if d.o.Traces == nil {
		c.Note = "no trace store: health is computed from recorded runs (skillc serve records them under SKILLSCRIPT_HOME)"
	} else {
		var err error
		if skills, err = d.o.Traces.Health(r.Context(), "", since); err == nil {
			conns, err = d.o.Traces.Connectors(r.Context(), since)
		}
		if err != nil {
			c.Note = "health unavailable: " + err.Error()
		}
	}
	d.render(w, healthTmpl(), struct {
		Chrome     chrome
		Since      *time.Time
		Skills     []trace.SkillHealth
		Connectors []trace.ConnectorHealth
	}{c, &since, skills, conns})
}
