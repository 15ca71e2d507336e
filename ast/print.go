package ast

import (
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Fprint writes a readable dump of the tree rooted at n to w, one node per
// line with its line:column range (using lt when non-nil) and its scalar
// fields. It is meant for debugging and golden tests.
func Fprint(w io.Writer, lt *LineTable, n Node) {
	pr := printer{w: w, lt: lt}
	pr.node(n, 0)
}

type printer struct {
	w  io.Writer
	lt *LineTable
}

func (pr printer) pos(r Range) string {
	if pr.lt == nil {
		return fmt.Sprintf("%d-%d", r.From.Offset(), r.To.Offset())
	}
	a, b := pr.lt.Position(r.From), pr.lt.Position(r.To)
	return fmt.Sprintf("%d:%d-%d:%d", a.Line, a.Column, b.Line, b.Column)
}

func (pr printer) node(n Node, depth int) {
	if isNil(n) {
		return
	}
	v := reflect.ValueOf(n).Elem()
	t := v.Type()
	var attrs []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		fv := v.Field(i)
		if f.Name == "Src" || f.Name == "Lines" || !f.IsExported() {
			continue
		}
		switch fv.Kind() {
		case reflect.String:
			if fv.String() != "" {
				attrs = append(attrs, fmt.Sprintf("%s=%q", f.Name, fv.String()))
			}
		case reflect.Bool:
			if fv.Bool() {
				attrs = append(attrs, f.Name)
			}
		case reflect.Float64:
			attrs = append(attrs, fmt.Sprintf("%s=%v", f.Name, fv.Float()))
		case reflect.Int:
			if fv.Int() != 0 && f.Type.Name() != "Pos" {
				attrs = append(attrs, fmt.Sprintf("%s=%v", f.Name, fv.Interface()))
			}
		}
	}
	fmt.Fprintf(pr.w, "%s%s %s %s\n", strings.Repeat("  ", depth), t.Name(), pr.pos(n.Span()), strings.Join(attrs, " "))
	for _, c := range Children(n) {
		pr.node(c, depth+1)
	}
}
