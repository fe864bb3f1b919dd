package jsontape

// Readers for code that reads object keys by their text: package
// protocol's fast validity checks, which are deliberately conservative.
// Anything they could read differently from encoding/json (escaped or
// duplicate object keys; invalid UTF-8 and nesting deeper than MaxDepth
// already fail Parse) makes them give up, and their caller takes the full
// path instead (see PlainKeys).

// PlainKeys reports whether the last Parse succeeded and its object keys
// read the same as text and as encoding/json reads them: no key has an
// escape and no object repeats a key. Key is then each key's value.
func (tp *Tape) PlainKeys() bool {
	if !tp.parsed || tp.escapedKey {
		return false
	}
	for t := range tp.toks {
		if tp.toks[t].kind == Object && tp.toks[t].n > 1 && tp.hasDuplicateKeys(t) {
			return false
		}
	}
	return true
}

// hasDuplicateKeys reports whether an object repeats a key (keys have no
// escapes: PlainKeys checks that first).
func (tp *Tape) hasDuplicateKeys(obj int) bool {
	n := int(tp.toks[obj].n)
	end := int(tp.toks[obj].next)
	if n <= 12 {
		var keys [12]string
		k := 0
		for j := obj + 1; j < end; j = int(tp.toks[j+1].next) {
			key := tp.Key(j)
			for _, prev := range keys[:k] {
				if prev == key {
					return true
				}
			}
			keys[k] = key
			k++
		}
		return false
	}
	seen := make(map[string]struct{}, n)
	for j := obj + 1; j < end; j = int(tp.toks[j+1].next) {
		key := tp.Key(j)
		if _, dup := seen[key]; dup {
			return true
		}
		seen[key] = struct{}{}
	}
	return false
}

// Key returns object key token t's text between its quotes: its value
// when it has no escapes (see PlainKeys).
func (tp *Tape) Key(t int) string {
	k := &tp.toks[t]
	return tp.src[k.start:k.end]
}
