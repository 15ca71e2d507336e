// Package dap is the Debug Adapter Protocol server of `skillc dap`: it
// runs one skill under the evaluator's eval.Debugger hook and lets a DAP
// client (VS Code, nvim-dap, any other) set breakpoints on targets and
// statements (conditional ones and logpoints too), step over, into a child
// skill of execute_skill and out, pause, continue and terminate, read the
// target chain and the child skills as the stack, read variables (secrets
// masked) and evaluate ${…} expressions.
//
// What a launch runs is built by the caller ([Config.Launch]): cmd/skillc
// wires mocks, the mechanical mode and the replay of a recorded trace
// ([Replay]); this package knows no configuration.
package dap

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	godap "github.com/google/go-dap"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/eval"
	"github.com/skillscript/skillc/eval/value"
	"github.com/skillscript/skillc/internal/workspace"
)

// LaunchArgs are the arguments of a launch request (the launch
// configuration of an editor).
type LaunchArgs struct {
	// Program is the skill's path.
	Program string `json:"program"`
	// Inputs are the run's inputs.
	Inputs map[string]any `json:"inputs"`
	// Mocks is a mock file (docs/mocks.md); empty means the skill's
	// <name>.mock.yaml when there is one.
	Mocks string `json:"mocks"`
	// StopOnEntry stops before the first target.
	StopOnEntry bool `json:"stopOnEntry"`
	// RealEffects lets a run without mocks perform real effects; without
	// it such a run is mechanical (no effect at all).
	RealEffects bool `json:"realEffects"`
	// Trace replays the run recorded under this trace id: its source and
	// inputs, its connector and model results fed back.
	Trace string `json:"trace"`
	// Database is the trace store to read Trace from (a postgres:// URL);
	// empty means the configured SQLite store.
	Database string `json:"database"`
	// NoDebug runs without stopping.
	NoDebug bool `json:"noDebug"`
}

// Program is a launched run, built by Config.Launch.
type Program struct {
	Runner *eval.Runner
	File   *ast.File // parsed with its path (or the trace's skill name) as name
	Info   *check.Info
	Inputs map[string]any
	// Notes are printed to the debug console before the run.
	Notes []string
	// Close releases what the runner holds; may be nil.
	Close func()
}

// Config configures a Server.
type Config struct {
	// Launch builds the run of a launch request.
	Launch func(ctx context.Context, args LaunchArgs) (*Program, error)
}

// Server serves one debug session over a reader and a writer.
type Server struct {
	cfg Config
	in  *bufio.Reader

	wmu sync.Mutex
	out io.Writer
	seq int

	mu       sync.Mutex
	cond     *sync.Cond
	bps      map[string][]*breakpoint // by cleaned source path
	bpID     int
	launched *Program
	args     LaunchArgs
	confDone bool
	running  bool

	entryDone  bool
	mode       int
	stepDepth  int
	pauseReq   bool
	stopped    bool
	terminated bool
	stack      []*eval.Point // the last point of each depth
	refs       map[int]any   // structured values shown, by variablesReference
	nextRef    int
	sources    []*ast.File // served by sourceReference (index+1)

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
}

// Step modes.
const (
	modeRun = iota
	modeNext
	modeIn
	modeOut
)

// breakpoint is a breakpoint, logpoint or conditional breakpoint.
type breakpoint struct {
	id     int
	line   int
	target bool     // bound to a target header
	cond   ast.Cond // nil: unconditional
	log    *ast.Text
}

// errTerminated stops the run when the client terminates it.
var errTerminated = errors.New("the debugger terminated the run")

// NewServer returns a server reading requests from in and writing
// responses and events to out.
func NewServer(cfg Config, in io.Reader, out io.Writer) *Server {
	s := &Server{cfg: cfg, in: bufio.NewReader(in), out: out, bps: map[string][]*breakpoint{}, done: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	return s
}

// Serve answers requests until the client disconnects or in ends.
func (s *Server) Serve(ctx context.Context) error {
	s.ctx, s.cancel = context.WithCancel(ctx)
	defer s.cancel()
	defer s.terminate()
	for {
		msg, err := godap.ReadProtocolMessage(s.in)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			var fe *godap.DecodeProtocolMessageFieldError
			if errors.As(err, &fe) {
				// an unknown request: answer it unsupported and go on
				// (FieldValue is the unknown command's name when the
				// command field is what could not be decoded)
				name := fe.SubType
				if fe.FieldName == "command" && fe.FieldValue != "" {
					name = fe.FieldValue
				}
				s.send(&godap.ErrorResponse{Response: s.response(fe.Seq, name, false, "unsupported request "+name)})
				continue
			}
			return err
		}
		if disconnect := s.dispatch(msg); disconnect {
			return nil
		}
	}
}

// send writes one message.
func (s *Server) send(m godap.Message) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.seq++
	switch t := m.(type) {
	case godap.ResponseMessage:
		t.GetResponse().Seq = s.seq
	case godap.EventMessage:
		t.GetEvent().Seq = s.seq
	}
	_ = godap.WriteProtocolMessage(s.out, m)
}

func (s *Server) response(reqSeq int, command string, ok bool, msg string) godap.Response {
	return godap.Response{ProtocolMessage: godap.ProtocolMessage{Type: "response"}, RequestSeq: reqSeq, Command: command, Success: ok, Message: msg}
}

func event(name string) godap.Event {
	return godap.Event{ProtocolMessage: godap.ProtocolMessage{Type: "event"}, Event: name}
}

func (s *Server) fail(r *godap.Request, msg string) {
	s.send(&godap.ErrorResponse{Response: s.response(r.Seq, r.Command, false, msg),
		Body: godap.ErrorResponseBody{Error: &godap.ErrorMessage{Id: 1, Format: msg, ShowUser: true}}})
}

func (s *Server) ok(r *godap.Request) godap.Response { return s.response(r.Seq, r.Command, true, "") }

// output sends text to the client's debug console.
func (s *Server) output(category, text string) {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	s.send(&godap.OutputEvent{Event: event("output"), Body: godap.OutputEventBody{Category: category, Output: text}})
}

// dispatch handles one request; it reports whether the session ends.
func (s *Server) dispatch(msg godap.Message) bool {
	switch r := msg.(type) {
	case *godap.InitializeRequest:
		s.send(&godap.InitializeResponse{Response: s.ok(&r.Request), Body: godap.Capabilities{
			SupportsConfigurationDoneRequest: true,
			SupportsConditionalBreakpoints:   true,
			SupportsLogPoints:                true,
			SupportsEvaluateForHovers:        true,
			SupportTerminateDebuggee:         true,
			SupportsTerminateRequest:         true,
		}})
		s.send(&godap.InitializedEvent{Event: event("initialized")})
	case *godap.LaunchRequest:
		s.launch(r)
	case *godap.SetBreakpointsRequest:
		s.setBreakpoints(r)
	case *godap.SetExceptionBreakpointsRequest:
		s.send(&godap.SetExceptionBreakpointsResponse{Response: s.ok(&r.Request)})
	case *godap.ConfigurationDoneRequest:
		s.send(&godap.ConfigurationDoneResponse{Response: s.ok(&r.Request)})
		s.mu.Lock()
		s.confDone = true
		s.mu.Unlock()
		s.start()
	case *godap.ThreadsRequest:
		s.send(&godap.ThreadsResponse{Response: s.ok(&r.Request), Body: godap.ThreadsResponseBody{Threads: []godap.Thread{{Id: 1, Name: "skill"}}}})
	case *godap.StackTraceRequest:
		s.stackTrace(r)
	case *godap.ScopesRequest:
		s.scopes(r)
	case *godap.VariablesRequest:
		s.variables(r)
	case *godap.EvaluateRequest:
		s.evaluate(r)
	case *godap.SourceRequest:
		s.source(r)
	case *godap.ContinueRequest:
		s.resume(modeRun)
		s.send(&godap.ContinueResponse{Response: s.ok(&r.Request), Body: godap.ContinueResponseBody{AllThreadsContinued: true}})
	case *godap.NextRequest:
		s.resume(modeNext)
		s.send(&godap.NextResponse{Response: s.ok(&r.Request)})
	case *godap.StepInRequest:
		s.resume(modeIn)
		s.send(&godap.StepInResponse{Response: s.ok(&r.Request)})
	case *godap.StepOutRequest:
		s.resume(modeOut)
		s.send(&godap.StepOutResponse{Response: s.ok(&r.Request)})
	case *godap.PauseRequest:
		s.mu.Lock()
		s.pauseReq = true
		s.mu.Unlock()
		s.send(&godap.PauseResponse{Response: s.ok(&r.Request)})
	case *godap.TerminateRequest:
		s.terminate()
		s.send(&godap.TerminateResponse{Response: s.ok(&r.Request)})
	case *godap.DisconnectRequest:
		s.terminate()
		<-s.doneOrNil()
		s.send(&godap.DisconnectResponse{Response: s.ok(&r.Request)})
		return true
	case godap.RequestMessage:
		req := r.GetRequest()
		s.fail(req, "unsupported request "+req.Command)
	}
	return false
}

// doneOrNil is closed when the run is over (at once when none started).
func (s *Server) doneOrNil() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running {
		c := make(chan struct{})
		close(c)
		return c
	}
	return s.done
}

func (s *Server) launch(r *godap.LaunchRequest) {
	var args LaunchArgs
	if err := json.Unmarshal(r.Arguments, &args); err != nil {
		s.fail(&r.Request, "launch arguments: "+err.Error())
		return
	}
	if args.Program == "" && args.Trace == "" {
		s.fail(&r.Request, `launch: "program" (the skill's path) or "trace" (a trace id to replay) is required`)
		return
	}
	if s.cfg.Launch == nil {
		s.fail(&r.Request, "launch: this server cannot run skills")
		return
	}
	p, err := s.cfg.Launch(s.ctx, args)
	if err != nil {
		s.fail(&r.Request, "launch: "+err.Error())
		return
	}
	p.Runner.Debug = s
	if !args.NoDebug {
		// stopping must not run into the deadline of the whole run
		p.Runner.MaxDeadline = 0
	}
	s.mu.Lock()
	s.launched, s.args = p, args
	s.mu.Unlock()
	s.send(&godap.LaunchResponse{Response: s.ok(&r.Request)})
	for _, n := range p.Notes {
		s.output("console", n)
	}
	s.start()
}

// start runs the launched program once both launch and
// configurationDone have arrived.
func (s *Server) start() {
	s.mu.Lock()
	if s.launched == nil || !s.confDone || s.running || s.terminated {
		s.mu.Unlock()
		return
	}
	s.running = true
	p := s.launched
	s.mu.Unlock()
	prev := p.Runner.Progress
	p.Runner.Progress = func(ev eval.Event) {
		if ev.Kind == "emit" {
			s.output("stdout", ev.Detail)
		}
		if prev != nil {
			prev(ev)
		}
	}
	go s.run(p)
}

func (s *Server) run(p *Program) {
	defer close(s.done)
	if p.Close != nil {
		defer p.Close()
	}
	res, err := p.Runner.Run(s.ctx, p.File, p.Info, p.Inputs)
	code := 0
	switch {
	case err != nil:
		s.output("stderr", "skillc: "+err.Error())
		code = 2
	case res.Failed():
		code = 1
		for _, e := range res.Errors {
			where := ""
			if e.Range != nil {
				where = fmt.Sprintf("line %d: ", e.Range.Line)
			}
			s.output("stderr", fmt.Sprintf("%s%s: %s", where, e.Kind, e.Message))
		}
	}
	if res != nil {
		s.output("console", fmt.Sprintf("skill %s finished: %s", res.Skill, orDash(res.Status)))
	}
	s.send(&godap.ExitedEvent{Event: event("exited"), Body: godap.ExitedEventBody{ExitCode: code}})
	s.send(&godap.TerminatedEvent{Event: event("terminated")})
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// terminate stops the run at its next step and releases a stopped run.
func (s *Server) terminate() {
	s.mu.Lock()
	s.terminated = true
	s.stopped = false
	s.cond.Broadcast()
	s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// resume continues a stopped run in mode.
func (s *Server) resume(mode int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mode = mode
	if n := len(s.stack); n > 0 {
		s.stepDepth = n - 1
	}
	s.stopped = false
	s.cond.Broadcast()
}

// Stop implements eval.Debugger: it decides whether the run stops at p
// and, when it does, waits until the client resumes it.
func (s *Server) Stop(p *eval.Point) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.terminated {
		return errTerminated
	}
	switch p.Kind {
	case eval.PointSkill:
		s.stack = append(s.stack[:min(p.Depth, len(s.stack))], p)
		return nil
	case eval.PointDone:
		s.stack = s.stack[:min(p.Depth, len(s.stack))]
		return nil
	}
	s.stack = append(s.stack[:min(p.Depth, len(s.stack))], p)
	if s.args.NoDebug {
		return nil
	}
	reason := ""
	var hit []int
	switch {
	case s.pauseReq:
		reason = "pause"
	case s.args.StopOnEntry && !s.entryDone:
		reason = "entry"
	case s.mode == modeIn:
		reason = "step"
	case s.mode == modeNext && p.Depth <= s.stepDepth:
		reason = "step"
	case s.mode == modeOut && (p.Depth < s.stepDepth || s.stepDepth == 0 && p.Kind == eval.PointTarget):
		reason = "step"
	}
	s.entryDone = true
	// logpoints log, and conditions are tested, whether or not the run
	// also stops here for a step
	for _, b := range s.breakpointsAt(p) {
		if b.cond != nil {
			ok, err := p.Cond(b.cond)
			if err != nil {
				s.output("console", fmt.Sprintf("line %d: the breakpoint's condition failed: %v", b.line, err))
				ok = true
			}
			if !ok {
				continue
			}
		}
		if b.log != nil {
			text, err := p.Render(b.log)
			if err != nil {
				text = fmt.Sprintf("line %d: logpoint: %v", b.line, err)
			}
			s.output("console", text)
			continue
		}
		hit = append(hit, b.id)
		if reason == "" {
			reason = "breakpoint"
		}
	}
	if reason == "" {
		return nil
	}
	s.stopped, s.pauseReq, s.mode = true, false, modeRun
	s.refs, s.nextRef = map[int]any{}, refDynamic
	s.send(&godap.StoppedEvent{Event: event("stopped"), Body: godap.StoppedEventBody{
		Reason: reason, ThreadId: 1, AllThreadsStopped: true, HitBreakpointIds: hit}})
	for s.stopped && !s.terminated {
		s.cond.Wait()
	}
	if s.terminated {
		return errTerminated
	}
	return nil
}

// breakpointsAt returns the breakpoints bound to p's line in p's file.
func (s *Server) breakpointsAt(p *eval.Point) []*breakpoint {
	var out []*breakpoint
	for path, list := range s.bps {
		if !sameSource(path, p) {
			continue
		}
		for _, b := range list {
			if b.line == p.Line && b.target == (p.Kind == eval.PointTarget) {
				out = append(out, b)
			}
		}
	}
	return out
}

// sameSource reports whether the breakpoints of path apply to p's skill:
// the same file, or (a child skill read from a store) a file named after
// the skill.
func sameSource(path string, p *eval.Point) bool {
	if p.File != nil && p.File.Name != "" && cleanPath(p.File.Name) == path {
		return true
	}
	return p.Depth > 0 && strings.TrimSuffix(filepath.Base(path), ".skill.md") == p.Skill
}

func cleanPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	return filepath.Clean(p)
}

func (s *Server) setBreakpoints(r *godap.SetBreakpointsRequest) {
	path := r.Arguments.Source.Path
	out := []godap.Breakpoint{}
	var list []*breakpoint
	src, err := os.ReadFile(path)
	var lines []stopLine
	if err == nil {
		f := workspace.Parse(path, src).File
		lines = stopLines(f)
	}
	s.mu.Lock()
	for _, sb := range r.Arguments.Breakpoints {
		s.bpID++
		bp := godap.Breakpoint{Id: s.bpID, Source: &r.Arguments.Source, Line: sb.Line}
		at, ok := place(lines, sb.Line)
		switch {
		case err != nil:
			bp.Message = "cannot read " + path + ": " + err.Error()
		case !ok:
			bp.Message = fmt.Sprintf("no target or statement at or after line %d", sb.Line)
		default:
			b := &breakpoint{id: s.bpID, line: at.line, target: at.target}
			bp.Line, bp.Verified = at.line, true
			if c := strings.TrimSpace(sb.Condition); c != "" {
				if b.cond, err = parseCond(c); err != nil {
					bp.Verified, bp.Message, err = false, err.Error(), nil
					break
				}
			}
			if sb.LogMessage != "" {
				if b.log, err = parseText(sb.LogMessage); err != nil {
					bp.Verified, bp.Message, err = false, err.Error(), nil
					break
				}
			}
			list = append(list, b)
		}
		out = append(out, bp)
	}
	s.bps[cleanPath(path)] = list
	s.mu.Unlock()
	s.send(&godap.SetBreakpointsResponse{Response: s.ok(&r.Request), Body: godap.SetBreakpointsResponseBody{Breakpoints: out}})
}

// Frame ids: depth*frameStride + 1 is the current frame of the skill at
// that depth, + 2, 3, ... the targets of its chain toward the goal.
// Variables references below refDynamic name a scope of a depth; above,
// a structured value shown at this stop.
const (
	frameStride = 1000
	refDynamic  = 1 << 20
)

// Scope kinds, in the order shown (an editor expands the first: the
// innermost that has variables).
var scopeKinds = []struct{ name, kind string }{
	{"Loop", eval.VarLoop}, {"Bound", eval.VarBound}, {"Vars", eval.VarInput}, {"Targets", eval.VarOutput},
}

func (s *Server) stackTrace(r *godap.StackTraceRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	frames := []godap.StackFrame{}
	if s.stopped {
		for d := len(s.stack) - 1; d >= 0; d-- {
			p := s.stack[d]
			src := s.sourceOf(p.File)
			name := p.Skill
			if p.Target != nil {
				name += " › " + p.Target.Name.Name
			}
			if d < len(s.stack)-1 {
				name += " (execute_skill)"
			}
			frames = append(frames, godap.StackFrame{Id: d*frameStride + 1, Name: name, Source: src, Line: p.Line, Column: 1})
			for i, t := range chain(p.Info, p.Target) {
				frames = append(frames, godap.StackFrame{Id: d*frameStride + 2 + i, Name: p.Skill + " › " + t.Name.Name + " (needs)",
					Source: src, Line: p.File.Lines.Position(t.Pos()).Line, Column: 1, PresentationHint: "subtle"})
			}
		}
	}
	s.send(&godap.StackTraceResponse{Response: s.ok(&r.Request), Body: godap.StackTraceResponseBody{StackFrames: frames, TotalFrames: len(frames)}})
}

// sourceOf describes f: its path when it is a file on disk, else a
// source reference the client reads with a source request.
func (s *Server) sourceOf(f *ast.File) *godap.Source {
	if f == nil {
		return nil
	}
	if f.Name != "" {
		if st, err := os.Stat(f.Name); err == nil && st.Mode().IsRegular() {
			return &godap.Source{Name: filepath.Base(f.Name), Path: cleanPath(f.Name)}
		}
	}
	for i, g := range s.sources {
		if g == f {
			return &godap.Source{Name: f.Name, SourceReference: i + 1}
		}
	}
	s.sources = append(s.sources, f)
	return &godap.Source{Name: f.Name, SourceReference: len(s.sources)}
}

func (s *Server) source(r *godap.SourceRequest) {
	s.mu.Lock()
	ref := r.Arguments.SourceReference
	var f *ast.File
	if ref > 0 && ref <= len(s.sources) {
		f = s.sources[ref-1]
	}
	s.mu.Unlock()
	if f == nil {
		s.fail(&r.Request, "unknown source reference "+strconv.Itoa(ref))
		return
	}
	s.send(&godap.SourceResponse{Response: s.ok(&r.Request), Body: godap.SourceResponseBody{Content: string(f.Src), MimeType: "text/markdown"}})
}

// framePoint returns the point of the frame id, and whether it is the
// skill's current frame (not one of its chain).
func (s *Server) framePoint(id int) (*eval.Point, bool) {
	d := id / frameStride
	if !s.stopped || d < 0 || d >= len(s.stack) {
		return nil, false
	}
	return s.stack[d], id%frameStride == 1
}

func (s *Server) scopes(r *godap.ScopesRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []godap.Scope{}
	if p, cur := s.framePoint(r.Arguments.FrameId); p != nil && cur {
		d := r.Arguments.FrameId / frameStride
		vars := p.Vars()
		for k, sk := range scopeKinds {
			n := 0
			for _, v := range vars {
				if v.Kind == sk.kind {
					n++
				}
			}
			if n == 0 && sk.kind == eval.VarLoop {
				continue
			}
			out = append(out, godap.Scope{Name: sk.name, VariablesReference: d*len(scopeKinds) + k + 1, NamedVariables: n})
		}
	}
	s.send(&godap.ScopesResponse{Response: s.ok(&r.Request), Body: godap.ScopesResponseBody{Scopes: out}})
}

func (s *Server) variables(r *godap.VariablesRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []godap.Variable{}
	ref := r.Arguments.VariablesReference
	switch {
	case !s.stopped:
	case ref >= refDynamic:
		switch v := s.refs[ref].(type) {
		case []any:
			for i, e := range v {
				out = append(out, s.variable("["+strconv.Itoa(i)+"]", e))
			}
		case *value.Object:
			for k, e := range v.All() {
				out = append(out, s.variable(k, e))
			}
		}
	case ref > 0:
		d, k := (ref-1)/len(scopeKinds), (ref-1)%len(scopeKinds)
		if d < len(s.stack) {
			for _, v := range s.stack[d].Vars() {
				if v.Kind == scopeKinds[k].kind {
					out = append(out, s.variable(v.Name, v.Value))
				}
			}
		}
	}
	s.send(&godap.VariablesResponse{Response: s.ok(&r.Request), Body: godap.VariablesResponseBody{Variables: out}})
}

// variable shows one value, giving a structured one a reference to its
// children.
func (s *Server) variable(name string, v any) godap.Variable {
	out := godap.Variable{Name: name, Value: display(v), Type: value.TypeName(v)}
	switch t := v.(type) {
	case []any:
		if len(t) > 0 {
			out.VariablesReference, out.IndexedVariables = s.ref(v), len(t)
		}
	case *value.Object:
		if t.Len() > 0 {
			out.VariablesReference, out.NamedVariables = s.ref(v), t.Len()
		}
	}
	return out
}

func (s *Server) ref(v any) int {
	s.nextRef++
	s.refs[s.nextRef] = v
	return s.nextRef
}

// display is a value as the Variables view shows it: strings quoted,
// others in their substitution form, the secret marker as it is.
func display(v any) string {
	if str, ok := v.(string); ok {
		if str == eval.SecretMarker {
			return str
		}
		return strconv.Quote(str)
	}
	out := value.String(v)
	if len(out) > 200 {
		out = out[:200] + "…"
	}
	return out
}

func (s *Server) evaluate(r *godap.EvaluateRequest) {
	expr := strings.TrimSpace(r.Arguments.Expression)
	if !strings.Contains(expr, "${") {
		expr = "${" + expr + "}"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	p, _ := s.framePoint(r.Arguments.FrameId)
	if p == nil && s.stopped && len(s.stack) > 0 {
		p = s.stack[len(s.stack)-1]
	}
	if p == nil {
		s.fail(&r.Request, "evaluate: the run is not stopped")
		return
	}
	t, err := parseText(expr)
	if err != nil {
		s.fail(&r.Request, err.Error())
		return
	}
	out, err := p.Render(t)
	if err != nil {
		s.fail(&r.Request, err.Error())
		return
	}
	s.send(&godap.EvaluateResponse{Response: s.ok(&r.Request), Body: godap.EvaluateResponseBody{Result: out}})
}
