package processor

// Interning of the strings every component repeats.
//
// A component's type and the property names of its references are, nearly
// always, one of a few well-known names. Holding those as constants
// (static data) instead of substrings of the message leaves the garbage
// collector fewer heap pointers to follow and the write barrier fewer to
// record: a surface's state is mostly pointers, and the collector's work
// is proportional to them.

// internType returns a constant equal to t when t is a basic catalog
// component type (v0.8 or v0.9), else t itself.
func internType(t string) string {
	switch t {
	case "Text":
		return "Text"
	case "Column":
		return "Column"
	case "Row":
		return "Row"
	case "Card":
		return "Card"
	case "Button":
		return "Button"
	case "Image":
		return "Image"
	case "Icon":
		return "Icon"
	case "TextField":
		return "TextField"
	case "CheckBox":
		return "CheckBox"
	case "ChoicePicker":
		return "ChoicePicker"
	case "MultipleChoice":
		return "MultipleChoice"
	case "DateTimeInput":
		return "DateTimeInput"
	case "Divider":
		return "Divider"
	case "List":
		return "List"
	case "Modal":
		return "Modal"
	case "Tabs":
		return "Tabs"
	case "Slider":
		return "Slider"
	case "Video":
		return "Video"
	case "AudioPlayer":
		return "AudioPlayer"
	}
	return t
}

// internKey returns a constant equal to k when k is a well-known
// reference property name, else k itself.
func internKey(k string) string {
	switch k {
	case "child":
		return "child"
	case "children":
		return "children"
	case "contentChild":
		return "contentChild"
	case "entryPointChild":
		return "entryPointChild"
	case "tabItems":
		return "tabItems"
	case "tabs":
		return "tabs"
	case "explicitList":
		return "explicitList"
	case "template":
		return "template"
	case "detail":
		return "detail"
	case "summary":
		return "summary"
	case "root":
		return "root"
	case "trigger":
		return "trigger"
	case "content":
		return "content"
	}
	return k
}
