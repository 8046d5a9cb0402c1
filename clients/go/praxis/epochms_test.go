package praxis

import (
	"errors"
	"testing"
	"time"
)

func TestEpochMsRoundTrip(t *testing.T) {
	for _, ms := range []int64{0, 1, -1, 1_700_000_000_123, MaxEpochMs, -MaxEpochMs} {
		tm, err := TimeFromEpochMs(ms)
		if err != nil {
			t.Fatalf("TimeFromEpochMs(%d): %v", ms, err)
		}
		if tm.Location() != time.UTC {
			t.Errorf("TimeFromEpochMs(%d) is in %s, want UTC", ms, tm.Location())
		}
		back, err := EpochMs(tm)
		if err != nil || back != ms {
			t.Errorf("EpochMs(TimeFromEpochMs(%d)) = %d, %v", ms, back, err)
		}
	}
	if tm, _ := TimeFromEpochMs(1_700_000_000_123); tm.Format(time.RFC3339Nano) != "2023-11-14T22:13:20.123Z" {
		t.Errorf("TimeFromEpochMs(1700000000123) = %s", tm.Format(time.RFC3339Nano))
	}
}

func TestEpochMsRejectsOutOfRange(t *testing.T) {
	for _, ms := range []int64{MaxEpochMs + 1, -MaxEpochMs - 1, 1 << 62, -1 << 63} {
		if _, err := TimeFromEpochMs(ms); !errors.Is(err, ErrEpochMsOutOfRange) {
			t.Errorf("TimeFromEpochMs(%d) = %v, want ErrEpochMsOutOfRange", ms, err)
		}
	}
	for _, tm := range []time.Time{
		time.UnixMilli(MaxEpochMs + 1),
		time.UnixMilli(-MaxEpochMs).Add(-time.Nanosecond),
		time.Date(300000, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		if _, err := EpochMs(tm); !errors.Is(err, ErrEpochMsOutOfRange) {
			t.Errorf("EpochMs(%s) = %v, want ErrEpochMsOutOfRange", tm, err)
		}
	}
}

func TestEpochMsDropsSubMillisecondsTowardsThePast(t *testing.T) {
	cases := map[time.Time]int64{
		time.Unix(0, 1_999_999):                       1,
		time.Unix(0, -1):                              -1,
		time.Unix(-1, 999_999):                        -1000,
		time.Unix(1, 0).In(time.FixedZone("X", 3600)): 1000,
	}
	for tm, want := range cases {
		if got, err := EpochMs(tm); err != nil || got != want {
			t.Errorf("EpochMs(%s) = %d, %v; want %d", tm.Format(time.RFC3339Nano), got, err, want)
		}
	}
}
