package praxis

import (
	"errors"
	"fmt"
	"time"
)

// MaxEpochMs bounds every `*_ms` time on the wire: |ms| <= 8.64e15, the range of an
// ECMAScript Date, so that every client can represent every time.
const MaxEpochMs int64 = 8_640_000_000_000_000

// ErrEpochMsOutOfRange is wrapped by errors about times outside ±MaxEpochMs.
var ErrEpochMsOutOfRange = errors.New("epoch milliseconds out of range")

// EpochMs returns t as UTC epoch milliseconds for a `*_ms` field. Sub-millisecond
// precision is dropped (rounded towards the past, as time.Time.UnixMilli does).
func EpochMs(t time.Time) (int64, error) {
	if t.Before(time.UnixMilli(-MaxEpochMs)) || !t.Before(time.UnixMilli(MaxEpochMs+1)) {
		return 0, fmt.Errorf("%w: %s", ErrEpochMsOutOfRange, t.Format(time.RFC3339Nano))
	}
	return t.UnixMilli(), nil
}

// TimeFromEpochMs converts a `*_ms` field to a UTC time.
func TimeFromEpochMs(ms int64) (time.Time, error) {
	if ms < -MaxEpochMs || ms > MaxEpochMs {
		return time.Time{}, fmt.Errorf("%w: %d", ErrEpochMsOutOfRange, ms)
	}
	return time.UnixMilli(ms).UTC(), nil
}
