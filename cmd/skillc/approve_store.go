package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/skillscript/skillc/check/effects"
	"github.com/skillscript/skillc/eval/contract"
	"github.com/skillscript/skillc/internal/approval"
	"github.com/skillscript/skillc/internal/workspace"
	"github.com/urfave/cli/v2"
)

func verifyCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "check a skill's approval signature against the operator's public key (exit 1 when it does not verify)",
		ArgsUsage: "NAME|FILE",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "hash", Usage: "instead, check the skill's content hash (from skillc sign --hash)"},
		}, configFlags()...),
		Action: func(c *cli.Context) error {
			e, r, err := oneSkill(c, "verify")
			if err != nil {
				return err
			}
			if want := c.String("hash"); want != "" {
				return verifyHash(s, r, want)
			}
			pub, err := approval.LoadPublicKey(e.keys.Public)
			if err != nil {
				return cli.Exit(keyHint(err), exitFindings)
			}
			if err := signatureState(r, pub); err != nil {
				return cli.Exit(fmt.Sprintf("%s: %v", r.where(), err), exitFindings)
			}
			fmt.Fprintf(s.out, "%s: signature valid (key %s)\n", r.where(), approval.Fingerprint(pub))
			return nil
		},
	}
}

// oneSkill resolves the single NAME|FILE argument of a command.
func oneSkill(c *cli.Context, cmd string) (*opEnv, *skillRef, error) {
	if c.NArg() != 1 {
		return nil, nil, cli.Exit(cmd+" takes exactly one NAME or FILE", exitUsage)
	}
	e, err := newOpEnv(c)
	if err != nil {
		return nil, nil, cli.Exit(err.Error(), exitUsage)
	}
	r, err := e.resolve(c.Context, c.Args().First())
	if err != nil {
		return nil, nil, cli.Exit(err.Error(), exitUsage)
	}
	return e, r, nil
}

func verifyHash(s *streams, r *skillRef, want string) error {
	got := approval.ContentHash(r.Src)
	if !strings.EqualFold(strings.TrimSpace(want), got) {
		return cli.Exit(fmt.Sprintf("%s: content hash %s does not match %s", r.where(), got, strings.TrimSpace(want)), exitFindings)
	}
	fmt.Fprintf(s.out, "%s: content hash matches (%s)\n", r.where(), got)
	return nil
}

// signatureState is nil when the skill is Approved with a signature that
// verifies under pub, and says why not otherwise.
func signatureState(r *skillRef, pub ed25519.PublicKey) error {
	f, _, err := parsed(r)
	if err != nil {
		return err
	}
	sv := approval.StatusOf(f)
	if sv == nil || sv.State != contract.StatusApproved {
		state := contract.StatusDraft
		if sv != nil && sv.State != "" {
			state = sv.State
		}
		return fmt.Errorf("the skill is %s, not Approved", state)
	}
	return approval.Verify(pub, r.Src, sv.Token)
}

func signCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "sign",
		Usage:     "print a skill's approval token (v3:...) without stamping it, or with --hash its content hash",
		ArgsUsage: "NAME|FILE",
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "hash", Usage: "print the content hash: sha256 of the signing input (no key needed)"},
		}, configFlags()...),
		Action: func(c *cli.Context) error {
			e, r, err := oneSkill(c, "sign")
			if err != nil {
				return err
			}
			if c.Bool("hash") {
				fmt.Fprintln(s.out, approval.ContentHash(r.Src))
				return nil
			}
			if _, _, err := parsed(r); err != nil {
				return cli.Exit(err.Error(), exitFindings)
			}
			if err := signable(r); err != nil {
				return cli.Exit(err.Error(), exitFindings)
			}
			priv, err := approval.LoadPrivateKey(e.keys.Private)
			if err != nil {
				return cli.Exit(keyHint(err), exitFindings)
			}
			fmt.Fprintln(s.out, approval.Sign(priv, r.Src))
			return nil
		},
	}
}

func reapproveCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "reapprove",
		Usage:     "list the Approved skills whose signature does not verify (all, or NAME); --apply re-signs them",
		ArgsUsage: "[NAME]",
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "apply", Usage: "re-sign the listed skills with the operator key"},
		}, configFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() > 1 {
				return cli.Exit("reapprove takes at most one NAME", exitUsage)
			}
			e, err := newOpEnv(c)
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			return e.reapprove(c, s)
		},
	}
}

func (e *opEnv) reapprove(c *cli.Context, s *streams) error {
	var priv ed25519.PrivateKey
	var pub ed25519.PublicKey
	var err error
	if c.Bool("apply") {
		if priv, err = approval.LoadPrivateKey(e.keys.Private); err != nil {
			return cli.Exit(keyHint(err), exitFindings)
		}
		pub = approval.PublicKeyOf(priv)
	} else if pub, err = approval.LoadPublicKey(e.keys.Public); err != nil {
		return cli.Exit(keyHint(err), exitFindings)
	}
	refs, err := e.storeSkills(c.Context, c.Args().First())
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	pending := 0
	for _, r := range refs {
		why := signatureState(r, pub)
		if why == nil || statusWord(r) != contract.StatusApproved {
			continue
		}
		pending++
		if priv == nil {
			fmt.Fprintf(s.out, "needs re-approval: %s: %v\n", r.Name, why)
			continue
		}
		if _, err := e.signAndCheck(c.Context, r, priv); err != nil {
			return cli.Exit(fmt.Sprintf("%s: %v", r.Name, err), exitFindings)
		}
		fmt.Fprintf(s.out, "re-signed %s (was: %v)\n", r.Name, why)
	}
	switch {
	case pending == 0:
		fmt.Fprintln(s.out, "every Approved skill verifies")
	case priv == nil:
		fmt.Fprintf(s.out, "%d skill(s) need re-approval: review them, then run skillc reapprove --apply\n", pending)
	}
	return nil
}

// statusWord is the lifecycle word of a skill's source (Draft by default).
func statusWord(r *skillRef) string {
	f := workspace.Parse(r.where(), r.Src).File
	if sv := approval.StatusOf(f); sv != nil && sv.State != "" {
		return sv.State
	}
	return contract.StatusDraft
}

// storeSkills loads every stored skill, or only name.
func (e *opEnv) storeSkills(ctx context.Context, name string) ([]*skillRef, error) {
	if e.store == nil {
		return nil, fmt.Errorf("no skill store configured (pass --skills DIR)")
	}
	if name != "" {
		r, err := e.resolve(ctx, name)
		if err != nil {
			return nil, err
		}
		return []*skillRef{r}, nil
	}
	metas, err := e.store.List(ctx, contract.SkillQuery{})
	if err != nil {
		return nil, err
	}
	out := make([]*skillRef, 0, len(metas))
	for _, m := range metas {
		rec, err := e.store.Get(ctx, m.Name)
		if err != nil || rec == nil {
			continue // removed while listing
		}
		out = append(out, &skillRef{Name: rec.Name, Src: []byte(rec.Body)})
	}
	return out, nil
}

func listCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list the skills in the store with their status and signature state",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "status", Usage: "only skills with this status (Draft, Approved, Disabled)"},
		}, configFlags()...),
		Action: func(c *cli.Context) error {
			e, err := newOpEnv(c)
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			return e.list(c, s)
		},
	}
}

func (e *opEnv) list(c *cli.Context, s *streams) error {
	want := ""
	if st := c.String("status"); st != "" {
		canon, ok := contract.CanonicalStatus(st)
		if !ok {
			return cli.Exit(fmt.Sprintf("--status %q: want Draft, Approved or Disabled", st), exitUsage)
		}
		want = canon
	}
	refs, err := e.storeSkills(c.Context, "")
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	pub, keyErr := approval.LoadPublicKey(e.keys.Public)
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATUS\tSIGNATURE")
	for _, r := range refs {
		word := statusWord(r)
		if want != "" && word != want {
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, word, signatureColumn(r, word, pub, keyErr))
	}
	return tw.Flush()
}

// signatureColumn summarizes a skill's signature for skillc list.
func signatureColumn(r *skillRef, word string, pub ed25519.PublicKey, keyErr error) string {
	if word != contract.StatusApproved {
		return "-"
	}
	if keyErr != nil {
		return "unverified (no public key)"
	}
	switch err := signatureState(r, pub); err.(type) {
	case nil:
		return "valid"
	case *approval.MissingSignatureError:
		return "unsigned"
	case *approval.SignatureMismatchError:
		return "stale (edited after approval, or another key)"
	case *approval.UnsupportedVersionError:
		return "unsupported version"
	case *approval.UnsignableLineError:
		return "unsignable (" + err.Error() + ")"
	default:
		return "malformed"
	}
}

func deleteCommand(s *streams) *cli.Command {
	return &cli.Command{
		Name:      "delete",
		Usage:     "delete a skill and its history from the store (refused while other skills reference it, unless --force)",
		ArgsUsage: "NAME",
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "force", Usage: "delete even though other skills reference it"},
		}, configFlags()...),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 || isFileArg(c.Args().First()) {
				return cli.Exit("delete takes exactly one skill NAME from the store", exitUsage)
			}
			e, err := newOpEnv(c)
			if err != nil {
				return cli.Exit(err.Error(), exitUsage)
			}
			return e.delete(c, s, c.Args().First())
		},
	}
}

func (e *opEnv) delete(c *cli.Context, s *streams, name string) error {
	refs, err := e.storeSkills(c.Context, "")
	if err != nil {
		return cli.Exit(err.Error(), exitUsage)
	}
	var users []string
	for _, r := range refs {
		if r.Name == name {
			continue
		}
		if f, info, err := parsed(r); err == nil && slices.Contains(effects.Of(f, info, nil).Children(), name) {
			users = append(users, r.Name)
		}
	}
	if len(users) > 0 && !c.Bool("force") {
		return cli.Exit(fmt.Sprintf("not deleting %s: referenced by %s (literal execute_skill/inline names only; dynamic references are not seen); pass --force to delete anyway", name, strings.Join(users, ", ")), exitFindings)
	}
	if err := e.store.Delete(c.Context, name); err != nil {
		return cli.Exit(err.Error(), exitFindings)
	}
	fmt.Fprintf(s.out, "deleted %s\n", name)
	for _, u := range users {
		fmt.Fprintf(s.err, "skillc: warning: %s still references %s\n", u, name)
	}
	return nil
}
