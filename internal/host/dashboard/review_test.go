package dashboard

import (
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skillscript/skillc/internal/approval"
)

// reviewSrc is the Draft the operator reviews: a bash command in a """
// string.
const reviewSrc = "# Skill: greet\n# Status: Draft\n# Tags: demo\n\nmain:\n    shell(command=\"\"\"echo hi\n\"\"\", unsafe=true, approved=\"greeting\") -> R\n    emit(text=\"${R}\")\ndefault: main\n"

// getPage fetches a dashboard page as a browser does and returns its HTML.
func (f *fixture) getPage(path string) string {
	f.t.Helper()
	resp, err := f.client.Get(f.srv.URL + path)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		f.t.Fatalf("GET %s: %d\n%s", path, resp.StatusCode, b)
	}
	return string(b)
}

// postPage submits form as the page's HTML form does (no JSON Accept) and
// returns the status and the page.
func (f *fixture) postPage(path string, form url.Values) (int, string) {
	f.t.Helper()
	form = cloneForm(form)
	form.Set(csrfField, f.pending().CSRF)
	req, _ := http.NewRequest("POST", f.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := f.client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var formHash = regexp.MustCompile(`<form method="post" action="/approve" id="approve">.*name="file_hash" value="(sha256:[0-9a-f]{64})"`)

func (f *fixture) signedNow(name string) bool {
	f.t.Helper()
	src, err := os.ReadFile(filepath.Join(f.dir, name+".skill.md"))
	if err != nil {
		f.t.Fatal(err)
	}
	return strings.Contains(string(src), "v3:")
}

// TestApproveBindsToReviewedBytes performs the review -> approve race over
// real HTTP: the operator opens the skill page (source and file hash) with
// signing unlocked; before the Approve click another client rewrites the
// Draft — a # Tags: line of the header region, which leaves the content
// hash (the signing input's) unchanged, and a line from the signing-input
// attack inside the bash string. Each approve is refused with 409 and a
// line diff against the reviewed source (JSON and the HTML page, odd white
// space spelled out) and signs nothing; once the rewritten skill is
// reviewed, the unsignable one is still refused (422), and a clean one is
// signed.
func TestApproveBindsToReviewedBytes(t *testing.T) {
	f := newFixture(t, "pass", true)
	f.write("greet", reviewSrc)
	if code, out := f.post("/unlock", url.Values{"passcode": {"pass"}}); code != http.StatusOK {
		t.Fatalf("unlock: %d %v", code, out)
	}
	page := f.getPage("/skills/greet")
	m := formHash.FindStringSubmatch(page)
	if m == nil || m[1] != approval.FileHash([]byte(reviewSrc)) || !strings.Contains(page, `id="file-hash">`+m[1]) {
		t.Fatalf("the skill page offers no approve form bound to the file hash of the shown source:\n%s", page)
	}
	reviewed := url.Values{"name": {"greet"}, "file_hash": {m[1]}}

	// 1. a header-region # Tags: edit: the content hash does not move.
	tags := strings.Replace(reviewSrc, "# Tags: demo\n", "# Tags: demo, rewritten\n", 1)
	if approval.ContentHash([]byte(tags)) != approval.ContentHash([]byte(reviewSrc)) {
		t.Fatal("test premise: a # Tags: edit moves the content hash")
	}
	f.write("greet", tags)
	code, out := f.post("/approve", reviewed)
	if code != http.StatusConflict || !strings.Contains(out["error"], `skill "greet" changed since it was reviewed: nothing was signed`) ||
		!strings.Contains(out["diff"], "\n-# Tags: demo\n+# Tags: demo, rewritten\n") {
		t.Fatalf("approve after a # Tags: rewrite = %d %v", code, out)
	}
	if f.signedNow("greet") {
		t.Fatal("the rewritten skill was signed")
	}

	// 2. an invisible line inside the bash string (bash would run id).
	f.write("greet", strings.Replace(reviewSrc, "echo hi\n", "echo hi\n\u00a0# Status: ; id > PWNED\n", 1))
	code, out = f.post("/approve", reviewed)
	if code != http.StatusConflict || !strings.Contains(out["diff"], "\n+⟨U+00A0⟩# Status: ; id > PWNED\n") {
		t.Fatalf("approve after the body rewrite = %d %v", code, out)
	}
	status, body := f.postPage("/approve", reviewed)
	text := html.UnescapeString(body)
	if status != http.StatusConflict || !strings.Contains(text, "Not approved: greet changed since you reviewed it") ||
		!strings.Contains(text, `<span class="add">+⟨U+00A0⟩# Status: ; id > PWNED</span>`) || !strings.Contains(body, `href="/skills/greet"`) {
		t.Fatalf("refusal page = %d\n%s", status, body)
	}
	if f.signedNow("greet") {
		t.Fatal("the rewritten skill was signed")
	}

	// Reviewed again, the rewritten skill is refused for what it is.
	again := formHash.FindStringSubmatch(f.getPage("/skills/greet"))
	if again == nil {
		t.Fatal("no approve form on the rewritten skill's page")
	}
	code, out = f.post("/approve", url.Values{"name": {"greet"}, "file_hash": {again[1]}})
	if code != http.StatusUnprocessableEntity || !strings.Contains(out["error"], "line 7 starts with a non-breaking space (U+00A0) before '#'") {
		t.Fatalf("approve of the reviewed unsignable skill = %d %v", code, out)
	}
	if f.signedNow("greet") {
		t.Fatal("an unsignable skill was signed")
	}

	// A post without the file hash (the old content_hash form) signs nothing.
	f.write("greet", reviewSrc)
	code, out = f.post("/approve", url.Values{"name": {"greet"}, "content_hash": {approval.ContentHash([]byte(reviewSrc))}})
	if code != http.StatusBadRequest || !strings.Contains(out["error"], "missing file_hash") || f.signedNow("greet") {
		t.Fatalf("approve with only the content hash = %d %v", code, out)
	}

	// The reviewed bytes, unchanged, are signed.
	code, out = f.post("/approve", reviewed)
	if code != http.StatusOK || !strings.Contains(out["message"], "approved greet") {
		t.Fatalf("approve of the reviewed skill = %d %v", code, out)
	}
	signed, _ := os.ReadFile(filepath.Join(f.dir, "greet.skill.md"))
	pub, _ := approval.LoadPublicKey(f.keys.Public)
	if err := approval.Verify(pub, signed, regexpToken(string(signed))); err != nil {
		t.Fatalf("stored signature does not verify: %v\n%s", err, signed)
	}
}

// TestChangedWithoutReviewedCopy: a posted file hash the dashboard never
// showed (or has forgotten) is refused without a diff.
func TestChangedWithoutReviewedCopy(t *testing.T) {
	f := newFixture(t, "pass", true)
	if code, out := f.post("/unlock", url.Values{"passcode": {"pass"}}); code != http.StatusOK {
		t.Fatalf("unlock: %d %v", code, out)
	}
	code, out := f.post("/approve", url.Values{"name": {"fetch"}, "file_hash": {approval.FileHash([]byte("something else"))}})
	if code != http.StatusConflict || out["diff"] != "" || !strings.Contains(out["error"], "no longer known here, so no diff") || f.signedNow("fetch") {
		t.Fatalf("approve with an unknown file hash = %d %v", code, out)
	}
}

// TestReviewedIsBounded: the reviewed sources kept for diffs are bounded in
// count and bytes, oldest forgotten first.
func TestReviewedIsBounded(t *testing.T) {
	var m reviewed
	for i := 0; i < reviewedMax+10; i++ {
		src := []byte(strings.Repeat("x", i+1))
		m.remember(approval.FileHash(src), src)
	}
	if len(m.src) != reviewedMax || len(m.order) != reviewedMax {
		t.Fatalf("kept %d sources, want %d", len(m.src), reviewedMax)
	}
	if _, ok := m.lookup(approval.FileHash([]byte("x"))); ok {
		t.Error("the oldest source was not forgotten")
	}
	big := []byte(strings.Repeat("y", reviewedMaxOne+1))
	m.remember(approval.FileHash(big), big)
	if _, ok := m.lookup(approval.FileHash(big)); ok {
		t.Error("a source over the per-source bound was kept")
	}
	for i := 0; i < 20; i++ {
		src := []byte(strings.Repeat(string(rune('a'+i)), reviewedMaxOne))
		m.remember(approval.FileHash(src), src)
	}
	if m.size > reviewedMaxBytes {
		t.Errorf("kept %d bytes, bound %d", m.size, reviewedMaxBytes)
	}
}
