package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/syntax"
)

// codeRequestFailed is the LSP error code of a request that was valid but
// could not be carried out.
const codeRequestFailed jsonrpc2.Code = -32803

// rangeFormatting answers textDocument/rangeFormatting: the document is
// formatted in the `skillc fmt` layout and only the changed lines that lie
// wholly inside the selected lines are kept, so nothing outside the
// selection moves. A document that does not parse is refused with an
// error naming the first syntax error: a range of a broken document
// cannot be formatted safely.
func (s *Server) rangeFormatting(_ context.Context, p *protocol.DocumentRangeFormattingParams) (any, error) {
	snap, err := s.snapshot(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	if isSkillMD(snap.uri) {
		return []protocol.TextEdit{}, nil
	}
	first, last := int(p.Range.Start.Line), int(p.Range.End.Line)
	if last > first && p.Range.End.Character == 0 {
		last-- // a selection of whole lines ends at the start of the next
	}
	format := s.opts.Format
	if format == nil {
		format = defaultFormatter()
	}
	out, err := format(docName(snap.uri), snap.src)
	if err != nil {
		why := err.Error()
		var ds ast.Diagnostics
		if errors.As(err, &ds) && len(ds) > 0 {
			why = fmt.Sprintf("line %d: %s", snap.line(ds[0].Range.From), ds[0].Message)
		}
		return nil, jsonrpc2.Errorf(codeRequestFailed, "not formatting lines %d-%d: the document has a syntax error (%s)", first+1, last+1, why)
	}
	old, cur := splitLines(snap.src), splitLines(out)
	hunks := lineHunks(old, cur)
	edits := rangeEdits(snap, old, cur, hunks, first, last)
	// A parse of its own: only whether the candidate text parses matters;
	// it is thrown away, and a unit under the document's path would evict
	// the document's own from the cache (one unit per path).
	if _, diags := syntax.Parse(docName(snap.uri), []byte(applyTextEdits(snap, edits))); diags.HasErrors() {
		// the selection re-indents part of a block only: take the whole
		// targets it touches
		for _, t := range snap.File.Targets {
			tf, tl := snap.line(t.Range.From)-1, snap.line(t.Range.To)-1
			if tf <= last && first <= tl {
				first, last = min(first, tf), max(last, tl)
			}
		}
		edits = rangeEdits(snap, old, cur, hunks, first, last)
	}
	return edits, nil
}

// rangeEdits turns the hunks lying wholly inside the lines [first, last]
// into text edits of the snapshot's document.
func rangeEdits(snap *snapshot, old, cur [][]byte, hunks []hunk, first, last int) []protocol.TextEdit {
	starts := make([]int, len(old)+1)
	for i, l := range old {
		starts[i+1] = starts[i] + len(l)
	}
	edits := []protocol.TextEdit{}
	for _, h := range hunks {
		if h.aFrom < first || h.aTo-1 > last || (h.aFrom == h.aTo && h.aFrom > last) {
			continue // reaches outside the selection
		}
		edits = append(edits, protocol.TextEdit{
			Range:   lspRange(snap.lines, ast.RangeOf(starts[h.aFrom], starts[h.aTo])),
			NewText: string(bytes.Join(cur[h.bFrom:h.bTo], nil)),
		})
	}
	return edits
}

// applyTextEdits applies sorted, non-overlapping edits to the snapshot's
// text.
func applyTextEdits(snap *snapshot, edits []protocol.TextEdit) string {
	var b bytes.Buffer
	at := 0
	for _, e := range edits {
		from, to := byteOffset(snap.lines, e.Range.Start), byteOffset(snap.lines, e.Range.End)
		b.Write(snap.src[at:from])
		b.WriteString(e.NewText)
		at = to
	}
	b.Write(snap.src[at:])
	return b.String()
}

// splitLines splits src after each newline (the last line may have none).
func splitLines(src []byte) [][]byte {
	var out [][]byte
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			out = append(out, src)
			break
		}
		out, src = append(out, src[:i+1]), src[i+1:]
	}
	return out
}

// hunk replaces the lines [aFrom, aTo) of the old text by [bFrom, bTo) of
// the new.
type hunk struct{ aFrom, aTo, bFrom, bTo int }

// maxDiffCells bounds the line diff's table; beyond it the differing
// middle is one hunk.
const maxDiffCells = 4 << 20

// lineHunks diffs two texts line by line (longest common subsequence).
func lineHunks(a, b [][]byte) []hunk {
	pre := 0
	for pre < len(a) && pre < len(b) && bytes.Equal(a[pre], b[pre]) {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && bytes.Equal(a[len(a)-1-suf], b[len(b)-1-suf]) {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma) == 0 && len(mb) == 0 {
		return nil
	}
	if (len(ma)+1)*(len(mb)+1) > maxDiffCells {
		return []hunk{{pre, pre + len(ma), pre, pre + len(mb)}}
	}
	// lcs[i][j]: the common subsequence length of ma[i:] and mb[j:]
	w := len(mb) + 1
	lcs := make([]int32, (len(ma)+1)*w)
	for i := len(ma) - 1; i >= 0; i-- {
		for j := len(mb) - 1; j >= 0; j-- {
			if bytes.Equal(ma[i], mb[j]) {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	var out []hunk
	i, j := 0, 0
	open := false
	var h hunk
	flush := func() {
		if !open {
			return
		}
		open = false
		h.aTo, h.bTo = pre+i, pre+j
		if h.aTo-h.aFrom != h.bTo-h.bFrom {
			out = append(out, h)
			return
		}
		// as many lines in as out: line by line, so that a selection
		// can take some of them
		for k := 0; k < h.aTo-h.aFrom; k++ {
			out = append(out, hunk{h.aFrom + k, h.aFrom + k + 1, h.bFrom + k, h.bFrom + k + 1})
		}
	}
	for i < len(ma) || j < len(mb) {
		switch {
		case i < len(ma) && j < len(mb) && bytes.Equal(ma[i], mb[j]):
			flush()
			i++
			j++
			continue
		case !open:
			h, open = hunk{aFrom: pre + i, bFrom: pre + j}, true
		}
		if j >= len(mb) || (i < len(ma) && lcs[(i+1)*w+j] >= lcs[i*w+j+1]) {
			i++
		} else {
			j++
		}
	}
	flush()
	return out
}
