package parser

import (
	"fmt"
	"testing"
	"unsafe"
)

// TestGrowRowsLists grows a component's four lists of placeholders and
// waits one element at a time, as appendSlots does, to 40 elements: they
// keep their values, and no two of them share an array (growRows moves
// them to one allocation of four arrays, each list's capacity ending at
// its own), so that an append to one never writes into another.
func TestGrowRowsLists(t *testing.T) {
	ent, l := &compEntry{}, &compLists{}
	ent.lists = l
	grown := 0
	for i := range 40 {
		id := fmt.Sprintf("c%d", i)
		if n := len(ent.phs); n > 0 && n == cap(ent.phs) {
			before := unsafe.SliceData(ent.phs)
			growRows(ent, l)
			if unsafe.SliceData(ent.phs) != before {
				grown++
			}
		}
		ent.phs = appendOne(ent.phs, "loading_"+id, l.phsOne[:])
		l.phJS = appendOne(l.phJS, []byte(id), l.phJSOne[:])
		l.waits = appendOne(l.waits, id, l.waitsOne[:])
		l.waitN = appendOne(l.waitN, i, l.waitNOne[:])
		type arr struct {
			what   string
			at, to uintptr
		}
		span := func(what string, p unsafe.Pointer, c int, size uintptr) arr {
			return arr{what, uintptr(p), uintptr(p) + uintptr(c)*size}
		}
		arrs := []arr{
			span("phs", unsafe.Pointer(unsafe.SliceData(ent.phs)), cap(ent.phs), unsafe.Sizeof("")),
			span("phJS", unsafe.Pointer(unsafe.SliceData(l.phJS)), cap(l.phJS), unsafe.Sizeof([]byte(nil))),
			span("waits", unsafe.Pointer(unsafe.SliceData(l.waits)), cap(l.waits), unsafe.Sizeof("")),
			span("waitN", unsafe.Pointer(unsafe.SliceData(l.waitN)), cap(l.waitN), unsafe.Sizeof(0)),
		}
		for a := range arrs {
			for b := a + 1; b < len(arrs); b++ {
				if arrs[a].at < arrs[b].to && arrs[b].at < arrs[a].to {
					t.Fatalf("%d elements: the arrays of %s and %s overlap", i+1, arrs[a].what, arrs[b].what)
				}
			}
		}
		for j := 0; j <= i; j++ {
			want := fmt.Sprintf("c%d", j)
			if ent.phs[j] != "loading_"+want || string(l.phJS[j]) != want || l.waits[j] != want || l.waitN[j] != j {
				t.Fatalf("%d elements: element %d is %q %q %q %d", i+1, j, ent.phs[j], l.phJS[j], l.waits[j], l.waitN[j])
			}
		}
	}
	if grown == 0 {
		t.Fatal("growRows never moved the lists: the test does not test")
	}
}

// TestGrowListsApart: the four lists processFast fills, grown at once
// for a component's first missing children (growLists, from empty lists
// without room), have room for them, are empty, and do not share an
// array, so that an append to one never writes into another.
func TestGrowListsApart(t *testing.T) {
	for missing := 1; missing <= 10; missing++ {
		var p placeholderSet
		p.growLists(missing)
		if len(p.extra)+len(p.extraJS)+len(p.waits)+len(p.waitN) != 0 {
			t.Fatalf("%d missing: lists not empty", missing)
		}
		if cap(p.extra) < missing || cap(p.extraJS) < missing || cap(p.waits) < missing || cap(p.waitN) < missing {
			t.Fatalf("%d missing: capacities %d %d %d %d", missing, cap(p.extra), cap(p.extraJS), cap(p.waits), cap(p.waitN))
		}
		p.extra, p.extraJS = p.extra[:cap(p.extra)], p.extraJS[:cap(p.extraJS)]
		p.waits, p.waitN = p.waits[:cap(p.waits)], p.waitN[:cap(p.waitN)]
		for i := range p.extra {
			p.extra[i] = "ph"
		}
		for i := range p.extraJS {
			p.extraJS[i] = []byte("js")
		}
		for i := range p.waits {
			p.waits[i] = "w"
		}
		for i := range p.waitN {
			p.waitN[i] = 7
		}
		for i := range missing {
			if p.extra[i] != "ph" || string(p.extraJS[i]) != "js" || p.waits[i] != "w" || p.waitN[i] != 7 {
				t.Fatalf("%d missing: element %d is %q %q %q %d: the lists share an array", missing, i, p.extra[i], p.extraJS[i], p.waits[i], p.waitN[i])
			}
		}
	}
}
