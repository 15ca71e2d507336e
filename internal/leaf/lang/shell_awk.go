package lang

import "strings"

// awkPrograms are the names of the awk family.
var awkPrograms = map[string]bool{
	"awk": true, "gawk": true, "mawk": true, "nawk": true, "original-awk": true, "bwk": true, "goawk": true,
}

// awkLong are the long options of gawk that are safe, with whether they
// take a separate value; --source is read as program text. Options that
// load code (--file, --include, --load, --exec), write files (--profile,
// --dump-variables, --pretty-print) or start the debugger are not listed
// and make the use a full shell.
var awkLong = map[string]bool{
	"--source": true, "--field-separator": true, "--assign": true,
	"--characters-as-bytes": false, "--traditional": false, "--copyright": false,
	"--bignum": false, "--use-lc-numeric": false, "--non-decimal-data": false,
	"--optimize": false, "--no-optimize": false, "--posix": false, "--re-interval": false,
	"--sandbox": false, "--lint": false, "--version": false, "--help": false, "--usage": false,
	"--csv": false, "--file": true, "--include": true, "--load": true, "--exec": true,
	"--profile": false, "--dump-variables": false, "--pretty-print": false, "--debug": false,
	"--gen-pot": false, "--lint-old": false,
}

// awkUnsafeLong are the awkLong entries that make a use unprovable.
var awkUnsafeLong = map[string]bool{
	"--file": true, "--include": true, "--load": true, "--exec": true, "--profile": true,
	"--dump-variables": true, "--pretty-print": true, "--debug": true,
}

// awkScript classifies an awk argv (without the program name) by its
// program text: the -e/--source values (gawk), else the first operand.
func awkScript(args []string) scriptVerdict {
	var texts []string
	explicit := false
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := longOption(a, awkLong)
			switch {
			case name == "" || awkUnsafeLong[name]:
				return fullScript("runs awk with option " + a + ", which loads code, writes files or is not known to be safe")
			case awkLong[name] && !hasVal:
				if i+1 >= len(args) {
					return fullScript("runs awk with an option " + a + " that has no value")
				}
				i++
				val = args[i]
			}
			if name == "--source" {
				texts, explicit = append(texts, val), true
			}
		case len(a) > 1 && a[0] == '-':
			v, consumed, text := awkShort(a, args[i+1:])
			if v.why != "" {
				return v
			}
			if text != nil {
				texts, explicit = append(texts, *text), true
			}
			i += consumed
		default:
			operands = append(operands, a)
		}
	}
	if !explicit {
		if len(operands) == 0 {
			return scriptVerdict{}
		}
		texts = operands[:1]
	}
	return awkProgram(strings.Join(texts, "\n"))
}

// awkShort reads one cluster of short options; it returns the program
// text of -e, if any, and how many following words it consumed. -f, -i,
// -l, -E, -W (mawk's -W exec, ...) and the options that write files
// (-d, -o, -p) or start the debugger (-D) make the use unprovable.
func awkShort(a string, rest []string) (v scriptVerdict, consumed int, text *string) {
	for j := 1; j < len(a); j++ {
		switch c := a[j]; {
		case strings.IndexByte("bcCgMnNOPrsStVh", c) >= 0:
		case c == 'L':
			return scriptVerdict{}, 0, nil // -L[fatal|invalid]
		case c == 'F' || c == 'v' || c == 'e':
			val := a[j+1:]
			if val == "" {
				if len(rest) == 0 {
					return fullScript("runs awk with an -" + string(c) + " that has no value"), 0, nil
				}
				val, consumed = rest[0], 1
			}
			if c == 'e' {
				text = &val
			}
			return scriptVerdict{}, consumed, text
		default:
			return fullScript("runs awk with option -" + string(c) + ", which loads code, writes files or is not known to be safe"), 0, nil
		}
	}
	return scriptVerdict{}, 0, nil
}

// awkKeywords are the words after which a '/' starts a regex, not a
// division.
var awkKeywords = map[string]bool{
	"print": true, "printf": true, "return": true, "if": true, "while": true, "for": true,
	"do": true, "else": true, "in": true, "delete": true, "exit": true, "next": true,
	"nextfile": true, "getline": true, "function": true, "func": true, "case": true,
	"default": true, "BEGIN": true, "END": true, "BEGINFILE": true, "ENDFILE": true,
}

// awkProgram classifies an awk program text. It is read-only when it
// calls no system() (nor gawk's old extension()), has no '|' (a pipe to
// or from a command: print | cmd, cmd | getline, |&), no gawk @ directive
// (@load, @include) and no '>' or '>>' inside a print or printf statement
// (a file redirection; '> "/dev/stderr"' and '> "/dev/stdout"' alone are
// allowed). Strings, regex literals and comments are skipped; an
// unterminated one is not understood.
func awkProgram(s string) scriptVerdict {
	unsure := fullScript("runs an awk program the classifier cannot parse (it may run commands)")
	operand := false // the last token was an operand: a '/' divides
	inPrint := false // inside a print or printf statement
	last := byte(0)  // the last significant character
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '\\' && i+1 < len(s) && (s[i+1] == '\n' || s[i+1] == '\r'):
			i += 2
			continue
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case c == '\n':
			if last != ',' && last != '{' && last != '&' && last != '|' {
				inPrint = false
				operand = false
			}
			i++
			continue
		case c == '"':
			end, ok := awkString(s, i)
			if !ok {
				return unsure
			}
			i, operand = end, true
		case c == '/' && !operand:
			end, ok := awkRegex(s, i)
			if !ok {
				return unsure
			}
			i, operand = end, true
		case c == '|':
			if i+1 < len(s) && s[i+1] == '|' {
				i, operand = i+2, false
				last = '|'
				continue
			}
			return fullScript("runs an awk program that pipes to or from a command (|)")
		case c == '@':
			return fullScript("runs an awk program with a gawk @ directive (@load, @include)")
		case c == '>' && inPrint:
			if !awkStdRedirect(s, i) {
				return writesScript("runs an awk program that redirects print output to a file (>)")
			}
			i++
			if i < len(s) && s[i] == '>' {
				i++
			}
			operand = false
		case c == '_' || isASCIILetter(c):
			j := i
			for j < len(s) && (s[j] == '_' || isASCIILetter(s[j]) || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			word := s[i:j]
			switch word {
			case "system", "extension":
				return fullScript("runs an awk program that calls " + word + "()")
			case "print", "printf":
				inPrint = true
			}
			i, operand = j, !awkKeywords[word]
		case c >= '0' && c <= '9' || c == '.':
			for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || isASCIILetter(s[i])) {
				i++
			}
			operand = true
		case c == ')' || c == ']':
			i, operand = i+1, true
		case (c == '+' || c == '-') && i+1 < len(s) && s[i+1] == c:
			i += 2 // ++ and -- keep the operand state
		case c == ';' || c == '{' || c == '}':
			i, operand, inPrint = i+1, false, false
		default:
			i, operand = i+1, false
		}
		last = c
	}
	return scriptVerdict{}
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// awkString returns the index after the string literal starting at i.
func awkString(s string, i int) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '\n':
			return 0, false
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// awkRegex returns the index after the regex literal starting at i; a
// '/' inside a bracket expression does not end it (gawk and mawk agree).
// A bracket expression holding a backslash is not understood.
func awkRegex(s string, i int) (int, bool) {
	p := &sedParser{s: s, i: i + 1}
	if !p.delimited('/', true) {
		return 0, false
	}
	return p.i, true
}

// awkStdRedirect reports whether the '>' (or '>>') at i redirects to
// "/dev/stderr" or "/dev/stdout" and the statement ends right after.
func awkStdRedirect(s string, i int) bool {
	i++
	if i < len(s) && s[i] == '>' {
		i++
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	var target string
	for _, t := range []string{`"/dev/stderr"`, `"/dev/stdout"`} {
		if strings.HasPrefix(s[i:], t) {
			target = t
		}
	}
	if target == "" {
		return false
	}
	i += len(target)
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	return i == len(s) || strings.IndexByte(";}\n#", s[i]) >= 0
}
