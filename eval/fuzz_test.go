package eval_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/syntax"
)

// condSkill emits "T" when A op B holds and "F" otherwise; a failed
// condition lands in the else: handler, which emits "E".
func condSkill(op string) string {
	return "# Skill: fz\n# Status: Approved\n# Vars: A, B\n\nrun:\n    if ${A} " + op + " ${B}:\n        emit(text=\"T\")\n    else:\n        emit(text=\"F\")\nelse:\n    emit(text=\"E\")\n\ndefault: run\n"
}

var decimal = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// model is the reference semantics of a comparison on two strings:
// byte equality, numeric order when both are decimal numerals (else a
// type error), and membership in a JSON array of strings.
func model(op, a, b string) string {
	switch op {
	case "==", "!=":
		return verdict((a == b) == (op == "=="))
	}
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if !decimal.MatchString(a) || !decimal.MatchString(b) {
		return "E"
	}
	x, errX := strconv.ParseFloat(a, 64)
	y, errY := strconv.ParseFloat(b, 64)
	if errX != nil || errY != nil {
		return "E"
	}
	switch op {
	case "<":
		return verdict(x < y)
	case ">":
		return verdict(x > y)
	case "<=":
		return verdict(x <= y)
	}
	return verdict(x >= y)
}

func verdict(b bool) string {
	if b {
		return "T"
	}
	return "F"
}

// FuzzCompare checks equality and numeric comparison against the model.
func FuzzCompare(f *testing.F) {
	for _, s := range [][2]string{{"5", "10"}, {"5.0", "5"}, {" 3 ", "3"}, {"abc", "1"}, {"", ""}, {"1e3", "999"}, {"-0", "0"}, {"0x10", "16"}} {
		f.Add(s[0], s[1], uint8(0))
	}
	ops := []string{"==", "!=", "<", ">", "<=", ">="}
	progs := map[string]*prog{}
	for _, op := range ops {
		progs[op] = compile(f, condSkill(op))
	}
	r := &eval.Runner{}
	f.Fuzz(func(t *testing.T, a, b string, k uint8) {
		op := ops[int(k)%len(ops)]
		res, err := r.Run(context.Background(), progs[op].f, progs[op].info, map[string]any{"A": a, "B": b})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(res.Emissions, "")
		if want := model(op, a, b); got != want {
			t.Fatalf("%q %s %q = %s, model says %s (errors %v)", a, op, b, got, want, res.Errors)
		}
	})
}

// FuzzMembership checks in / not in against a list built from the input.
func FuzzMembership(f *testing.F) {
	f.Add("a", "a,b,c")
	f.Add("", ",")
	f.Add("x y", "x y,z")
	in := compile(f, condSkill("in"))
	notIn := compile(f, condSkill("not in"))
	r := &eval.Runner{}
	f.Fuzz(func(t *testing.T, a, csv string) {
		list := strings.Split(csv, ",")
		want := false
		for _, e := range list {
			want = want || e == a
		}
		anyList := make([]any, len(list))
		for i, e := range list {
			anyList[i] = e
		}
		for _, p := range []struct {
			prog *prog
			want bool
		}{{in, want}, {notIn, !want}} {
			res, err := r.Run(context.Background(), p.prog.f, p.prog.info, map[string]any{"A": a, "B": anyList})
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(res.Emissions, ""); got != verdict(p.want) {
				t.Fatalf("%q in %q: got %s, want %s", a, list, got, verdict(p.want))
			}
		}
	})
}

type prog struct {
	f    *ast.File
	info *check.Info
}

func compile(f *testing.F, src string) *prog {
	file, diags := syntax.Parse("fz.skill.md", []byte(src))
	if diags.HasErrors() {
		f.Fatalf("fuzz skill does not parse: %v", diags)
	}
	return &prog{f: file, info: check.Check(file)}
}
