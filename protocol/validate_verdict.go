package protocol

// MessageVerdict is the fast validator's verdict on one message's JSON
// text, as ValidMessageJSON reads it: decided reports whether it could
// tell, and then valid whether the message passes ValidateSchema (as a
// one-message list) and CheckLimits. Where decided is false (a schema or
// message the fast path does not handle, or text that is not JSON) the
// caller runs those two on the decoded message. It builds no error report:
// a caller that only needs the verdict, e.g. on every partial message of a
// stream, saves the schema library's report for an invalid one. It keeps
// no reference to msg once it returns, so a caller may pass a string that
// aliases a scratch buffer it reuses (unsafe.String). Safe for concurrent
// use.
func (c *Catalog) MessageVerdict(msg string) (valid, decided bool) {
	return c.fastVerdict(msg)
}
