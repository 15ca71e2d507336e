package dashboard

import "net/http"

var pageTmpl = pageTemplate("page", `{{template "head" .Chrome}}
<h1>Approvals</h1>
<p>Mode: {{if .Secured}}<b>secured</b> (only signed skills perform effects){{else}}unsecured{{end}}.
{{if .Signing}}{{if .Unlocked}}Signing unlocked for this session.
<form method="post" action="{{.Prefix}}/lock" style="display:inline"><input type="hidden" name="csrf" value="{{.CSRF}}"><button>Lock</button></form>
{{else}}<form method="post" action="{{.Prefix}}/unlock" style="display:inline"><input type="hidden" name="csrf" value="{{.CSRF}}">Passcode: <input type="password" name="passcode" autocomplete="off"> <button>Unlock signing</button></form>{{end}}
{{else}}Review only: sign at a terminal with the command shown.{{end}}</p>
{{with .Message}}<div class="msg">{{.}}</div>{{end}}
{{if not .Items}}<p>Nothing is waiting for approval.</p>{{else}}
<table><tr><th>skill</th><th>status</th><th>signals</th><th>effectful footprint</th><th>approve</th></tr>
{{range .Items}}<tr>
<td><b><a href="{{$.Prefix}}/skills/{{.Name}}">{{.Name}}</a></b>{{with .ParseError}}<br><span class="mut">does not parse: {{.}}</span>{{end}}</td>
<td>{{.Status}}{{if ne .Signature "none"}}<br>signature: {{.Signature}}{{end}}{{with .Reason}}<br><small>{{.}}</small>{{end}}</td>
<td>{{range .Signals}}{{.}}<br>{{else}}—{{end}}</td>
<td>{{range .Effects}}<div>{{.String}}</div>{{else}}none{{end}}</td>
<td><code>{{.Command}}</code>{{if $.Unlocked}}{{if not .ParseError}}
<form method="post" action="{{$.Prefix}}/approve"><input type="hidden" name="csrf" value="{{$.CSRF}}"><input type="hidden" name="name" value="{{.Name}}"><input type="hidden" name="file_hash" value="{{.FileHash}}"><button>Approve</button></form>{{end}}{{end}}</td>
</tr>{{end}}</table>{{end}}
{{template "foot"}}`)

// Chrome is the page's navigation and banners.
func (st state) Chrome() chrome {
	return chrome{Title: "approvals", Nav: "approvals", Prefix: st.Prefix, Secured: st.Secured, Banners: st.Banners}
}

func (d *Dashboard) page(w http.ResponseWriter, r *http.Request) {
	st, err := d.state(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	st.Message = outcome(r.URL.Query().Get("done"), r.URL.Query().Get("name"))
	st.CSRF = d.csrfToken(w, r)
	d.render(w, pageTmpl, st)
}
