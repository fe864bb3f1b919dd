package protocol

// CloneValue deep-copies a decoded JSON value, for the external tests.
var CloneValue = cloneValue
