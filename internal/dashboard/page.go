package dashboard

import (
	"html/template"
	"net/http"
)

var pageTmpl = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>skillc approvals</title>
<style>
body{font:14px system-ui,sans-serif;margin:2em;max-width:70em}
.banner{background:#fde2e1;border:1px solid #c0392b;padding:.6em;margin:.5em 0}
.msg{background:#e6f4ea;border:1px solid #2e7d32;padding:.6em;margin:.5em 0}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4em;vertical-align:top;text-align:left}
code{background:#f4f4f4;padding:0 .2em}.mut{color:#b00}
</style></head><body>
<h1>Approvals</h1>
<p>Mode: {{if .Secured}}<b>secured</b> (only signed skills perform effects){{else}}unsecured{{end}}.
{{if .Signing}}{{if .Unlocked}}Signing unlocked for this session.
<form method="post" action="{{.Prefix}}/lock" style="display:inline"><input type="hidden" name="csrf" value="{{.CSRF}}"><button>Lock</button></form>
{{else}}<form method="post" action="{{.Prefix}}/unlock" style="display:inline"><input type="hidden" name="csrf" value="{{.CSRF}}">Passcode: <input type="password" name="passcode" autocomplete="off"> <button>Unlock signing</button></form>{{end}}
{{else}}Review only: sign at a terminal with the command shown.{{end}}</p>
{{range .Banners}}<div class="banner">{{.}}</div>{{end}}
{{with .Message}}<div class="msg">{{.}}</div>{{end}}
{{if not .Items}}<p>Nothing is waiting for approval.</p>{{else}}
<table><tr><th>skill</th><th>status</th><th>signals</th><th>effectful footprint</th><th>approve</th></tr>
{{range .Items}}<tr>
<td><b>{{.Name}}</b>{{with .ParseError}}<br><span class="mut">does not parse: {{.}}</span>{{end}}</td>
<td>{{.Status}}{{if ne .Signature "none"}}<br>signature: {{.Signature}}{{end}}{{with .Reason}}<br><small>{{.}}</small>{{end}}</td>
<td>{{range .Signals}}{{.}}<br>{{else}}—{{end}}</td>
<td>{{range .Effects}}<div>{{.String}}</div>{{else}}none{{end}}</td>
<td><code>{{.Command}}</code>{{if $.Unlocked}}{{if not .ParseError}}
<form method="post" action="{{$.Prefix}}/approve"><input type="hidden" name="csrf" value="{{$.CSRF}}"><input type="hidden" name="name" value="{{.Name}}"><input type="hidden" name="content_hash" value="{{.ContentHash}}"><button>Approve</button></form>{{end}}{{end}}</td>
</tr>{{end}}</table>{{end}}
</body></html>
`))

func (d *Dashboard) page(w http.ResponseWriter, r *http.Request) {
	st, err := d.state(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	st.Message = outcome(r.URL.Query().Get("done"), r.URL.Query().Get("name"))
	st.CSRF = d.csrfToken(w, r)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
	_ = pageTmpl.Execute(w, st)
}
