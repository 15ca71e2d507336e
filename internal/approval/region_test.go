package approval

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/syntax"
)

// TestCheckSignable names the line that makes a skill unsignable and
// leaves real header lines alone.
func TestCheckSignable(t *testing.T) {
	const head = "# Skill: s\n# Status: Draft\n# Tags: a\n\nmain:\n"
	cases := []struct {
		name, src string
		line      int // 0: signable
		reason    string
	}{
		{"headers only", "# Skill: s\n# Status: Draft\n  # tags : x\n#STATUS:y\n", 0, ""},
		{"headers then body", head + "    emit(text=\"x\")\ndefault: main\n", 0, ""},
		{"nbsp status inside a shell string", head + "    shell(command=\"\"\"echo hi\n\u00a0# Status: ; id > PWNED\n\"\"\", unsafe=true)\n", 7, "starts with a non-breaking space (U+00A0) before '#'"},
		{"tags inside a curl string", head + "    shell(command=\"\"\"curl -s https://example.com/\n# Tags: -o out/x file:///etc/passwd\n\"\"\", unsafe=true)\n", 7, "looks like a # Status:/# Tags: header inside the body"},
		{"tags inside file_write content", head + "    file_write(path=\"/tmp/x\", content=\"\"\"a\n  # Tags: b\n\"\"\", approved=\"x\")\n", 7, "looks like a # Status:/# Tags: header inside the body"},
		{"status after the first target", head + "    emit(text=\"x\")\n# Status: Draft\n", 7, "inside the body"},
		{"status in a template", "# Skill: s\nHello\n# Status: Draft\n", 3, "inside the body"},
		{"tags in the tests block", "# Skill: s\n# Tests:\n    - name: a\n      # Tags: x\n# Status: Draft\n", 4, "inside the # Tests: block"},
		{"status after the tests block", "# Skill: s\n# Tests:\n    - name: a\n\n# Status: Draft\nmain:\n    emit(text=\"x\")\n", 0, ""},
		{"prose before the fence", "# Status: Draft\n```skillscript\n# Skill: s\n```\n", 1, "outside the skill's ```skillscript block"},
		{"fenced headers", "Intro\n```skillscript\n# Skill: s\n# Status: Draft\n```\nmore\n", 0, ""},
		{"bom on the first line is the file's", "\ufeff# Skill: s\n# Status: Draft\n", 0, ""},
		{"bom later", "# Skill: s\n\ufeff# Status: Draft\n", 2, "byte order mark (U+FEFF)"},
		{"ideographic space before a comment", "# Skill: s\n\u3000# note\n", 2, "U+3000"},
		{"vertical tab", "# Skill: s\n\v# Tags: x\n", 2, "U+000B"},
		{"bare CR joins a header to text", "# Skill: s\r# Tags: x\n", 1, "joins a # Status:/# Tags: header and other text"},
		{"bare CR between two headers", "# Skill: s\n# Status: Draft\r# Tags: a\n", 0, ""},
		{"bare CR before a header", "# Skill: s\n\r# Tags: x\n", 2, "carriage return (U+000D)"},
		{"CRLF file", "# Skill: s\r\n# Status: Draft\r\n\r\nmain:\r\n    emit(text=\"x\")\r\n", 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckSignable([]byte(c.src))
			checkAgainstRef(t, []byte(c.src))
			if c.line == 0 {
				if err != nil {
					t.Fatalf("CheckSignable: %v", err)
				}
				return
			}
			var ue *UnsignableLineError
			if !errors.As(err, &ue) || ue.Line != c.line || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("CheckSignable = %v, want line %d: %s", err, c.line, c.reason)
			}
			if !strings.HasSuffix(err.Error(), "; a signature cannot cover it") {
				t.Errorf("message %q does not say why it is refused", err)
			}
			if verr := Verify(mustKey(t), []byte(c.src), "v3:x"); !errors.As(verr, &ue) {
				t.Errorf("Verify did not refuse: %v", verr)
			}
		})
	}
}

func mustKey(t *testing.T) []byte {
	pub, _ := testKey(0)
	return pub
}

// The attack of item 1: an approved skill's body gains a line that the
// reference rule would leave out of the signature. Each verifies no more.
func TestBodyLineAddedAfterApprovalIsRefused(t *testing.T) {
	pub, priv := testKey(0)
	approved := func(body string) (string, string) {
		src := "# Skill: s\n# Status: Draft\n\nmain:\n" + body + "default: main\n"
		token := Sign(priv, []byte(src))
		signed := string(Stamp([]byte(src), "Approved "+token))
		if err := Verify(pub, []byte(signed), token); err != nil {
			t.Fatalf("the approved skill does not verify: %v", err)
		}
		return signed, token
	}
	cases := []struct{ body, anchor, added string }{
		{"    shell(command=\"\"\"echo hi\n\"\"\", unsafe=true) -> R\n", "echo hi\n", "\u00a0# Status: ; id > PWNED\n"},
		{"    shell(command=\"\"\"curl -s https://example.com/\n\"\"\", unsafe=true) -> R\n", "example.com/\n", "# Tags: -o out/x file:///etc/passwd\n"},
		{"    file_write(path=\"/tmp/x\", content=\"\"\"a\n\"\"\", approved=\"x\")\n", "a\n", "# Tags: PWNED\n"},
	}
	for _, c := range cases {
		signed, token := approved(c.body)
		tampered := strings.Replace(signed, c.anchor, c.anchor+c.added, 1)
		err := Verify(pub, []byte(tampered), token)
		var ue *UnsignableLineError
		if !errors.As(err, &ue) {
			t.Errorf("%q added to the body: Verify = %v, want a refusal naming the line", c.added, err)
		}
		// Even a caller that skipped the refusal would see the signature fail:
		// the line is in the signing input.
		if bytes.Equal(Canonical([]byte(tampered)), Canonical([]byte(signed))) {
			t.Errorf("%q added to the body left the signing input unchanged", c.added)
		}
	}
}

// genPieces are the lines (and multi-line pieces) FuzzHeaderRegion builds
// skills from: headers, comments, """ strings, templates, tests blocks,
// fences, odd white space and bare carriage returns.
var genPieces = []string{
	"# Skill: gen", "# Status: Draft", "# Status: Approved v3:abc", "  #  TAGS : a, b", "# Tags: x",
	"# comment", "    # indented comment", "", "# Description: d", "\u00a0# Status: ; id > PWNED",
	"main:\n    shell(command=\"\"\"curl x\n# Tags: -o out/x file:///etc/passwd\n\"\"\", unsafe=true)",
	"    file_write(path=\"/tmp/x\", content=\"\"\"a\n# Status: b\n\"\"\", approved=\"x\")",
	"    emit(text=\"hi\")", "default: main", "Hello ${USER}",
	"# Tests:\n    - name: t\n      # Tags: inside", "    - name: y", "```skillscript", "```", "prose text",
	"#Status:Draft", "x # Status: y", "\ufeff# Tags: z", "# Status: a\r# Tags: b", "# Skill: a\r# Tags: x",
	"\r# Tags: q", "\"\"\"", "\t# Tags: t", "    # Status: indented", "\v# Status: v", "main:", "   ",
	"# tests:", "#\u2003Tags: em", "  \"\"\"\n# Status: in a string\n  \"\"\"",
}

var genTerms = []string{"\n", "\n", "\n", "\r\n", "\r"}

// genSkill builds a skill from data: each byte pair picks a piece and the
// terminator after it.
func genSkill(data []byte) []byte {
	var b strings.Builder
	for i := 0; i+1 < len(data); i += 2 {
		b.WriteString(genPieces[int(data[i])%len(genPieces)])
		b.WriteString(genTerms[int(data[i+1])%len(genTerms)])
	}
	if len(data)%2 == 1 {
		b.WriteString(genPieces[int(data[len(data)-1])%len(genPieces)])
	}
	return []byte(b.String())
}

// FuzzHeaderRegion checks the header-region split of generated skills
// against the reference splitter, that what it leaves out the parser reads
// as a # Status:/# Tags: header or a comment before any target, template
// or tests block, and that stamping keeps a signable skill's input.
func FuzzHeaderRegion(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 4, 0, 7, 0, 10, 0, 13, 0})
	f.Add([]byte{17, 0, 0, 0, 1, 0, 15, 0, 16, 0, 4, 0, 18, 0, 19})
	f.Add([]byte{0, 3, 23, 4, 24, 0, 9, 1, 14, 2, 1})
	f.Add([]byte{26, 0, 1, 0, 26, 0, 30, 0, 12, 0, 34, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		src := genSkill(data)
		checkAgainstRef(t, src)
		if CheckSignable(src) != nil {
			return
		}
		checkParserAgrees(t, src)
		stamped := Stamp(src, "Approved v3:x")
		if err := CheckSignable(stamped); err != nil {
			t.Fatalf("stamping %q made it unsignable: %v\n%q", src, err, stamped)
		}
		if !bytes.Equal(Canonical(stamped), Canonical(src)) {
			t.Fatalf("Stamp changed the signing input of %q:\n%q", src, stamped)
		}
	})
}

// checkParserAgrees: every line a signable src leaves out of its signing
// input is, to the parser, a # Status: or # Tags: header or a comment, and
// lies in no target, template or # Tests: block.
func checkParserAgrees(t *testing.T, src []byte) {
	t.Helper()
	f, _ := syntax.Parse("gen.skill.md", src)
	if f.NotText {
		return
	}
	var headers, comments []ast.Range
	var blocks []ast.Range
	for _, h := range f.Headers {
		if h.Kind == ast.HeaderStatus || h.Kind == ast.HeaderTags {
			headers = append(headers, h.Range)
		}
		if h.Tests != nil {
			blocks = append(blocks, h.Tests.Range)
		}
	}
	for _, c := range f.Comments {
		if !c.Trailing {
			comments = append(comments, c.Range)
		}
	}
	for _, tg := range f.Targets {
		blocks = append(blocks, tg.Range)
	}
	for _, tm := range f.Templates {
		blocks = append(blocks, tm.Range)
	}
	starts := func(rs []ast.Range, off int) bool {
		for _, r := range rs {
			if r.From.Offset() == off {
				return true
			}
		}
		return false
	}
	inside := func(off int) bool {
		for _, r := range blocks {
			if r.From.Offset() <= off && off < r.To.Offset() {
				return true
			}
		}
		return false
	}
	off := 0
	for _, line := range bytes.SplitAfter(src, []byte("\n")) {
		first := bytes.TrimRight(line, "\r\n")
		if i := bytes.IndexByte(first, '\r'); i >= 0 {
			first = first[:i]
		}
		body := off
		if off == 0 && bytes.HasPrefix(first, []byte(utf8BOM)) {
			first, body = first[len(utf8BOM):], len(utf8BOM)
		}
		lead := len(first) - len(bytes.TrimLeft(first, " \t"))
		if IsUnsignedLine(first) && inSkill(f, off) {
			at := body + lead
			if (!starts(headers, at) && !starts(comments, at)) || inside(at) {
				t.Fatalf("line at %d (%q) is left out of the signing input but the parser reads it otherwise\n%q", at, first, src)
			}
		}
		off += len(line)
	}
}

// inSkill reports whether off lies in the parsed skill (inside the fence of
// a Markdown-embedded skill).
func inSkill(f *ast.File, off int) bool {
	if !f.Fence.From.IsValid() {
		return true
	}
	return f.Fence.From.Offset() < off && off < f.Fence.To.Offset()
}
