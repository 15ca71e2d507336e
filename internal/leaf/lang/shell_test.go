package lang

import (
	"slices"
	"testing"
)

func TestClassifyShell(t *testing.T) {
	cases := []struct {
		argv     []string
		chain    []string
		full     bool
		mutating bool
	}{
		{[]string{"ls", "-la"}, []string{"ls"}, false, false},
		{[]string{"rm", "x"}, []string{"rm"}, false, true},
		{[]string{"/bin/rm", "x"}, []string{"/bin/rm"}, false, true},
		{[]string{"mkfs.ext4", "/dev/x"}, []string{"mkfs.ext4"}, false, true},
		{[]string{"env", "A=1", "-u", "B", "rm", "x"}, []string{"env", "rm"}, false, true},
		{[]string{"env", "-S", "rm x"}, []string{"env"}, true, true},
		{[]string{"nice", "-n", "10", "rm", "x"}, []string{"nice", "rm"}, false, true},
		{[]string{"timeout", "-k", "1", "5", "rm", "x"}, []string{"timeout", "rm"}, false, true},
		{[]string{"sudo", "-u", "root", "--", "rm", "x"}, []string{"sudo", "rm"}, false, true},
		{[]string{"nohup", "stdbuf", "-oL", "ionice", "-c", "3", "rm", "x"}, []string{"nohup", "stdbuf", "ionice", "rm"}, false, true},
		{[]string{"xargs", "-0", "-n", "1", "rm"}, []string{"xargs", "rm"}, false, true},
		{[]string{"xargs"}, []string{"xargs", "echo"}, false, false},
		{[]string{"command", "-v", "rm"}, []string{"command"}, false, false},
		{[]string{"exec", "rm", "x"}, []string{"exec", "rm"}, false, true},
		{[]string{"bash", "-c", "ls"}, []string{"bash"}, true, true},
		{[]string{"sh", "script.sh"}, []string{"sh"}, true, true},
		{[]string{"env", "/bin/dash", "-ec", "ls"}, []string{"env", "/bin/dash"}, true, true},
		{[]string{"python3", "-c", "print(1)"}, []string{"python3"}, true, true},
		{[]string{"python3.12", "tool.py"}, []string{"python3.12"}, true, true},
		{[]string{"python3", "--version"}, []string{"python3"}, false, false},
		{[]string{"perl", "-e", "1"}, []string{"perl"}, true, true},
		{[]string{"node", "--eval=1"}, []string{"node"}, true, true},
		{[]string{"find", ".", "-name", "*.go"}, []string{"find"}, false, false},
		{[]string{"find", ".", "-delete"}, []string{"find"}, false, true},
		{[]string{"find", ".", "-exec", "cat", "{}", ";"}, []string{"find"}, false, true},
		{[]string{"sed", "-n", "1p", "f"}, []string{"sed"}, false, false},
		{[]string{"sed", "-i.bak", "s/a/b/", "f"}, []string{"sed"}, false, true},
		{[]string{"sed", "-ni", "s/a/b/p", "f"}, []string{"sed"}, false, true},
		{[]string{"sed", "-e", "s/i/j/", "f"}, []string{"sed"}, false, false},
		{[]string{"sed", "--in-place", "s/a/b/", "f"}, []string{"sed"}, false, true},
		{[]string{"perl", "-pi", "-e", "s/a/b/", "f"}, []string{"perl"}, true, true},
		{[]string{"awk", "-i", "inplace", "{print}", "f"}, []string{"awk"}, true, true}, // -i loads inplace.awk from AWKPATH (. first)
		{[]string{"awk", "{print $1}", "f"}, []string{"awk"}, false, false},
		{[]string{"sort", "-o", "f", "f"}, []string{"sort"}, false, true},
		{[]string{"tar", "-xzf", "a.tgz"}, []string{"tar"}, false, true},
		{[]string{"tar", "-tzf", "a.tgz"}, []string{"tar"}, false, false},
		{[]string{"curl", "-s", "https://x"}, []string{"curl"}, false, false},
		{[]string{"curl", "-sO", "https://x"}, []string{"curl"}, false, true},
		{[]string{"curl", "-X", "DELETE", "https://x"}, []string{"curl"}, false, true},
		{[]string{"wget", "-qO-", "https://x"}, []string{"wget"}, false, true},
		{[]string{"wget", "-O", "-", "https://x"}, []string{"wget"}, false, false},
		{[]string{"git", "status"}, []string{"git"}, false, false},
		{[]string{"git", "-C", "repo", "log"}, []string{"git"}, false, false},
		{[]string{"git", "push", "--force"}, []string{"git"}, false, true},
		{[]string{"", "x"}, []string{""}, false, false},
		{[]string{"env", "", "x"}, []string{"env", ""}, false, false},
	}
	for _, c := range cases {
		got := ClassifyShell(c.argv)
		if !slices.Equal(got.Chain, c.chain) || got.FullShell != c.full || (got.Mutating != "") != c.mutating {
			t.Errorf("ClassifyShell(%q) = %+v; want chain %q full %v mutating %v", c.argv, got, c.chain, c.full, c.mutating)
		}
	}
}

func FuzzClassifyShell(f *testing.F) {
	f.Add("env A=1 nice -n 5 timeout 3 xargs -0 rm")
	f.Add("sudo -u root -- bash -c x")
	f.Add(`awk BEGIN{system("x")}`)
	f.Add(`gawk -e {print>"f"} -f`)
	f.Add(`sed -n /[[:a:]/]/{s/a/b/w;e}`)
	f.Add(`sed --exp=1!e\ x -i`)
	f.Fuzz(func(t *testing.T, s string) {
		argv := splitSpaces(s)
		if len(argv) == 0 {
			return
		}
		c := ClassifyShell(argv)
		if len(c.Chain) == 0 {
			t.Fatalf("ClassifyShell(%q): empty chain", argv)
		}
		if c.FullShell && c.Mutating == "" {
			t.Fatalf("ClassifyShell(%q): a full shell must be mutating", argv)
		}
	})
}

func splitSpaces(s string) []string {
	var out []string
	cur := ""
	for _, r := range s {
		if r == ' ' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(r)
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

func BenchmarkClassifyShell(b *testing.B) {
	argv := []string{"env", "LC_ALL=C", "timeout", "-k", "1", "5", "nice", "-n", "10", "find", "work", "-name", "*.tmp", "-delete"}
	b.ReportAllocs()
	for b.Loop() {
		if ClassifyShell(argv).Mutating == "" {
			b.Fatal("not mutating")
		}
	}
}
