package eval

import (
	"context"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval/shellexec"
	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/leaf/lang"
	"github.com/skillscript/skillc/internal/leaf/shellwords"
)

// execCall runs a runtime-intrinsic function-call op.
func (x *run) execCall(s *ast.CallStmt, sc *scope) error {
	op := &opCall{stmt: s, name: s.Name.Name, args: s.Args, bind: s.Bind, fb: s.Fallback}
	if len(s.Positional) > 0 {
		return x.contain(op, sc, fatalf(KindArgument, "%s takes keyword arguments only (key=value)", op.name))
	}
	fn := x.intrinsic(op.name)
	if fn == nil || !lang.IsIntrinsic(op.name) {
		return fatalf(KindUnsupportedOp, "unknown op %s(...); for an external tool use $ connector.tool", op.name)
	}
	op.external = lang.IsExternal(op.name)
	return x.runOp(op, sc, fn)
}

// intrinsic returns the implementation of the runtime-intrinsic op called
// name (the catalog in internal/leaf/lang lists them), or nil.
func (x *run) intrinsic(name string) opFunc {
	switch name {
	case "emit":
		return x.opEmit
	case "notify":
		return x.opNotify
	case "shell":
		return x.opShell
	case "file_read":
		return x.opFileRead
	case "file_write":
		return x.opFileWrite
	case "execute_skill":
		return x.opExecuteSkill
	case "inline":
		return x.opInline
	}
	return nil
}

func (x *run) opEmit(_ context.Context, op *opCall) (any, error) {
	sc := x.opScope(op)
	a := argOf(op.args, "text")
	if a == nil {
		return nil, errorf(KindArgument, "emit needs text=")
	}
	v, err := x.evalPlain(a.Value, sc)
	if err != nil {
		return nil, err
	}
	return nil, x.emit(op, value.String(v))
}

// emit appends text to the emission stream and the transcript, with its
// taint, counting it in the memory estimate.
func (x *run) emit(op *opCall, text string) error {
	if err := x.hold(int64(len(text))); err != nil {
		return err
	}
	x.res.Emissions = append(x.res.Emissions, text)
	x.res.emitTaint = append(x.res.emitTaint, x.flow)
	x.emitted = true
	line := x.line(op.stmt.Span())
	x.trace("emit", x.targetName(), op.name, line, text)
	x.progress(Event{Kind: "emit", Target: x.targetName(), Op: op.name, Line: line, Detail: text})
	return nil
}

func (x *run) opShell(ctx context.Context, op *opCall) (any, error) {
	sc := x.opScope(op)
	req, err := x.shellRequest(op, sc)
	if err != nil {
		return nil, err
	}
	if x.mech {
		return placeholder("shell would run: %s", x.secrets.Display(describeShell(req))), nil
	}
	sh := x.shellRunner()
	argv, err := sh.Check(req)
	if err != nil {
		return nil, shellRefusal(err)
	}
	mutating := req.Unsafe
	if !req.Unsafe {
		mutating = lang.ClassifyShell(argv).Mutating != ""
	}
	if mutating {
		if err := x.gate(op, sc, "shell "+argv[0]); err != nil {
			return nil, err
		}
	}
	res, err := sh.Run(ctx, req)
	if err != nil {
		return nil, err
	}
	return res.Stdout, nil
}

// shellRefusal marks gate refusals fatal; malformed requests stay
// containable.
func shellRefusal(err error) error {
	if shellexec.IsRefusal(err) {
		return err
	}
	return &RunError{Kind: KindArgument, Msg: err.Error(), Err: err}
}

// shellRunner returns the injected shell runner wired to this run's
// secrets: markers resolve only after the gates pass, and stderr and error
// text are redacted.
func (x *run) shellRunner() *shellexec.Runner {
	sh := shellexec.Runner{}
	if x.r.Shell != nil {
		sh = *x.r.Shell
	}
	sh.Resolve = func(s string) (string, error) {
		if x.secrets.Has(s) {
			x.taint() // the process received a secret: all it returns is tainted
		}
		return x.secrets.resolve(s)
	}
	sh.Redact = nil // error text stays as raised (taint.go); redacted at the output boundary
	return &sh
}

func (x *run) shellRequest(op *opCall, sc *scope) (shellexec.Request, error) {
	var req shellexec.Request
	args, err := x.kwargs(op.args, sc, true)
	if err != nil {
		return req, err
	}
	if v, ok := args.Get("unsafe"); ok {
		req.Unsafe = value.Truthy(v)
	}
	if v, ok := args.Get("argv"); ok {
		list, isList := v.([]any)
		if !isList {
			return req, errorf(KindArgument, "shell argv= must be a list, got %s", value.TypeName(v))
		}
		for _, e := range list {
			req.Argv = append(req.Argv, value.String(e))
		}
	}
	req.Command = str(args, "command")
	if a := argOf(op.args, "command"); a != nil && !req.Unsafe && len(req.Argv) == 0 {
		// The structural form tokenizes the literal command first and
		// substitutes into each word after: a value is always inside one
		// argv entry, never split into several (issue 13 item 2).
		argv, err := x.commandArgv(a.Value, sc)
		if err != nil {
			return req, err
		}
		req.Command, req.Argv = "", argv
	}
	for _, s := range append([]string{req.Command}, req.Argv...) {
		if err := x.secrets.checkDeclared(s); err != nil {
			return req, err
		}
	}
	return req, nil
}

// commandArgv builds the argv of shell(command=...) from the command's
// text: literal parts decide the words and quotes, substitutions (and
// secret markers) are holes whose values land whole inside their word.
func (x *run) commandArgv(e ast.Expr, sc *scope) ([]string, error) {
	t := check.TextOf(e)
	if t == nil {
		v, err := x.eval(e, sc)
		if err != nil {
			return nil, err
		}
		t = &ast.Text{Parts: []ast.TextPart{&ast.Lit{Value: value.String(v)}}}
	}
	pieces := make([]shellwords.Piece, 0, len(t.Parts))
	for _, p := range t.Parts {
		if l, ok := p.(*ast.Lit); ok {
			pieces = append(pieces, shellwords.Piece{Text: litValue(l)})
			continue
		}
		var b strings.Builder
		if err := x.renderPart(&b, p, sc); err != nil {
			return nil, err
		}
		pieces = append(pieces, shellwords.Piece{Text: b.String(), Hole: true})
	}
	words, err := shellwords.TokenizeTemplate(pieces)
	if err != nil {
		return nil, &RunError{Kind: KindArgument, Msg: err.Error(), Err: err}
	}
	argv := make([]string, len(words))
	for i, w := range words {
		argv[i] = w.String()
	}
	return argv, nil
}

func describeShell(req shellexec.Request) string {
	if len(req.Argv) > 0 {
		return strings.Join(req.Argv, " ")
	}
	if req.Unsafe {
		return "bash -c " + req.Command
	}
	return req.Command
}

func (x *run) opFileRead(_ context.Context, op *opCall) (any, error) {
	args, err := x.kwargs(op.args, x.opScope(op), false)
	if err != nil {
		return nil, err
	}
	path := str(args, "path")
	if x.mech {
		return placeholder("file_read would read %s", path), nil
	}
	return x.r.FS.Read(path, str(args, "encoding"))
}

func (x *run) opFileWrite(_ context.Context, op *opCall) (any, error) {
	sc := x.opScope(op)
	args, err := x.kwargs(op.args, sc, false)
	if err != nil {
		return nil, err
	}
	path := str(args, "path")
	if x.mech {
		return placeholder("file_write would write %d bytes to %s", len(str(args, "content")), path), nil
	}
	if _, err := x.r.FS.Check(path); err != nil {
		return nil, err
	}
	if err := x.gate(op, sc, "file_write"); err != nil {
		return nil, err
	}
	if x.flow {
		if err := x.pathTaint(op, sc); err != nil {
			return nil, err
		}
	}
	// A file is an output boundary: tainted content is written as the
	// marker, and known secret spellings are redacted.
	return x.r.FS.Write(path, x.secrets.Redact(redactTainted(str(args, "content"), x.flow)))
}

// pathTaint refuses a file_write whose path derives from a secret (the
// name of a file would carry it out).
func (x *run) pathTaint(op *opCall, sc *scope) error {
	a := argOf(op.args, "path")
	if a == nil {
		return nil
	}
	saved := x.flowFrom()
	_, err := x.evalPlain(a.Value, sc)
	pathTainted := x.flow
	x.flow = saved
	if err == nil && pathTainted {
		return fatalf(KindSecret, "file_write path= derives from a secret: a file name would carry it out")
	}
	return err
}
