package dashboard

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/skillscript/skillc/internal/approval"
)

// An approval given in the browser binds to the exact bytes the operator
// was shown (DECISIONS 29): every review carries the file hash of the
// source it was made from (Item.FileHash), the approve form posts it back,
// and a skill whose stored bytes hash otherwise is not signed. The
// content hash would not do: it is the hash of the signing input, which
// the # Status: and # Tags: lines of the header region do not move.

// Bounds of the reviewed sources kept to show what changed.
const (
	reviewedMax      = 512     // sources
	reviewedMaxBytes = 8 << 20 // bytes in all
	reviewedMaxOne   = 1 << 20 // a larger source is not kept (no diff then)
)

// reviewed remembers the sources reviews were made from, by file hash,
// so a refused approval can show the line diff against what the operator
// saw. The oldest are forgotten first.
type reviewed struct {
	mu    sync.Mutex
	src   map[string][]byte
	order []string
	size  int
}

// remember keeps src under its file hash.
func (m *reviewed) remember(hash string, src []byte) {
	if len(src) > reviewedMaxOne {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.src == nil {
		m.src = map[string][]byte{}
	}
	if _, ok := m.src[hash]; ok {
		return
	}
	m.src[hash] = bytes.Clone(src)
	m.order = append(m.order, hash)
	m.size += len(src)
	for len(m.order) > reviewedMax || m.size > reviewedMaxBytes {
		old := m.order[0]
		m.order = m.order[1:]
		m.size -= len(m.src[old])
		delete(m.src, old)
	}
}

// lookup returns the source reviewed under hash.
func (m *reviewed) lookup(hash string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	src, ok := m.src[hash]
	return src, ok
}

// ChangedError: the stored skill is not the one the operator reviewed.
type ChangedError struct {
	Name string
	// Diff is a unified line diff from the reviewed source to the stored
	// one, with invisible characters spelled out; empty when the reviewed
	// source is no longer known.
	Diff string
}

// Error implements error.
func (e *ChangedError) Error() string {
	msg := fmt.Sprintf("skill %q changed since it was reviewed: nothing was signed; reload and review it again", e.Name)
	if e.Diff == "" {
		msg += " (the reviewed version is no longer known here, so no diff)"
	}
	return msg
}

// checkReviewed refuses src unless its file hash is the one posted.
func (d *Dashboard) checkReviewed(name string, src []byte, posted string) error {
	if approval.FileHash(src) == posted {
		return nil
	}
	e := &ChangedError{Name: name}
	if old, ok := d.reviewed.lookup(posted); ok {
		e.Diff = string(diff.Diff("reviewed", visible(old), "stored now", visible(src)))
	}
	return e
}

// visible spells out the characters a browser would not show: white space
// other than spaces, tabs and newlines (U+00A0, a bare "\r", ...) and
// other invisible format characters, as ⟨U+XXXX⟩.
func visible(src []byte) []byte {
	var b bytes.Buffer
	for len(src) > 0 {
		r, n := utf8.DecodeRune(src)
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "⟨byte %02X⟩", src[0])
		case r != ' ' && r != '\t' && r != '\n' && (isSpaceLike(r) || r < 0x20 || r == 0x7f):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.Write(src[:n])
		}
		src = src[n:]
	}
	return b.Bytes()
}

// isSpaceLike reports white space and invisible format characters.
func isSpaceLike(r rune) bool {
	switch r {
	case 0x85, 0xA0, 0xAD, 0x1680, 0x180E, 0x2028, 0x2029, 0x202F, 0x205F, 0x2060, 0x3000, 0xFEFF:
		return true
	}
	return (0x2000 <= r && r <= 0x200F) || (0x202A <= r && r <= 0x202E) || (0x2066 <= r && r <= 0x2069)
}

var changedTmpl = pageTemplate("changed", `{{template "head" .Chrome}}
<style>pre.diff .add{background:#e6f4ea}pre.diff .del{background:#fdecea}pre.diff .hunk{color:#555}</style>
<h1>Not approved: {{.Name}} changed since you reviewed it</h1>
<p class="mut">Nothing was signed. The stored skill is not the file you were shown{{if not .Lines}}, and the version you reviewed is no longer known here, so no diff can be shown{{end}}. <a href="{{.Chrome.Prefix}}/skills/{{.Name}}">Review it again</a>.</p>
{{if .Lines}}<h2>What changed</h2>
<pre class="diff" id="diff">{{range .Lines}}<span class="{{.Class}}">{{.Text}}</span>
{{end}}</pre>{{end}}
{{template "foot"}}`)

type diffLine struct{ Class, Text string }

// refuseChanged answers a refused approval of a changed skill: 409 with
// the line diff (JSON "diff", or the page).
func (d *Dashboard) refuseChanged(w http.ResponseWriter, r *http.Request, e *ChangedError) {
	if wantsJSON(r) {
		writeJSON(w, http.StatusConflict, map[string]string{"error": e.Error(), "diff": e.Diff})
		return
	}
	var lines []diffLine
	for _, l := range strings.Split(strings.TrimSuffix(e.Diff, "\n"), "\n") {
		if l == "" {
			continue
		}
		cls := ""
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"), strings.HasPrefix(l, "@@"), strings.HasPrefix(l, "diff "):
			cls = "hunk"
		case strings.HasPrefix(l, "+"):
			cls = "add"
		case strings.HasPrefix(l, "-"):
			cls = "del"
		}
		lines = append(lines, diffLine{cls, l})
	}
	name := e.Name
	if !validName(name) {
		name = ""
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
	w.WriteHeader(http.StatusConflict)
	_ = changedTmpl.Execute(w, struct {
		Chrome chrome
		Name   string
		Lines  []diffLine
	}{d.chrome("not approved", "approvals"), name, lines})
}
