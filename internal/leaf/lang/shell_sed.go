package lang

import "strings"

// Programs that run a program text given in their arguments (issue 22
// item 6): sed and the awk family are read-only only when their program
// text is parsed and provably holds no command execution and no file
// write. Anything the parsers below do not understand is a full shell:
// "if unsure, it runs code".

// scriptVerdict is what a program text does: full is set when it may run
// a command (or when the classifier cannot tell), why names the reason;
// a zero verdict is read-only.
type scriptVerdict struct {
	full bool
	why  string
}

func fullScript(why string) scriptVerdict   { return scriptVerdict{full: true, why: why} }
func writesScript(why string) scriptVerdict { return scriptVerdict{why: why} }

// sedPrograms are the names sed is installed under.
var sedPrograms = map[string]bool{"sed": true, "gsed": true, "ssed": true}

// sedLong are the long options of GNU sed; the value says whether the
// option takes a separate value when written without "=". getopt accepts
// any unambiguous prefix (--exp, --in), so names are resolved with
// longOption.
var sedLong = map[string]bool{
	"--expression": true, "--file": true, "--in-place": false, "--line-length": true,
	"--quiet": false, "--silent": false, "--regexp-extended": false, "--separate": false,
	"--unbuffered": false, "--null-data": false, "--zero-terminated": false, "--posix": false,
	"--debug": false, "--sandbox": false, "--follow-symlinks": false, "--binary": false,
	"--help": false, "--version": false,
}

// longOption resolves a long option word ("--exp=x") against known the
// way getopt_long does: an exact name or an unambiguous prefix. It returns
// the full name, the attached value and whether there was one; name is ""
// when the word matches no option or more than one.
func longOption(a string, known map[string]bool) (name, val string, hasVal bool) {
	given, val, hasVal := strings.Cut(a, "=")
	if _, ok := known[given]; ok {
		return given, val, hasVal
	}
	for k := range known {
		if strings.HasPrefix(k, given) {
			if name != "" {
				return "", val, hasVal
			}
			name = k
		}
	}
	return name, val, hasVal
}

// sedScript classifies a sed argv (without the program name) by its
// script: the -e/--expression values, else the first operand. A script
// file (-f) cannot be seen and is a full shell.
func sedScript(args []string) scriptVerdict {
	var scripts []string
	explicit := false
	var operands []string
	inPlace := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := longOption(a, sedLong)
			switch name {
			case "":
				return fullScript("runs sed with option " + a + ", which is not known to be safe")
			case "--expression":
				if !hasVal {
					if i+1 >= len(args) {
						return fullScript("runs sed with an --expression that has no script")
					}
					i++
					val = args[i]
				}
				scripts, explicit = append(scripts, val), true
			case "--file":
				return fullScript("runs sed on a script file the classifier cannot see (--file)")
			case "--in-place":
				inPlace = "sed " + a + " changes files"
			default:
				if sedLong[name] && !hasVal {
					i++
				}
			}
		case len(a) > 1 && a[0] == '-':
			v, next, done := sedShort(a, args[i+1:])
			if v.why != "" {
				return v
			}
			if done != nil {
				scripts, explicit = append(scripts, *done), true
			}
			i += next
		default:
			operands = append(operands, a)
		}
	}
	if !explicit {
		if len(operands) == 0 {
			return writesScript(inPlace)
		}
		scripts = operands[:1]
	}
	if v := sedProgram(strings.Join(scripts, "\n")); v.why != "" {
		return v
	}
	return writesScript(inPlace)
}

// sedShort reads one cluster of short options; it returns the -e script
// it holds, if any, and how many following words it consumed.
func sedShort(a string, rest []string) (v scriptVerdict, consumed int, script *string) {
	for j := 1; j < len(a); j++ {
		switch a[j] {
		case 'n', 'r', 'E', 's', 'u', 'z', 'b':
		case 'i':
			return scriptVerdict{}, 0, nil // -i[SUFFIX]: a mutation (destructiveFlags)
		case 'e', 'l':
			val := a[j+1:]
			if val == "" {
				if len(rest) == 0 {
					return fullScript("runs sed with an -" + string(a[j]) + " that has no value"), 0, nil
				}
				val, consumed = rest[0], 1
			}
			if a[j] == 'e' {
				script = &val
			}
			return scriptVerdict{}, consumed, script
		case 'f':
			return fullScript("runs sed on a script file the classifier cannot see (-f)"), 0, nil
		default:
			return fullScript("runs sed with option -" + string(a[j]) + ", which is not known to be safe"), 0, nil
		}
	}
	return scriptVerdict{}, 0, nil
}

// sedParser walks a sed script the way GNU sed reads it.
type sedParser struct {
	s string
	i int
}

func (p *sedParser) eof() bool { return p.i >= len(p.s) }

func (p *sedParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}

func (p *sedParser) blanks() {
	for !p.eof() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *sedParser) digits() bool {
	start := p.i
	for !p.eof() && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// toEOL consumes up to an unescaped newline (a backslash escapes the
// next character, newline included) and returns the text.
func (p *sedParser) toEOL() string {
	start := p.i
	for !p.eof() && p.s[p.i] != '\n' {
		if p.s[p.i] == '\\' {
			p.i++
		}
		p.i++
	}
	if p.i > len(p.s) {
		p.i = len(p.s)
	}
	return p.s[start:p.i]
}

// label consumes a label, which ends at a newline or a semicolon.
func (p *sedParser) label() string {
	p.blanks()
	start := p.i
	for !p.eof() && p.s[p.i] != '\n' && p.s[p.i] != ';' {
		p.i++
	}
	return strings.TrimSpace(p.s[start:p.i])
}

// delimited consumes text up to the unescaped delimiter d (which it
// consumes too). In a regex, bracket expressions are read as GNU sed
// reads them (the delimiter is literal inside); a bracket holding a
// backslash, where implementations disagree, and a raw newline are not
// understood.
func (p *sedParser) delimited(d byte, regex bool) bool {
	for !p.eof() {
		c := p.s[p.i]
		switch {
		case c == '\\':
			p.i += 2
		case c == '\n':
			return false
		case c == d:
			p.i++
			return true
		case regex && c == '[':
			if !p.bracket() {
				return false
			}
		default:
			p.i++
		}
	}
	return false
}

// bracket consumes a bracket expression starting at '['.
func (p *sedParser) bracket() bool {
	p.i++
	if p.peek() == '^' {
		p.i++
	}
	if p.peek() == ']' {
		p.i++
	}
	for !p.eof() {
		c := p.s[p.i]
		switch {
		case c == '\\' || c == '\n':
			return false
		case c == '[' && p.i+1 < len(p.s) && strings.IndexByte(":.=", p.s[p.i+1]) >= 0:
			end := strings.Index(p.s[p.i+2:], string(p.s[p.i+1])+"]")
			if end < 0 {
				return false
			}
			p.i += end + 4
		case c == ']':
			p.i++
			return true
		default:
			p.i++
		}
	}
	return false
}

// address consumes an optional address: a line number (with ~step), $,
// /regex/ or \cregexc with I and M flags; second says it is the address
// after a comma, which may also be +N or ~N.
func (p *sedParser) address(second bool) bool {
	switch c := p.peek(); {
	case c >= '0' && c <= '9':
		p.digits()
		if p.peek() == '~' {
			p.i++
			p.digits()
		}
	case c == '$':
		p.i++
	case second && (c == '+' || c == '~'):
		p.i++
		if !p.digits() {
			return false
		}
	case c == '/' || c == '\\':
		if c == '\\' {
			p.i++
			if p.eof() || p.peek() == '\n' || p.peek() == '\\' {
				return false
			}
		}
		d := p.peek()
		p.i++
		if !p.delimited(d, true) {
			return false
		}
		for p.peek() == 'I' || p.peek() == 'M' {
			p.i++
		}
	}
	return true
}

// sedProgram classifies a sed script: e (and s///e) runs a command, w, W
// (and s///w) write a file; r and R only read. A script it cannot parse is
// a full shell.
func sedProgram(script string) scriptVerdict {
	p := &sedParser{s: script}
	unsure := fullScript("runs a sed script the classifier cannot parse (it may run commands)")
	depth := 0
	for {
		for !p.eof() && strings.IndexByte(" \t\n;", p.peek()) >= 0 {
			p.i++
		}
		if p.eof() {
			break
		}
		if p.peek() == '#' {
			p.toEOL()
			continue
		}
		if !p.address(false) {
			return unsure
		}
		p.blanks()
		if p.peek() == ',' {
			p.i++
			p.blanks()
			if !p.address(true) {
				return unsure
			}
		}
		p.blanks()
		for p.peek() == '!' {
			p.i++
			p.blanks()
		}
		if p.eof() {
			return unsure
		}
		cmd := p.s[p.i]
		p.i++
		switch cmd {
		case '{':
			depth++
			continue
		case '}':
			if depth--; depth < 0 {
				return unsure
			}
		case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			p.blanks()
			p.digits()
		case ':':
			if p.label() == "" {
				return unsure
			}
		case 'b', 't', 'T', 'v':
			p.label()
		case 'a', 'i', 'c':
			p.toEOL()
		case 'r', 'R':
			p.blanks()
			p.toEOL()
		case 'w', 'W':
			return writesScript("runs a sed script that writes a file (" + string(cmd) + ")")
		case 'e':
			return fullScript("runs a sed script that runs a command (e)")
		case 's':
			if v, ok := p.substitute(); !ok {
				return unsure
			} else if v.why != "" {
				return v
			}
		case 'y':
			d := p.peek()
			if d == 0 || d == '\n' || d == '\\' {
				return unsure
			}
			p.i++
			if !p.delimited(d, false) || !p.delimited(d, false) {
				return unsure
			}
		default:
			return unsure
		}
		p.blanks()
		if !p.eof() && strings.IndexByte(";\n}#", p.peek()) < 0 {
			return unsure
		}
	}
	if depth != 0 {
		return unsure
	}
	return scriptVerdict{}
}

// substitute reads an s command after the "s": delimiter, regex,
// replacement and flags.
func (p *sedParser) substitute() (scriptVerdict, bool) {
	d := p.peek()
	if d == 0 || d == '\n' || d == '\\' {
		return scriptVerdict{}, false
	}
	p.i++
	if !p.delimited(d, true) || !p.delimited(d, false) {
		return scriptVerdict{}, false
	}
	for !p.eof() {
		switch c := p.s[p.i]; {
		case c == 'e':
			return fullScript("runs a sed script whose s///e runs a command"), true
		case c == 'w':
			return writesScript("runs a sed script whose s///w writes a file"), true
		case strings.IndexByte("gpiImM0123456789", c) >= 0:
			p.i++
		default:
			return scriptVerdict{}, true
		}
	}
	return scriptVerdict{}, true
}
