package main

import "io"

// readChunks reads in readBufferSize bytes at a time and calls feed with
// chunks of n bytes (each read whole when n is 0): every chunk but the
// last has exactly n bytes, however the reads split the input, and no
// chunk costs a read of its own. flush runs before each read, so that a
// live stream's output goes out as its input arrives.
func readChunks(in io.Reader, n int, flush func() error, feed func([]byte) error) error {
	buf := make([]byte, max(readBufferSize, n))
	have := 0 // bytes read and not yet fed, at the start of buf
	for {
		if err := flush(); err != nil {
			return err
		}
		k, rerr := in.Read(buf[have:])
		have += k
		fed := 0
		switch {
		case n == 0:
			if have > 0 {
				if err := feed(buf[:have]); err != nil {
					return err
				}
			}
			fed = have
		default:
			for ; have-fed >= n; fed += n {
				if err := feed(buf[fed : fed+n]); err != nil {
					return err
				}
			}
			if rerr == io.EOF && fed < have {
				if err := feed(buf[fed:have]); err != nil {
					return err
				}
				fed = have
			}
		}
		have = copy(buf, buf[fed:have])
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return rerr
		}
	}
}
