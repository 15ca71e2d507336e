package value

import "iter"

// Object is an ordered string-keyed map. The zero value is an empty object
// ready to use. Keys keep the order in which they were first set, so the JSON
// form of an object is stable and matches its source.
type Object struct {
	keys []string
	vals map[string]any
	text *string // the substitution text form, when set (see SetText)
}

// SetText gives o a text form: ${X} of the object then substitutes text
// instead of the object's JSON (its fields stay reachable as ${X.field}).
// A composition result uses it so that ${R} is the child's output.
func (o *Object) SetText(text string) { o.text = &text }

// Text returns the text form set with SetText.
func (o *Object) Text() (string, bool) {
	if o == nil || o.text == nil {
		return "", false
	}
	return *o.text, true
}

// NewObject returns an empty object with room for n keys.
func NewObject(n int) *Object {
	return &Object{keys: make([]string, 0, n), vals: make(map[string]any, n)}
}

// Len reports the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.keys)
}

// Get returns the value stored under key.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.vals[key]
	return v, ok
}

// Set stores v under key. A new key goes to the end; an existing key keeps
// its position.
func (o *Object) Set(key string, v any) {
	if o.vals == nil {
		o.vals = make(map[string]any)
	}
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

// Delete removes key, if present.
func (o *Object) Delete(key string) {
	if o == nil {
		return
	}
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// Keys returns the keys in order. The slice is a copy.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return append([]string(nil), o.keys...)
}

// All iterates over the key/value pairs in order.
func (o *Object) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		if o == nil {
			return
		}
		for _, k := range o.keys {
			if !yield(k, o.vals[k]) {
				return
			}
		}
	}
}

// Clone returns a deep copy of o.
func (o *Object) Clone() *Object {
	if o == nil {
		return nil
	}
	c := NewObject(len(o.keys))
	for k, v := range o.All() {
		c.Set(k, Clone(v))
	}
	c.text = o.text
	return c
}

// MarshalJSON implements json.Marshaler with the package's stable encoding.
func (o *Object) MarshalJSON() ([]byte, error) {
	return []byte(ToJSON(o)), nil
}

// UnmarshalJSON implements json.Unmarshaler, keeping key order.
func (o *Object) UnmarshalJSON(data []byte) error {
	v, err := FromJSON(string(data))
	if err != nil {
		return err
	}
	obj, ok := v.(*Object)
	if !ok {
		return &TypeMismatchError{Op: "decode object", Want: "object", Got: TypeName(v)}
	}
	*o = *obj
	return nil
}
