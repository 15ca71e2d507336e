package lang

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// scriptCases are argvs of programs that run an embedded program text
// (issue 22 item 6), with the class each must get: "read" (read-only),
// "write" (mutating, not a full shell) or "full" (a full shell).
var scriptCases = []struct {
	argv []string
	want string
}{
	// the reported attacks
	{[]string{"awk", `BEGIN{system("rm -f x")}`}, "full"},
	{[]string{"mawk", `BEGIN{system("rm -f x")}`}, "full"},
	{[]string{"gawk", `BEGIN { system ("rm -f x") }`}, "full"},
	{[]string{"awk", `{print > "f"}`}, "write"},
	{[]string{"sed", "-n", "1e rm x"}, "full"},
	{[]string{"sed", "w f"}, "write"},
	// more awk
	{[]string{"awk", `{print $1 | "sh"}`}, "full"},
	{[]string{"awk", `BEGIN{"date" | getline d; print d}`}, "full"},
	{[]string{"gawk", `BEGIN{print "x" |& "cat"}`}, "full"},
	{[]string{"awk", `{printf("%s\n", $0) >> "log"}`}, "write"},
	{[]string{"awk", "{ print $1,\n > \"f\" }"}, "write"},
	{[]string{"awk", `{print(1)>"f"}`}, "write"},
	{[]string{"awk", `@load "filefuncs"; BEGIN{}`}, "full"},
	{[]string{"awk", "-f", "prog.awk", "data"}, "full"},
	{[]string{"gawk", "-i", "inplace", "{print}", "f"}, "full"},
	{[]string{"gawk", "--exec=p.awk"}, "full"},
	{[]string{"gawk", "--fi", "p.awk"}, "full"},
	{[]string{"gawk", "--profile=out", "{print}"}, "full"},
	{[]string{"mawk", "-W", "exec", "p.awk"}, "full"},
	{[]string{"gawk", "-e", `BEGIN{x=1}`, "-e", `END{system("id")}`}, "full"},
	{[]string{"awk", `/"/{print > "f"; x="\""}`}, "write"},
	{[]string{"awk", `{print "unterminated}`}, "full"},
	{[]string{"awk", `/[/]/ { system("x") }`}, "full"},
	{[]string{"awk", "-v", "X=1", `BEGIN{print X}`}, "read"},
	{[]string{"awk", "{print $1}", "f"}, "read"},
	{[]string{"awk", "-F:", "$3 > 1000 {print $1}", "/etc/passwd"}, "read"},
	{[]string{"awk", "NR>1 && $2 >= 5 || $3 == \"x|y\" {n++} END{print n/2}"}, "read"},
	{[]string{"awk", "/error|warn/ {print}"}, "read"},
	{[]string{"awk", `{ if ($3 > 100) print $1; else print "small" }`}, "read"},
	{[]string{"awk", `{print "oops" > "/dev/stderr"}`}, "read"},
	{[]string{"awk", `{print "oops" > "/dev/stderr" "x"}`}, "write"},
	{[]string{"awk", `{getline line < "other"; print line}`}, "read"},
	{[]string{"awk", `BEGIN{print length("a>b")}`}, "read"},
	{[]string{"awk", "{print $1/2, $2 / 3}"}, "read"},
	{[]string{"awk"}, "read"},
	// more sed
	{[]string{"sed", "s/a/b/e"}, "full"},
	{[]string{"sed", "s/a/b/gw out"}, "write"},
	{[]string{"sed", "-e", "p", "-e", "W out"}, "write"},
	{[]string{"sed", "--expression=1!e id"}, "full"},
	{[]string{"sed", "--exp", "e id"}, "full"},
	{[]string{"sed", "-ne", "/x/{p;e id\n}"}, "full"},
	{[]string{"sed", ":a;w out"}, "write"},
	{[]string{"sed", "b end; w out\n:end"}, "write"},
	{[]string{"sed", "s/[/]/x/;w out"}, "write"},
	{[]string{"sed", "y/abc/xyz/;e id"}, "full"},
	{[]string{"sed", "-f", "script.sed", "f"}, "full"},
	{[]string{"sed", "--file=script.sed", "f"}, "full"},
	{[]string{"sed", "--in", "s/a/b/", "f"}, "write"},
	{[]string{"sed", "-i", "-e", "1e id", "f"}, "full"},
	{[]string{"sed", "-z", "--nonsense", "p"}, "full"},
	{[]string{"sed", "s/a/b/q"}, "full"},
	{[]string{"sed", "k"}, "full"},
	{[]string{"sed", "{p"}, "full"},
	{[]string{"sed", "-n", "1p", "f"}, "read"},
	{[]string{"sed", "-n", "/start/,/end/{s/x/y/g;p}", "f"}, "read"},
	{[]string{"sed", "-E", `s#([a-z]+)/w#\1 e#2`, "f"}, "read"},
	{[]string{"sed", "a foo; w out"}, "read"},
	{[]string{"sed", "r /etc/hostname"}, "read"},
	{[]string{"sed", "0~3d;$!N;2,+4p;/x/I,~2d"}, "read"},
	{[]string{"sed", "1{h;d};G;s/\\n/ /"}, "read"},
	{[]string{"sed", "s/[[:space:]]\\+$//"}, "read"},
	{[]string{"sed", "-n", "$="}, "read"},
	{[]string{"sed", "-e", "a\\", "-e", "text w e"}, "read"},
	{[]string{"sed", "# comment e w\np"}, "read"},
	{[]string{"sed", "file.txt", "-e", "p"}, "read"},
	// interpreters of every kind
	{[]string{"perl", "script.pl"}, "full"},
	{[]string{"perl5.36", "-ne", "print"}, "full"},
	{[]string{"ruby", "x.rb"}, "full"},
	{[]string{"node", "x.js"}, "full"},
	{[]string{"lua5.4", "x.lua"}, "full"},
	{[]string{"tclsh", "x.tcl"}, "full"},
	{[]string{"python3", "-m", "pip", "install", "x"}, "full"},
	{[]string{"sqlite3", "db", ".shell id"}, "full"},
	{[]string{"env", "nice", "gawk", `BEGIN{system("id")}`}, "full"},
	{[]string{"perl", "--version"}, "read"},
	// unknown programs given a script file
	{[]string{"mytool", "--script=run.sh"}, "write"},
	{[]string{"mytool", "job.py"}, "write"},
	{[]string{"cat", "job.py"}, "read"},
	{[]string{"grep", "-n", "TODO", "main.py"}, "read"},
}

func TestClassifyScriptPrograms(t *testing.T) {
	for _, c := range scriptCases {
		got := ClassifyShell(c.argv)
		class := "read"
		switch {
		case got.FullShell:
			class = "full"
		case got.Mutating != "":
			class = "write"
		}
		if class != c.want {
			t.Errorf("ClassifyShell(%q) = %+v (%s); want %s", c.argv, got, class, c.want)
		}
		if got.FullShell && got.Mutating == "" {
			t.Errorf("ClassifyShell(%q): a full shell without a reason", c.argv)
		}
	}
}

// TestReadOnlyScriptsReallyAreReadOnly runs every sed and awk argv the
// classifier calls read-only with the real programs of this machine, in
// an empty directory: none may create a file. The forms it calls full or
// mutating that do create files show the classifier is not vacuous.
func TestReadOnlyScriptsReallyAreReadOnly(t *testing.T) {
	ran, wrote := 0, 0
	for _, c := range scriptCases {
		name := programName(c.argv[0])
		if !sedPrograms[name] && !awkPrograms[name] {
			continue
		}
		bin, err := exec.LookPath(c.argv[0])
		if err != nil {
			continue
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte("a/b x\nerror 2\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		argv := append([]string(nil), c.argv[1:]...)
		cmd := exec.Command(bin, argv...)
		cmd.Dir = dir
		cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
		_ = cmd.Run()
		entries, _ := os.ReadDir(dir)
		created := len(entries) > 1
		ran++
		if created && c.want == "read" {
			t.Errorf("%q is classified read-only but created a file", c.argv)
		}
		if created {
			wrote++
		}
	}
	if ran > 0 && wrote == 0 {
		t.Errorf("of %d sed and awk runs, none created a file: the check would not see one", ran)
	}
}
