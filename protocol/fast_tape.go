package protocol

// Helpers the fast validity checks (fastSchema, fastLimitsOK) use on a
// Tape. The fast path is deliberately conservative: anything it could read
// differently from encoding/json (escaped or duplicate object keys; invalid
// UTF-8 and nesting deeper than MaxComponentDepth already fail Parse) makes
// it give up, and the caller takes the full path instead (see
// fastReadable).

// fastReadable reports whether the fast checks read the parsed message
// exactly as encoding/json does: no object key has an escape and no
// object repeats a key.
func (tp *Tape) fastReadable() bool {
	if tp.escapedKey {
		return false
	}
	for t := range tp.toks {
		if tp.toks[t].kind == TapeObject && tp.toks[t].n > 1 && tp.hasDuplicateKeys(t) {
			return false
		}
	}
	return true
}

// hasDuplicateKeys reports whether an object repeats a key (keys have no
// escapes: fastReadable checks that first).
func (tp *Tape) hasDuplicateKeys(obj int) bool {
	n := int(tp.toks[obj].n)
	end := int(tp.toks[obj].next)
	if n <= 12 {
		var keys [12]string
		k := 0
		for j := obj + 1; j < end; j = int(tp.toks[j+1].next) {
			key := tp.key(j)
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
		key := tp.key(j)
		if _, dup := seen[key]; dup {
			return true
		}
		seen[key] = struct{}{}
	}
	return false
}

// key is object key token t's value, for keys without escapes (the fast
// path gives up on the others, see fastReadable).
func (tp *Tape) key(t int) string {
	k := &tp.toks[t]
	return tp.src[k.start:k.end]
}

// decode is token t's value in the package's JSON data model (json.Number
// numbers), for the rare comparisons the fast path does not do on the
// text itself.
func (tp *Tape) decode(t int) any {
	v, err := decodeJSON([]byte(tp.Raw(t)))
	if err != nil {
		return nil
	}
	return v
}
