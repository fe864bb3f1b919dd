package parser

import "testing"

// TestKeyRecord checks that a record linked to a reader's data answers as
// a map of what was recorded would: through replacements of linked
// entries, entries absent (null, the one arriving), and the data dropped.
func TestKeyRecord(t *testing.T) {
	type want struct {
		key, enc string // enc "": absent
	}
	for _, tc := range []struct {
		name  string
		limit int
		run   func(r *dataReader, k *keyRecord)
		n     int
		want  []want
		drop  bool
	}{
		{"linked", 0, func(r *dataReader, k *keyRecord) {
			k.link(r, &r.cont, false, "")
		}, 2, []want{{"a", "1"}, {"b", `"x"`}, {"c", ""}}, false},
		{"null_stays_absent", 0, func(r *dataReader, k *keyRecord) {
			r.addEntry(&r.cont, "c", "null")
			k.link(r, &r.cont, false, "")
		}, 2, []want{{"c", ""}}, false},
		{"open_key_stays_absent", 0, func(r *dataReader, k *keyRecord) {
			k.link(r, &r.cont, true, "b")
		}, 1, []want{{"a", "1"}, {"b", ""}}, false},
		{"map_value_wins", 0, func(r *dataReader, k *keyRecord) {
			k.set("a", "2")
			k.link(r, &r.cont, false, "")
		}, 2, []want{{"a", "2"}, {"b", `"x"`}}, false},
		{"replaced_entry_pinned", 0, func(r *dataReader, k *keyRecord) {
			k.link(r, &r.cont, false, "")
			r.addEntry(&r.cont, "a", "3")
		}, 2, []want{{"a", "1"}}, false},
		{"set_then_link_again", 0, func(r *dataReader, k *keyRecord) {
			k.link(r, &r.cont, false, "")
			r.addEntry(&r.cont, "a", "3")
			k.set("a", "3")
			r.addEntry(&r.cont, "d", "4")
			k.link(r, &r.cont, false, "")
		}, 3, []want{{"a", "3"}, {"d", "4"}}, false},
		{"unlinked_keeps_values", 0, func(r *dataReader, k *keyRecord) {
			k.link(r, &r.cont, false, "")
			r.unlinkAll(1, false)
			r.cont.reset(false, 2)
		}, 2, []want{{"a", "1"}, {"b", `"x"`}}, false},
		// record (delta mode's record of a message): only the entries a
		// yield recorded are held.
		{"record_links_recorded", 0, func(r *dataReader, k *keyRecord) {
			k.record(r, &r.cont, []int32{0}, nil)
		}, 1, []want{{"a", "1"}, {"b", ""}}, false},
		{"record_keeps_map_value", 0, func(r *dataReader, k *keyRecord) {
			k.set("b", "2")
			k.record(r, &r.cont, []int32{0}, nil)
		}, 2, []want{{"a", "1"}, {"b", "2"}}, false},
		{"record_links_equal_map_value", 0, func(r *dataReader, k *keyRecord) {
			k.set("b", `"x"`)
			k.record(r, &r.cont, []int32{0}, nil)
			r.addEntry(&r.cont, "b", "7")
		}, 2, []want{{"a", "1"}, {"b", `"x"`}}, false},
		{"record_recorded_replaces_map_value", 0, func(r *dataReader, k *keyRecord) {
			k.set("a", "2")
			k.record(r, &r.cont, []int32{0, 1}, nil)
		}, 2, []want{{"a", "1"}, {"b", `"x"`}}, false},
		{"record_relinks_replaced_entry", 0, func(r *dataReader, k *keyRecord) {
			k.record(r, &r.cont, []int32{0, 1}, nil)
			r.addEntry(&r.cont, "a", "3")
			k.record(r, &r.cont, []int32{0}, nil)
		}, 2, []want{{"a", "3"}, {"b", `"x"`}}, false},
		{"record_absent_then_recorded", 0, func(r *dataReader, k *keyRecord) {
			k.record(r, &r.cont, nil, nil)
			k.record(r, &r.cont, []int32{1}, nil)
		}, 1, []want{{"a", ""}, {"b", `"x"`}}, false},
		{"record_holds_open_entry", 0, func(r *dataReader, k *keyRecord) {
			k.record(r, &r.cont, []int32{0, 1}, &dataEntry{key: "c", out: "5", cmp: "5"})
		}, 3, []want{{"a", "1"}, {"b", `"x"`}, {"c", "5"}}, false},
		{"per_message_emptied_for_another", 0, func(r *dataReader, k *keyRecord) {
			k.perMsg, k.msg = true, 1
			k.record(r, &r.cont, []int32{0, 1}, nil)
			r.unlinkAll(2, false)
		}, 0, []want{{"a", ""}, {"b", ""}}, false},
		{"per_message_kept_for_its_own", 0, func(r *dataReader, k *keyRecord) {
			k.perMsg, k.msg = true, 1
			k.record(r, &r.cont, []int32{0, 1}, nil)
			r.unlinkAll(1, false)
			r.cont.reset(false, 2)
		}, 2, []want{{"a", "1"}, {"b", `"x"`}}, false},
		{"unlinked_over_limit_dropped", 1, func(r *dataReader, k *keyRecord) {
			k.link(r, &r.cont, false, "")
			r.unlinkData(r.cont.id)
		}, 0, []want{{"a", ""}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &dataReader{}
			r.cont.reset(false, 1)
			r.addEntry(&r.cont, "a", "1")
			r.addEntry(&r.cont, "b", `"x"`)
			k := newKeyRecord(tc.limit)
			tc.run(r, k)
			for _, w := range tc.want {
				got, ok := k.get(w.key)
				if ok != (w.enc != "") || got != w.enc {
					t.Errorf("get(%q) = %q, %v; want %q", w.key, got, ok, w.enc)
				}
			}
			if k.len() != tc.n || k.dropped != tc.drop {
				t.Errorf("len %d, dropped %v; want %d, %v", k.len(), k.dropped, tc.n, tc.drop)
			}
		})
	}
}

// TestKeyRecordList checks a record linked to a reader's v0.8 contents
// list (linkList): it answers, for each key, its last element with a
// value, as a map of what was recorded would, holding in its map only
// what the link does not give, through elements replacing linked ones,
// and the data dropped.
func TestKeyRecordList(t *testing.T) {
	type want struct {
		key, enc string // enc "": absent
	}
	add := func(t *testing.T, r *dataReader, el string) {
		t.Helper()
		if !r.member([]byte(el), "", &r.cont) {
			t.Fatalf("element %s not read", el)
		}
	}
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, r *dataReader, k *keyRecord)
		n    int // keys held
		m    int // keys in the map
		want []want
	}{
		{"linked", func(t *testing.T, r *dataReader, k *keyRecord) {
			k.linkList(r, &r.cont)
		}, 2, 0, []want{{"a", `"1"`}, {"b", "2"}, {"c", ""}}},
		{"recorded_values_take_no_map_entry", func(t *testing.T, r *dataReader, k *keyRecord) {
			k.linkList(r, &r.cont)
			k.set("a", `"1"`)
			k.set("b", "2")
		}, 2, 0, []want{{"a", `"1"`}, {"b", "2"}}},
		{"map_value_wins", func(t *testing.T, r *dataReader, k *keyRecord) {
			k.set("a", "9")
			k.linkList(r, &r.cont)
		}, 2, 1, []want{{"a", "9"}, {"b", "2"}}},
		{"equal_map_value_linked", func(t *testing.T, r *dataReader, k *keyRecord) {
			k.set("a", `"1"`)
			k.linkList(r, &r.cont)
		}, 2, 0, []want{{"a", `"1"`}, {"b", "2"}}},
		{"replaced_element_pinned", func(t *testing.T, r *dataReader, k *keyRecord) {
			k.linkList(r, &r.cont)
			add(t, r, `{"key":"a","valueString":"3"}`)
		}, 2, 1, []want{{"a", `"1"`}, {"b", "2"}}},
		{"element_without_value_replaces_nothing", func(t *testing.T, r *dataReader, k *keyRecord) {
			k.linkList(r, &r.cont)
			add(t, r, `{"key":"b"}`)
		}, 2, 0, []want{{"a", `"1"`}, {"b", "2"}}},
		{"set_then_link_again", func(t *testing.T, r *dataReader, k *keyRecord) {
			k.linkList(r, &r.cont)
			add(t, r, `{"key":"a","valueString":"3"}`)
			add(t, r, `{"key":"d","valueBoolean":true}`)
			k.set("a", `"3"`)
			k.set("d", "true")
			k.linkList(r, &r.cont)
		}, 3, 0, []want{{"a", `"3"`}, {"b", "2"}, {"d", "true"}}},
		{"new_element_not_linked_before_link", func(t *testing.T, r *dataReader, k *keyRecord) {
			k.linkList(r, &r.cont)
			add(t, r, `{"key":"d","valueBoolean":true}`)
		}, 2, 0, []want{{"d", ""}}},
		{"unlinked_keeps_values", func(t *testing.T, r *dataReader, k *keyRecord) {
			k.linkList(r, &r.cont)
			add(t, r, `{"key":"a","valueString":"3"}`)
			r.unlinkAll(1, false)
			r.cont.reset(true, 2)
		}, 2, 2, []want{{"a", `"1"`}, {"b", "2"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &dataReader{}
			r.cont.reset(true, 1)
			add(t, r, `{"key":"a","valueString":"1"}`)
			add(t, r, `{"key":"b","valueNumber":2}`)
			add(t, r, `{"key":"a"}`)
			add(t, r, `{"valueString":"no key"}`)
			k := newKeyRecord(0)
			tc.run(t, r, k)
			for _, w := range tc.want {
				got, ok := k.get(w.key)
				if ok != (w.enc != "") || got != w.enc {
					t.Errorf("get(%q) = %q, %v; want %q", w.key, got, ok, w.enc)
				}
			}
			if k.len() != tc.n || len(k.m) != tc.m {
				t.Errorf("len %d, map %d; want %d, %d", k.len(), len(k.m), tc.n, tc.m)
			}
			if all := k.appendAll(nil); len(all) != tc.n {
				t.Errorf("appendAll gives %d entries, want %d", len(all), tc.n)
			}
		})
	}
}
