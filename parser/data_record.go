package parser

// Comparison encodings of data model values, and the records of yielded
// data.

// Yielded data model values are remembered, and compared, as comparison
// encodings: the canonical encoding appendJSON writes, except that a byte
// of invalid UTF-8 in a string (a character cut by a chunk boundary and
// closed by healing) is written as \xHH instead of \ufffd. appendJSON is
// injective on everything else, so two decoded values have the same
// comparison encoding exactly when they are deeply equal, and for the
// usual, valid text the two encodings are the same bytes.

// encodedValue is a JSON value held as its encodings, in messages built
// from the data model reader instead of decoded values: appendJSON writes
// out, appendCmp writes cmp. key is the "key" of a v0.8 data entry (keyed:
// it has a string "key"), for the delta reduction.
type encodedValue struct {
	out, cmp string
	key      string
	keyed    bool
}

// appendCmpString is appendJSONString writing each byte of invalid UTF-8 as
// \xHH (an escape appendJSONString never writes) instead of \ufffd.
func appendCmpString(dst []byte, s string) []byte {
	return appendQuoted(dst, s, true)
}

// differs reports whether the comparison encoding cmp differs from the one
// recorded under key in d (an absent key counts as null).
func differs(d map[string]string, key string, cmp string) bool {
	prev, ok := d[key]
	if !ok {
		prev = "null"
	}
	return prev != cmp
}

// differsBytes is differs for an encoding in a scratch buffer.
func differsBytes(d map[string]string, key string, cmp []byte) bool {
	prev, ok := d[key]
	if !ok {
		prev = "null"
	}
	return prev != string(cmp)
}

// recordData records v as the value last yielded under key in d.
func (e *progressiveEngine) recordData(d map[string]string, key string, v any) {
	r := e.reader()
	r.enc = appendCmp(r.enc[:0], v)
	if prev, ok := d[key]; !ok || prev != string(r.enc) {
		d[key] = string(r.enc)
	}
}

// encodeData encodes the entries of m (but surfaceId and root, when body)
// into the reader's encs, to be recorded by recordEncoded, and reports whether
// one differs from what d records.
func (e *progressiveEngine) encodeData(d map[string]string, m map[string]any, body bool) bool {
	r := e.reader()
	r.enc, r.encs = r.enc[:0], r.encs[:0]
	isNew := false
	for k, v := range m {
		if body && (k == "surfaceId" || k == "root") {
			continue
		}
		a := len(r.enc)
		r.enc = appendCmp(r.enc, v)
		r.encs = append(r.encs, keyedEnc{k, a, len(r.enc)})
		isNew = isNew || differsBytes(d, k, r.enc[a:])
	}
	return isNew
}

// recordEncoded records the entries encodeData encoded.
func (e *progressiveEngine) recordEncoded(d map[string]string) {
	r := e.reader()
	for _, ke := range r.encs {
		if enc := r.enc[ke.a:ke.b]; !mapHas(d, ke.key, enc) {
			d[ke.key] = string(enc)
		}
	}
	clear(r.encs)
}

// mapHas reports whether d holds enc under key.
func mapHas(d map[string]string, key string, enc []byte) bool {
	prev, ok := d[key]
	return ok && prev == string(enc)
}

// keyedEnc is the encoding enc[a:b] of the value under key.
type keyedEnc struct {
	key  string
	a, b int
}
