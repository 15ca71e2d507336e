package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillscript/skillc/ast"
	"github.com/skillscript/skillc/check"
	"github.com/skillscript/skillc/check/effects"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/eval/host"
	"github.com/skillscript/skillc/eval/substrate/skillstore"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/leaf/config"
	"github.com/skillscript/skillc/internal/skillcli"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/urfave/cli/v2"
)

// approvalCommands are the operator's approval commands (docs/approval.md).
func approvalCommands(s *streams) []*cli.Command {
	return []*cli.Command{
		keygenCommand(s), approveCommand(s), verifyCommand(s), signCommand(s),
		reapproveCommand(s), listCommand(s), deleteCommand(s), hostCommand(s, "dashboard"),
	}
}

// opEnv is what the approval commands share: the configuration, the key
// files and the skill store.
type opEnv struct {
	cfg   *config.Config
	mut   effects.Mutating // connectors.json's mutating declarations
	keys  approval.KeyPaths
	store contract.SkillStore
}

func newOpEnv(c *cli.Context) (*opEnv, error) {
	env := newEnvCache(c).forFile(".")
	e := &opEnv{cfg: env.Config, keys: host.KeyPaths(), mut: env.Mutating()}
	st, err := skillcli.SkillStore(c, env.Config)
	if err != nil {
		return nil, err
	}
	e.store = st
	return e, nil
}

// skillRef is a skill named on the command line: a file, or a name in the
// skill store.
type skillRef struct {
	Name string
	Path string // the file, or "" for a store skill
	Src  []byte
}

// isFileArg reports whether arg names a file rather than a stored skill.
func isFileArg(arg string) bool {
	if strings.ContainsRune(arg, filepath.Separator) || strings.HasSuffix(arg, ".skill.md") {
		return true
	}
	st, err := os.Stat(arg)
	return err == nil && st.Mode().IsRegular()
}

func (e *opEnv) resolve(ctx context.Context, arg string) (*skillRef, error) {
	if isFileArg(arg) {
		src := readSource(arg, nil)
		if src.Err != nil {
			return nil, fmt.Errorf("%s: %v", arg, errNoFile(src.Err))
		}
		name := skillstore.Headers(string(src.Src))["Skill"]
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(arg), ".skill.md")
		}
		return &skillRef{Name: name, Path: arg, Src: src.Src}, nil
	}
	if e.store != nil {
		rec, err := e.store.Get(ctx, arg)
		if err != nil {
			return nil, err
		}
		if rec != nil {
			return &skillRef{Name: rec.Name, Src: []byte(rec.Body)}, nil
		}
	}
	// as skillc run finds sibling skills in the skill's folder, a name not
	// in the store is looked for in the current folder
	if path := siblingSkill(".", arg); path != "" {
		return e.resolve(ctx, path)
	}
	if e.store == nil {
		return nil, fmt.Errorf("%s: no skill store configured and no %s.skill.md here (pass --skills DIR or a file path)", arg, arg)
	}
	return nil, fmt.Errorf("skill %q not found in %s nor in the current folder (pass its file path)", arg, e.cfg.SkillsDir)
}

// siblingSkill returns the file in dir that defines skill name:
// NAME.skill.md, else the *.skill.md whose # Skill: header is name; "".
func siblingSkill(dir, name string) string {
	if name == "" || strings.ContainsAny(name, `/\`) {
		return ""
	}
	if p := filepath.Join(dir, name+".skill.md"); isRegular(p) {
		return p
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.skill.md"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err == nil && skillstore.Headers(string(src))["Skill"] == name {
			return f
		}
	}
	return ""
}

func isRegular(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// where names the skill for messages.
func (r *skillRef) where() string {
	if r.Path != "" {
		return r.Path
	}
	return r.Name
}

// setStatus rewrites the skill's # Status: line, atomically: the file
// through a rename, a stored skill through the store.
func (e *opEnv) setStatus(ctx context.Context, r *skillRef, status string) error {
	if r.Path != "" {
		return writeFileKeepMode(r.Path, approval.Stamp(r.Src, status))
	}
	return e.store.UpdateStatus(ctx, r.Name, status)
}

// reload reads the skill back after a write.
func (e *opEnv) reload(ctx context.Context, r *skillRef) (*skillRef, error) {
	if r.Path != "" {
		return e.resolve(ctx, r.Path)
	}
	return e.resolve(ctx, r.Name)
}

// parsed is a skill's AST and facts; parse errors refuse approval.
func parsed(r *skillRef) (*ast.File, *check.Info, error) {
	u := workspace.Parse(r.where(), r.Src)
	f := u.File
	for _, d := range u.Parsed {
		if d.Severity == ast.Error {
			p := f.Lines.Position(d.Range.From)
			return nil, nil, fmt.Errorf("%s:%d:%d: %s: fix the skill before approving it", r.where(), p.Line, p.Column, d.Message)
		}
	}
	return f, u.Info, nil
}

func keygenCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "keygen",
		Usage: "create the operator's Ed25519 approval key pair (SKILLSCRIPT_APPROVAL_KEY_FILE, ..._PUBLIC_KEY_FILE)",
		Flags: append([]cli.Flag{&cli.BoolFlag{Name: "force", Usage: "replace an existing key pair (every signed skill then needs re-approval)"}}, configFlags()...),
		Action: func(c *cli.Context) error {
			e, err := newOpEnv(c)
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			pub, err := approval.GenerateKeys(e.keys, c.Bool("force"))
			if err != nil {
				return cli.Exit(err.Error(), exitFindings)
			}
			fmt.Fprintf(s.out, "private key: %s (0600; keep it outside SKILLSCRIPT_HOME and off the filesystem allowlist)\npublic key:  %s\nfingerprint: %s\n", e.keys.Private, e.keys.Public, approval.Fingerprint(pub))
			return nil
		},
	}
}

func approveCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "approve",
		Usage:     "review a skill (body and effectful footprint) and sign it: # Status: Approved v3:<signature>",
		ArgsUsage: "NAME|FILE",
		Flags:     append([]cli.Flag{&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "sign without the confirmation prompt"}}, configFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return cli.Exit("approve takes exactly one NAME or FILE", exitUsage)
			}
			e, err := newOpEnv(c)
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			return e.approve(c, s, c.Args().First())
		},
	}
}

func (e *opEnv) approve(c *cli.Context, s *streams, arg string) error {
	r, err := e.resolve(c.Context, arg)
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	f, info, err := parsed(r)
	if err != nil {
		return cli.Exit(err.Error(), exitFindings)
	}
	if err := signable(r); err != nil {
		return cli.Exit(err.Error(), exitFindings)
	}
	printReview(s, r, effects.Of(f, info, e.mut))
	if !c.Bool("yes") {
		if err := confirm(s, r.Name); err != nil {
			return cli.Exit(err.Error(), exitFindings)
		}
	}
	priv, err := approval.LoadPrivateKey(e.keys.Private)
	if errors.Is(err, os.ErrNotExist) && offerKeygen(s, e.keys) {
		priv, err = approval.LoadPrivateKey(e.keys.Private)
	}
	if err != nil {
		return cli.Exit(keyHint(err), exitFindings)
	}
	fp, err := e.signAndCheck(c.Context, r, priv)
	if err != nil {
		return cli.Exit(err.Error(), exitFindings)
	}
	fmt.Fprintf(s.out, "approved %s: signed with key %s\n", r.where(), fp)
	return nil
}

// signable refuses a skill no signature can cover (a # Status:/# Tags:
// look-alike outside the header region, odd white space before '#').
func signable(r *skillRef) error {
	if err := unsignable(r); err != nil {
		return fmt.Errorf("%s: %v", r.where(), err)
	}
	return nil
}

func unsignable(r *skillRef) error {
	if err := approval.CheckSignable(r.Src); err != nil {
		return fmt.Errorf("%v: remove or reword it before approving", err)
	}
	return nil
}

// signAndCheck stamps the signature and verifies what was written.
func (e *opEnv) signAndCheck(ctx context.Context, r *skillRef, priv []byte) (string, error) {
	if err := unsignable(r); err != nil {
		return "", err
	}
	token := approval.Sign(priv, r.Src)
	if err := e.setStatus(ctx, r, contract.StatusApproved+" "+token); err != nil {
		return "", err
	}
	back, err := e.reload(ctx, r)
	if err != nil {
		return "", err
	}
	pub := approval.PublicKeyOf(priv)
	f := workspace.Parse(back.where(), back.Src).File
	if err := approval.CheckStamped(f, pub, token); err != nil {
		return "", fmt.Errorf("%s after signing: %v", r.where(), err)
	}
	return approval.Fingerprint(pub), nil
}

// printReview shows what the operator is about to sign.
func printReview(s *streams, r *skillRef, fp *effects.Footprint) {
	fmt.Fprintf(s.out, "──── %s ────\n%s", r.where(), r.Src)
	if len(r.Src) > 0 && r.Src[len(r.Src)-1] != '\n' {
		fmt.Fprintln(s.out)
	}
	fmt.Fprintf(s.out, "──── effectful footprint: %d op(s) ────\n", len(fp.Effects))
	for _, line := range fp.Summary() {
		fmt.Fprintf(s.out, "  %s\n", line)
	}
	if len(fp.Effects) == 0 {
		fmt.Fprintln(s.out, "  (none: the skill performs no effects)")
	}
}

// confirm asks on the terminal; without one, --yes is required.
func confirm(s *streams, name string) error {
	if f, ok := s.in.(*os.File); !ok || !isTerminal(f) {
		return errors.New("standard input is not a terminal: review the output above and pass --yes to sign")
	}
	fmt.Fprintf(s.err, "sign %s with the operator key? [y/N] ", name)
	line, _ := bufio.NewReader(s.in).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return errors.New("not approved")
	}
	return nil
}

// offerKeygen asks, on a terminal only, whether to create the missing
// key pair, and creates it; it reports whether a key pair now exists.
func offerKeygen(s *streams, keys approval.KeyPaths) bool {
	if f, ok := s.in.(*os.File); !ok || !isTerminal(f) {
		return false
	}
	fmt.Fprintf(s.err, "no approval key at %s: create the key pair now (as skillc keygen does)? [y/N] ", keys.Private)
	line, _ := bufio.NewReader(s.in).ReadString('\n')
	if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
		return false
	}
	pub, err := approval.GenerateKeys(keys, false)
	if err != nil {
		fmt.Fprintln(s.err, "skillc:", err)
		return false
	}
	fmt.Fprintf(s.err, "created %s (0600) and %s, fingerprint %s\n", keys.Private, keys.Public, approval.Fingerprint(pub))
	return true
}

// keyHint adds the way out to a key loading error.
func keyHint(err error) string {
	if errors.Is(err, os.ErrNotExist) {
		return err.Error() + ": create the key pair with skillc keygen"
	}
	return err.Error()
}
