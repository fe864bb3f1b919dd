package parser

// rows2 to rows8 hold the arrays of a component's four lists of
// placeholders and waits (compEntry.phs, compLists.phJS, waits, waitN),
// of 2 to 8 elements, in one allocation instead of four: the lists grow
// together (growRows, placeholderSet.growLists). Each list's capacity
// ends at its own array, so an append to one never writes into another;
// a list that outgrows its array moves to one of its own, and the block
// stays while one of the four lists uses it. Each fills its allocation
// size class (64 bytes an element), which the four arrays allocated
// apart fill no better.
type (
	rows2 struct {
		phs, waits [2]string
		phJS       [2][]byte
		waitN      [2]int
	}
	rows3 struct {
		phs, waits [3]string
		phJS       [3][]byte
		waitN      [3]int
	}
	rows4 struct {
		phs, waits [4]string
		phJS       [4][]byte
		waitN      [4]int
	}
	rows5 struct {
		phs, waits [5]string
		phJS       [5][]byte
		waitN      [5]int
	}
	rows6 struct {
		phs, waits [6]string
		phJS       [6][]byte
		waitN      [6]int
	}
	rows7 struct {
		phs, waits [7]string
		phJS       [7][]byte
		waitN      [7]int
	}
	rows8 struct {
		phs, waits [8]string
		phJS       [8][]byte
		waitN      [8]int
	}
)

// listRows returns empty lists of capacity m (2 to 8) in one allocation,
// or nils for another m.
func listRows(m int) (phs []string, phJS [][]byte, waits []string, waitN []int) {
	switch m {
	case 2:
		r := new(rows2)
		return r.phs[:0], r.phJS[:0], r.waits[:0], r.waitN[:0]
	case 3:
		r := new(rows3)
		return r.phs[:0], r.phJS[:0], r.waits[:0], r.waitN[:0]
	case 4:
		r := new(rows4)
		return r.phs[:0], r.phJS[:0], r.waits[:0], r.waitN[:0]
	case 5:
		r := new(rows5)
		return r.phs[:0], r.phJS[:0], r.waits[:0], r.waitN[:0]
	case 6:
		r := new(rows6)
		return r.phs[:0], r.phJS[:0], r.waits[:0], r.waitN[:0]
	case 7:
		r := new(rows7)
		return r.phs[:0], r.phJS[:0], r.waits[:0], r.waitN[:0]
	case 8:
		r := new(rows8)
		return r.phs[:0], r.phJS[:0], r.waits[:0], r.waitN[:0]
	}
	return nil, nil, nil, nil
}
