package value

import "unsafe"

// Boxing without an allocation per value. Converting a float64 or a
// string to an interface value allocates a copy of it on the heap; the
// evaluator's hot paths (decoding a long JSON array, rendering a string
// per loop iteration) would pay one allocation per value for that alone.
// The helpers below build the interface value by hand around storage
// they allocate in bulk (floats) or together with the data (strings).
// Interface values are immutable, so sharing a chunk of storage between
// several of them is safe as long as nothing writes to a slot after it
// has been boxed, which the helpers guarantee by never reusing a slot.

// eface is the layout of an interface value with no methods (any).
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

var (
	float64Type = typeOf(float64(0))
	stringType  = typeOf("")
)

func typeOf(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

// boxAt returns an interface value of the type typ whose data is at p.
func boxAt(typ, p unsafe.Pointer) any {
	var v any
	*(*eface)(unsafe.Pointer(&v)) = eface{typ: typ, data: p}
	return v
}

// floatArena boxes float64 values into chunks of storage: one allocation
// per chunk instead of one per value. Chunks double from 1 up to
// maxFloatChunk values, so a single number costs what boxing it would.
// A boxed value keeps its whole chunk (at most 8 KiB) reachable.
type floatArena struct {
	chunk []float64
}

// Floats boxes float64 values with few allocations (see floatArena). The
// zero value is ready to use; it is not safe for concurrent use.
type Floats struct{ a floatArena }

// Box returns f as an interface value.
func (b *Floats) Box(f float64) any { return b.a.box(f) }

const maxFloatChunk = 1024

func (a *floatArena) box(f float64) any {
	if len(a.chunk) == cap(a.chunk) {
		n := min(max(2*cap(a.chunk), 1), maxFloatChunk)
		a.chunk = make([]float64, 0, n)
	}
	a.chunk = append(a.chunk, f)
	return boxAt(float64Type, unsafe.Pointer(&a.chunk[len(a.chunk)-1]))
}

// The string boxes: the string header and its bytes in one object.
type (
	strBox8 struct {
		s string
		b [8]byte
	}
	strBox16 struct {
		s string
		b [16]byte
	}
	strBox32 struct {
		s string
		b [32]byte
	}
	strBox48 struct {
		s string
		b [48]byte
	}
	strBox64 struct {
		s string
		b [64]byte
	}
	strBox112 struct {
		s string
		b [112]byte
	}
)

// BoxBytes returns string(b) as an interface value. Up to 112 bytes it
// costs one allocation (the header and the bytes together) instead of two.
func BoxBytes(b []byte) any {
	n := len(b)
	var s *string
	switch {
	case n == 0:
		return ""
	case n <= 8:
		p := new(strBox8)
		p.s = unsafe.String(&p.b[0], copy(p.b[:], b))
		s = &p.s
	case n <= 16:
		p := new(strBox16)
		p.s = unsafe.String(&p.b[0], copy(p.b[:], b))
		s = &p.s
	case n <= 32:
		p := new(strBox32)
		p.s = unsafe.String(&p.b[0], copy(p.b[:], b))
		s = &p.s
	case n <= 48:
		p := new(strBox48)
		p.s = unsafe.String(&p.b[0], copy(p.b[:], b))
		s = &p.s
	case n <= 64:
		p := new(strBox64)
		p.s = unsafe.String(&p.b[0], copy(p.b[:], b))
		s = &p.s
	case n <= 112:
		p := new(strBox112)
		p.s = unsafe.String(&p.b[0], copy(p.b[:], b))
		s = &p.s
	default:
		return string(b)
	}
	return boxAt(stringType, unsafe.Pointer(s))
}

// Strings boxes strings with few allocations: their bytes and their
// headers are carved from chunks of storage that double up to 4 KiB, so a
// loop that builds one short string per iteration allocates once per
// chunk instead of once per string. A boxed string keeps its header chunk
// (at most 4 KiB) and the byte chunks of that chunk's strings reachable.
// The zero value is ready to use; it is not safe for concurrent use.
type Strings struct {
	bytes []byte
	heads []string
}

// The chunk sizes of Strings: bytes double from minStrChunk up to
// maxStrChunk, headers from 1 up to maxStrHeads; a string longer than
// maxArenaString is boxed on its own (BoxBytes).
const (
	minStrChunk    = 64
	maxStrChunk    = 4096
	maxStrHeads    = 256
	maxArenaString = 256
)

// Box returns string(b) as an interface value.
func (a *Strings) Box(b []byte) any {
	n := len(b)
	switch {
	case n == 0:
		return ""
	case n > maxArenaString:
		return BoxBytes(b)
	}
	if len(a.bytes)+n > cap(a.bytes) {
		a.bytes = make([]byte, 0, min(max(2*cap(a.bytes), minStrChunk), maxStrChunk))
	}
	start := len(a.bytes)
	a.bytes = append(a.bytes, b...)
	if len(a.heads) == cap(a.heads) {
		a.heads = make([]string, 0, min(max(2*cap(a.heads), 1), maxStrHeads))
	}
	a.heads = append(a.heads, unsafe.String(&a.bytes[start], n))
	return boxAt(stringType, unsafe.Pointer(&a.heads[len(a.heads)-1]))
}
