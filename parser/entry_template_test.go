package parser

import "testing"

// TestCompScannerTemplate checks which template child lists the byte-level
// reader takes (compFast, with the template's componentId as a
// cfComponentID slot and the component rewritten with sorted keys) and
// which it leaves to the generic path (compUnread).
func TestCompScannerTemplate(t *testing.T) {
	for _, tc := range []scanCase{
		{"v09", false, `{ "id" : "l", "component" : "List", "children" : { "path" : "/items", "componentId" : "item" } }`, compFast,
			`{"children":{"componentId":"item","path":"/items"},"component":"List","id":"l"}`, "[6:item]"},
		{"v09 with child and nested values", false, `{"id":"l","component":"Card","children":{"componentId":"x","extra":{"z":[1,{"k":"v"}],"a":true}},"child":"y"}`, compFast,
			`{"child":"y","children":{"componentId":"x","extra":{"a":true,"z":[1,{"k":"v"}]}},"component":"Card","id":"l"}`, "[2:y 6:x]"},
		{"v09 no componentId", false, `{"id":"l","component":"List","children":{"path":"/p"}}`, compFast,
			`{"children":{"path":"/p"},"component":"List","id":"l"}`, "[]"},
		{"v09 empty", false, `{"id":"l","component":"List","children":{}}`, compFast,
			`{"children":{},"component":"List","id":"l"}`, "[]"},
		{"v09 componentId not a string", false, `{"id":"l","component":"List","children":{"componentId":7}}`, compFast,
			`{"children":{"componentId":7},"component":"List","id":"l"}`, "[]"},
		{"v09 componentId an object", false, `{"id":"l","component":"List","children":{"componentId":{"a":null}}}`, compFast,
			`{"children":{"componentId":{"a":null}},"component":"List","id":"l"}`, "[]"},
		{"v09 componentId a list", false, `{"id":"l","component":"List","children":{"componentId":["x"]}}`, compFast, `{"children":{"componentId":["x"]},"component":"List","id":"l"}`, "[5:x]"},
		{"v09 explicitList in it", false, `{"id":"l","component":"List","children":{"componentId":"x","explicitList":["y"]}}`, compFast, `{"children":{"componentId":"x","explicitList":["y"]},"component":"List","id":"l"}`, "[6:x 1:y]"},
		{"v09 template in it", false, `{"id":"l","component":"List","children":{"template":{"componentId":"x"}}}`, compFast, `{"children":{"template":{"componentId":"x"}},"component":"List","id":"l"}`, "[5:x]"},
		{"v09 duplicate componentId", false, `{"id":"l","component":"List","children":{"componentId":"x","componentId":"z"}}`, compFast,
			`{"children":{"componentId":"z"},"component":"List","id":"l"}`, "[6:z]"},
		{"v09 escaped key", false, `{"id":"l","component":"List","children":{"component\u0049d":"x"}}`, compFast,
			`{"children":{"componentId":"x"},"component":"List","id":"l"}`, "[6:x]"},
		{"v08", true, `{"id":"l","component":{"List":{"children":{ "template" : { "dataBinding" : "/items", "componentId" : "item" } }}}}`, compFast,
			`{"component":{"List":{"children":{"template":{"componentId":"item","dataBinding":"/items"}}}},"id":"l"}`, "[6:item]"},
		{"v08 with explicitList property", true, `{"id":"l","weight":1,"component":{"Row":{"explicitList":["t"],"children":{"template":{"componentId":"i"}}}}}`, compFast,
			`{"component":{"Row":{"children":{"template":{"componentId":"i"}},"explicitList":["t"]}},"id":"l","weight":1}`, "[6:i 1:t]"},
		{"v08 path in it", true, `{"id":"l","component":{"List":{"children":{"template":{"componentId":"x","path":"/p"}}}}}`, compFast,
			`{"component":{"List":{"children":{"template":{"componentId":"x","path":"/p"}}}},"id":"l"}`, "[6:x]"},
		{"v08 second member", true, `{"id":"l","component":{"List":{"children":{"template":{"componentId":"x"},"explicitList":["x"]}}}}`, compFast, `{"component":{"List":{"children":{"explicitList":["x"],"template":{"componentId":"x"}}}},"id":"l"}`, "[7:x 5:x]"},
		{"v08 template not an object", true, `{"id":"l","component":{"List":{"children":{"template":"x"}}}}`, compFast,
			`{"component":{"List":{"children":{"template":"x"}}},"id":"l"}`, "[]"},
		{"v08 template a list", true, `{"id":"l","component":{"List":{"children":{"template":["x",{"child":"c"}],"dataBinding":"/d"}}}}`, compFast,
			`{"component":{"List":{"children":{"dataBinding":"/d","template":["x",{"child":"c"}]}}},"id":"l"}`, "[2:c]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkScan(t, tc.comp, tc.v08, tc.want, tc.out, tc.ids)
		})
	}
}
