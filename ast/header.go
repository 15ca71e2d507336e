package ast

// HeaderKind identifies a known header key.
type HeaderKind int

// The known headers. HeaderUnknown is used for column-0 "# Word:" lines that
// are not headers (they are kept as comments, see File.Comments).
const (
	HeaderUnknown HeaderKind = iota
	HeaderSkill
	HeaderDescription
	HeaderStatus
	HeaderType
	HeaderVars
	HeaderReturns
	HeaderRequires
	HeaderTriggers
	HeaderOutput
	HeaderEventType
	HeaderTemplates
	HeaderTags
	HeaderClassification
	HeaderAutonomous
	HeaderTimeout
	HeaderDeadline
	HeaderTests
	HeaderDeliveryContext // legacy: renamed # Event-type:
	HeaderOnError         // removed: always an error
)

// headerNames are the canonical spellings, indexed by HeaderKind.
var headerNames = [...]string{
	HeaderUnknown:         "",
	HeaderSkill:           "Skill",
	HeaderDescription:     "Description",
	HeaderStatus:          "Status",
	HeaderType:            "Type",
	HeaderVars:            "Vars",
	HeaderReturns:         "Returns",
	HeaderRequires:        "Requires",
	HeaderTriggers:        "Triggers",
	HeaderOutput:          "Output",
	HeaderEventType:       "Event-type",
	HeaderTemplates:       "Templates",
	HeaderTags:            "Tags",
	HeaderClassification:  "Classification",
	HeaderAutonomous:      "Autonomous",
	HeaderTimeout:         "Timeout",
	HeaderDeadline:        "Deadline",
	HeaderTests:           "Tests",
	HeaderDeliveryContext: "Delivery-context",
	HeaderOnError:         "OnError",
}

// String returns the canonical key spelling ("Event-type").
func (k HeaderKind) String() string {
	if int(k) < len(headerNames) {
		return headerNames[k]
	}
	return ""
}

// HeaderKinds returns every known header kind in canonical order.
func HeaderKinds() []HeaderKind {
	out := make([]HeaderKind, 0, len(headerNames)-1)
	for k := HeaderSkill; int(k) < len(headerNames); k++ {
		out = append(out, k)
	}
	return out
}

// LookupHeader returns the kind of a header key, matched case-insensitively;
// exact reports whether the spelling was canonical.
func LookupHeader(key string) (kind HeaderKind, exact bool) {
	for k := HeaderSkill; int(k) < len(headerNames); k++ {
		name := headerNames[k]
		if name == key {
			return k, true
		}
		if equalFold(name, key) {
			kind = k
		}
	}
	return kind, false
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// Header is one column-0 "# Key: value" line (plus, for # Tests:, its
// indented block). Exactly one of the typed value fields is set, according
// to Kind; Value always holds the raw value text.
type Header struct {
	Range
	Kind     HeaderKind
	Key      *Ident // key as written
	ValueRng Range  // range of the raw value (after "Key:" and spaces)
	Value    string // raw value text

	Status   *StatusValue
	Vars     []*VarDecl
	Names    []*Ident       // Returns, Templates, Tags, Skill (one), Type (one), Event-type (one)
	Reqs     []*Requirement // Requires
	Triggers []*Trigger
	Outputs  []*OutputSpec
	Bool     *BoolLit // Autonomous
	Duration Expr     // Timeout, Deadline: *NumberLit or *Subst
	Tests    *TestsBlock
	Pairs    []*KeyValue // Classification
}

func (*Header) aNode() {}

// KeyValue is one key=value pair of # Classification:; Items are the
// comma-separated parts of the value (attach_targets=run,output).
type KeyValue struct {
	Range
	Key      *Ident
	Value    string
	ValueRng Range
	Items    []*Ident
}

func (*KeyValue) aNode() {}

// StatusValue is the parsed value of # Status:.
type StatusValue struct {
	Range
	State    string // canonical: Draft, Approved, Disabled ("" when unknown)
	Raw      string
	Token    string // approval token after Approved ("v3:<sig>")
	TokenRng Range
}

func (*StatusValue) aNode() {}

// VarDecl is one # Vars: declaration: NAME or NAME=default.
type VarDecl struct {
	Range
	Name    *Ident
	Eq      Pos
	Default Expr // nil when required
}

func (*VarDecl) aNode() {}

// RequirementKind is the namespace of a # Requires: line.
type RequirementKind int

// The requirement kinds.
const (
	ReqUnknown    RequirementKind = iota
	ReqUserVar                    // user-var:key -> NAME (fallback: v)
	ReqSystemVar                  // system-var:key -> NAME (fallback: v)
	ReqSecret                     // secret.NAME
	ReqCapability                 // type.flag
)

// Requirement is one # Requires: declaration.
type Requirement struct {
	Range
	Kind     RequirementKind
	Key      *Ident // user-var/system-var key, secret name, or capability "type.flag"
	Bind     *Binding
	Fallback *Fallback
}

func (*Requirement) aNode() {}

// Trigger is one trigger in # Triggers:.
type Trigger struct {
	Range
	Source    *Ident // "cron" or "event" (canonical lower case)
	Spec      string // cron expression or event name
	SpecRange Range
}

func (*Trigger) aNode() {}

// OutputSpec is one delivery target in # Output:.
type OutputSpec struct {
	Range
	Kind   *Ident // text, none, agent, template, file (canonical lower case)
	Target *Text  // nil for bare kinds
}

func (*OutputSpec) aNode() {}

// TestsBlock is the indented YAML block under # Tests:.
type TestsBlock struct {
	Range
	YAML  string // dedented YAML source
	Cases []*TestCase
}

func (*TestsBlock) aNode() {}

// TestCase is one "- name: ..." entry of a # Tests: block.
type TestCase struct {
	Range
	Name   string
	Given  map[string]any
	Expect []*TestExpect
}

func (*TestCase) aNode() {}

// TestExpect is one assertion of a test case ("result_value: x").
type TestExpect struct {
	Range
	Kind  string
	Value string
}

func (*TestExpect) aNode() {}

// HeadersOf returns the headers of kind k in source order.
func (f *File) HeadersOf(k HeaderKind) []*Header {
	var out []*Header
	for _, h := range f.Headers {
		if h.Kind == k {
			out = append(out, h)
		}
	}
	return out
}

// Header returns the first header of kind k, or nil.
func (f *File) Header(k HeaderKind) *Header {
	for _, h := range f.Headers {
		if h.Kind == k {
			return h
		}
	}
	return nil
}

// SkillName returns the # Skill: name, or "".
func (f *File) SkillName() string {
	if h := f.Header(HeaderSkill); h != nil {
		return h.Value
	}
	return ""
}

// Target returns the first target called name, or nil.
func (f *File) Target(name string) *Target {
	for _, t := range f.Targets {
		if t.Name != nil && t.Name.Name == name {
			return t
		}
	}
	return nil
}
