package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/substrate/mcp/internal/lspframe"
	"github.com/skillscript/skillc/eval/toolcache"
)

// DefaultInitTimeout bounds the initialize handshake of a spawned server.
const DefaultInitTimeout = 30 * time.Second

// StdioOptions configures a Stdio connector.
type StdioOptions struct {
	Name    string // connector name, used in errors and the cache key
	Command string // looked up on PATH
	Args    []string
	Env     map[string]string // added to the inherited environment
	Dir     string
	// Framing is "newline" (default) or "lsp".
	Framing     string
	InitTimeout time.Duration // 0 means DefaultInitTimeout
	CallTimeout time.Duration // 0 means only the caller's context bounds calls
	// TerminateGrace is how long Close waits after closing stdin before
	// signalling the child; 0 means 2s.
	TerminateGrace time.Duration
	Cache          toolcache.Cache
	StaticTools    []contract.Tool
}

// Stdio is a contract.Connector for an MCP server spawned as a child
// process. The child starts on first use, is restarted after it dies, and
// is reaped by Close.
type Stdio struct {
	opts   StdioOptions
	client *sdk.Client
	disc   *discovery

	mu     sync.Mutex
	cs     *sdk.ClientSession
	cmd    *exec.Cmd
	stderr *tailBuffer
	closed bool
}

var _ contract.Connector = (*Stdio)(nil)

// NewStdio returns a connector; nothing is spawned until first use.
func NewStdio(opts StdioOptions) *Stdio {
	if opts.InitTimeout <= 0 {
		opts.InitTimeout = DefaultInitTimeout
	}
	if opts.TerminateGrace <= 0 {
		opts.TerminateGrace = 2 * time.Second
	}
	if opts.Framing == "" {
		opts.Framing = "newline"
	}
	key := toolcache.Key(opts.Name, append([]string{"stdio", opts.Command, opts.Framing}, opts.Args...)...)
	return &Stdio{
		opts:   opts,
		client: sdk.NewClient(&sdk.Implementation{Name: "skillc", Version: "v1"}, nil),
		disc:   &discovery{cache: opts.Cache, key: key, name: opts.Name, static: opts.StaticTools},
	}
}

// session returns the live session, spawning the server when needed.
func (s *Stdio) session(ctx context.Context) (*sdk.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("connector %s is closed", s.opts.Name)
	}
	if s.cs != nil {
		return s.cs, nil
	}
	cs, cmd, err := s.spawn(ctx)
	if err != nil {
		return nil, err
	}
	s.cs, s.cmd = cs, cmd
	go s.watch(cs)
	return cs, nil
}

// watch drops the session once the server goes away so the next call
// respawns it.
func (s *Stdio) watch(cs *sdk.ClientSession) {
	cs.Wait()
	s.mu.Lock()
	var cmd *exec.Cmd
	if s.cs == cs {
		cmd = s.cmd
		s.cs, s.cmd = nil, nil
	}
	s.mu.Unlock()
	cs.Close()
	if cmd != nil && cmd.Process != nil {
		killProcessGroup(cmd.Process.Pid) // what the dead server left behind
	}
}

func (s *Stdio) spawn(ctx context.Context) (*sdk.ClientSession, *exec.Cmd, error) {
	path, err := exec.LookPath(s.opts.Command)
	if err != nil {
		return nil, nil, fmt.Errorf("connector %s: command %q not found on PATH: %w", s.opts.Name, s.opts.Command, err)
	}
	cmd := exec.Command(path, s.opts.Args...)
	cmd.Dir = s.opts.Dir
	cmd.Env = mergeEnv(os.Environ(), s.opts.Env)
	s.stderr = &tailBuffer{max: 4096}
	cmd.Stderr = s.stderr
	// Its own process group, killed whole when the session ends; and once
	// the server itself has exited, a grandchild holding stderr open does
	// not keep Wait (and shutdown) waiting.
	setProcessGroup(cmd)
	cmd.WaitDelay = 100 * time.Millisecond
	t, err := s.transport(cmd)
	if err != nil {
		return nil, nil, err
	}
	ictx, cancel := context.WithTimeout(ctx, s.opts.InitTimeout)
	defer cancel()
	cs, err := s.client.Connect(ictx, t, nil)
	if err != nil {
		if cmd.Process != nil {
			killProcessGroup(cmd.Process.Pid)
		}
		reap(cmd, s.opts.TerminateGrace)
		return nil, nil, s.initError(ctx, ictx, err)
	}
	return cs, cmd, nil
}

func (s *Stdio) transport(cmd *exec.Cmd) (sdk.Transport, error) {
	if s.opts.Framing != "lsp" {
		return &sdk.CommandTransport{Command: cmd, TerminateDuration: s.opts.TerminateGrace}, nil
	}
	return newLSPProcess(cmd, s.opts.TerminateGrace)
}

func (s *Stdio) initError(ctx, ictx context.Context, err error) error {
	if ctx.Err() == nil && errors.Is(ictx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("connector %s: server %q did not complete initialize within %s; check config.framing (this connector uses %q framing, most servers use \"newline\")%s",
			s.opts.Name, s.opts.Command, s.opts.InitTimeout, s.opts.Framing, s.stderr.suffix())
	}
	return fmt.Errorf("connector %s: start %q: %w%s; if the server speaks the other stdio framing, set config.framing (now %q)",
		s.opts.Name, s.opts.Command, err, s.stderr.suffix(), s.opts.Framing)
}

// Call invokes a tool.
func (s *Stdio) Call(ctx context.Context, tool string, args map[string]any) (any, error) {
	cs, err := s.session(ctx)
	if err != nil {
		return nil, err
	}
	return callTool(ctx, cs, s.opts.Name, tool, args, s.opts.CallTimeout, s.stderr.suffix)
}

// Tools lists the server's tools under the cache freshness rule.
func (s *Stdio) Tools(ctx context.Context) ([]contract.Tool, error) {
	return s.disc.tools(ctx, s.fetchTools)
}

// HealthCheck spawns the server when needed and pings it.
func (s *Stdio) HealthCheck(ctx context.Context) error {
	cs, err := s.session(ctx)
	if err != nil {
		return err
	}
	if err := cs.Ping(ctx, nil); err != nil {
		return fmt.Errorf("connector %s: ping: %w", s.opts.Name, err)
	}
	return nil
}

// PID returns the child's process id, or 0 when no child is running.
func (s *Stdio) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Kill ends the server at once: its whole process group is killed, then
// the session is closed. A run cut off by its deadline or a signal shuts
// down through Kill, so shutdown does not wait out a hanging server.
func (s *Stdio) Kill() error {
	s.mu.Lock()
	cmd := s.cmd
	s.mu.Unlock()
	if cmd != nil && cmd.Process != nil {
		killProcessGroup(cmd.Process.Pid)
	}
	return s.Close()
}

// Close ends the session and reaps the child. It is idempotent.
func (s *Stdio) Close() error {
	s.mu.Lock()
	cs, cmd := s.cs, s.cmd
	s.cs, s.cmd, s.closed = nil, nil, true
	s.mu.Unlock()
	if cs == nil {
		return nil
	}
	err := cs.Close()
	if cmd != nil {
		reap(cmd, s.opts.TerminateGrace)
		if cmd.Process != nil {
			killProcessGroup(cmd.Process.Pid) // a server behind a wrapper (sh -c, npx)
		}
	}
	if err != nil && !errors.Is(err, sdk.ErrConnectionClosed) && !isExitErr(err) {
		return fmt.Errorf("connector %s: close: %w", s.opts.Name, err)
	}
	return nil
}

func isExitErr(err error) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee)
}

// reap makes sure cmd has exited and been waited for: it waits up to
// grace, then kills.
func reap(cmd *exec.Cmd, grace time.Duration) {
	if cmd.Process == nil || cmd.ProcessState != nil {
		return
	}
	done := make(chan struct{})
	go func() {
		cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(grace):
		cmd.Process.Kill()
		<-done
	}
}

// callTool performs tools/call with an optional per-call timeout.
func callTool(ctx context.Context, cs *sdk.ClientSession, name, tool string, args map[string]any, timeout time.Duration, detail func() string) (any, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	if args == nil {
		args = map[string]any{}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("tool %s.%s: %w", name, tool, ctx.Err())
		}
		return nil, fmt.Errorf("tool %s.%s: %w%s", name, tool, err, detail())
	}
	return decodeResult(name, tool, res)
}

func listTools(ctx context.Context, cs *sdk.ClientSession) ([]contract.Tool, error) {
	var all []*sdk.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		all = append(all, t)
	}
	return toolsFromSDK(all), nil
}

func mergeEnv(base []string, extra map[string]string) []string {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := append([]string(nil), base...)
	for _, k := range keys {
		out = append(out, k+"="+extra[k])
	}
	return out
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write implements io.Writer.
func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = b.buf[len(b.buf)-b.max:]
	}
	return len(p), nil
}

// suffix renders the captured stderr for an error message.
func (b *tailBuffer) suffix() string {
	if b == nil {
		return ""
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.buf) == 0 {
		return ""
	}
	return " (server stderr: " + string(trimSpace(b.buf)) + ")"
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// lspProcess is a transport that spawns cmd and speaks LSP framing.
type lspProcess struct {
	cmd   *exec.Cmd
	grace time.Duration
}

func newLSPProcess(cmd *exec.Cmd, grace time.Duration) (*lspProcess, error) {
	return &lspProcess{cmd: cmd, grace: grace}, nil
}

// Connect starts the process.
func (p *lspProcess) Connect(ctx context.Context) (sdk.Connection, error) {
	stdin, err := p.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	return &lspProcConn{Conn: lspframe.NewConn(stdout, stdin), p: p}, nil
}

type lspProcConn struct {
	*lspframe.Conn
	p    *lspProcess
	once sync.Once
}

// Close closes the pipes and reaps the child.
func (c *lspProcConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { reap(c.p.cmd, c.p.grace) })
	return err
}
