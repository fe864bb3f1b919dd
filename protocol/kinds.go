package protocol

// Kind is the envelope key of an A2UI message: the one key, besides
// "version", that says what the message does.
type Kind string

// Message kinds of the v0.9 family.
const (
	KindCreateSurface    Kind = "createSurface"
	KindUpdateComponents Kind = "updateComponents"
	KindUpdateDataModel  Kind = "updateDataModel"
	KindDeleteSurface    Kind = "deleteSurface"
)

// Message kinds of v0.8 (deleteSurface is shared with the v0.9 family).
const (
	KindBeginRendering  Kind = "beginRendering"
	KindSurfaceUpdate   Kind = "surfaceUpdate"
	KindDataModelUpdate Kind = "dataModelUpdate"
)

var kindsV08 = []Kind{KindBeginRendering, KindSurfaceUpdate, KindDataModelUpdate, KindDeleteSurface}
var kindsV09 = []Kind{KindCreateSurface, KindUpdateComponents, KindUpdateDataModel, KindDeleteSurface}

// Kinds returns the message kinds of a version family, in protocol order.
// The returned slice must not be modified.
func Kinds(f Family) []Kind {
	switch f {
	case FamilyV08:
		return kindsV08
	case FamilyV09:
		return kindsV09
	}
	return nil
}

// FamilyOf reports the family a kind belongs to. deleteSurface belongs to
// both; FamilyOf reports FamilyUnknown for it and for unknown kinds.
func FamilyOf(k Kind) Family {
	switch k {
	case KindBeginRendering, KindSurfaceUpdate, KindDataModelUpdate:
		return FamilyV08
	case KindCreateSurface, KindUpdateComponents, KindUpdateDataModel:
		return FamilyV09
	}
	return FamilyUnknown
}
