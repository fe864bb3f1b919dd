package deltaengine

// VerifyBodies has every progressive snapshot written from a body checked
// against the same built anew (see snapBody), for the tests of this
// package.
var VerifyBodies = &verifyBodies
