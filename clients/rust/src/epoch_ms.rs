//! Conversions for `*_ms` time fields: UTC epoch milliseconds in an `int64`.
//!
//! The accepted range is that of ECMAScript dates, ±8.64e15 ms (about ±273,790 years), so
//! that every client language can represent every value; anything outside it is rejected
//! rather than clamped.
//!
//! ```
//! use std::time::{Duration, SystemTime, UNIX_EPOCH};
//! use praxis_client::epoch_ms;
//!
//! let t = epoch_ms::to_system_time(1_767_225_600_000).unwrap();
//! assert_eq!(t, UNIX_EPOCH + Duration::from_secs(1_767_225_600));
//! assert_eq!(epoch_ms::from_system_time(t).unwrap(), 1_767_225_600_000);
//! ```

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The largest accepted value, 8.64e15 ms after the epoch.
pub const MAX: i64 = 8_640_000_000_000_000;
/// The smallest accepted value, 8.64e15 ms before the epoch.
pub const MIN: i64 = -MAX;

/// A time outside [`MIN`]..=[`MAX`] epoch milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfRange;

impl fmt::Display for OutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("time outside the epoch-millisecond range of ±8.64e15 ms")
    }
}

impl std::error::Error for OutOfRange {}

/// Reports whether `ms` is within [`MIN`]..=[`MAX`].
pub fn in_range(ms: i64) -> bool {
    (MIN..=MAX).contains(&ms)
}

/// Converts epoch milliseconds to a [`SystemTime`].
pub fn to_system_time(ms: i64) -> Result<SystemTime, OutOfRange> {
    if !in_range(ms) {
        return Err(OutOfRange);
    }
    let magnitude = Duration::from_millis(ms.unsigned_abs());
    let time = if ms >= 0 {
        UNIX_EPOCH.checked_add(magnitude)
    } else {
        UNIX_EPOCH.checked_sub(magnitude)
    };
    time.ok_or(OutOfRange)
}

/// Converts a [`SystemTime`] to epoch milliseconds. Sub-millisecond precision is dropped
/// toward the past (1.5 ms before the epoch gives -2).
pub fn from_system_time(time: SystemTime) -> Result<i64, OutOfRange> {
    let ms: i128 = match time.duration_since(UNIX_EPOCH) {
        Ok(after) => i128::try_from(after.as_millis()).map_err(|_| OutOfRange)?,
        Err(before) => {
            let before = before.duration();
            let whole = i128::try_from(before.as_millis()).map_err(|_| OutOfRange)?;
            let partial = before.subsec_nanos() % 1_000_000 != 0;
            -(whole + i128::from(partial))
        }
    };
    let ms = i64::try_from(ms).map_err(|_| OutOfRange)?;
    if in_range(ms) {
        Ok(ms)
    } else {
        Err(OutOfRange)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_in_range() {
        for ms in [0, 1, -1, 999, -1001, 1_767_225_600_000, MAX, MIN] {
            assert!(in_range(ms));
            assert_eq!(
                from_system_time(to_system_time(ms).unwrap()),
                Ok(ms),
                "{ms}"
            );
        }
    }

    #[test]
    fn rejects_out_of_range() {
        for ms in [MAX + 1, MIN - 1, i64::MAX, i64::MIN] {
            assert!(!in_range(ms));
            assert_eq!(to_system_time(ms), Err(OutOfRange), "{ms}");
        }
        let past_max = UNIX_EPOCH + Duration::from_millis(MAX as u64 + 1);
        assert_eq!(from_system_time(past_max), Err(OutOfRange));
        let before_min = UNIX_EPOCH - Duration::from_millis(MAX as u64 + 1);
        assert_eq!(from_system_time(before_min), Err(OutOfRange));
    }

    #[test]
    fn known_values() {
        assert_eq!(
            to_system_time(-1_500).unwrap(),
            UNIX_EPOCH - Duration::from_millis(1_500)
        );
        assert_eq!(
            to_system_time(1_767_225_600_123).unwrap(),
            UNIX_EPOCH + Duration::from_millis(1_767_225_600_123)
        );
    }

    #[test]
    fn drops_sub_milliseconds_toward_the_past() {
        assert_eq!(
            from_system_time(UNIX_EPOCH + Duration::from_micros(1_999)),
            Ok(1)
        );
        assert_eq!(
            from_system_time(UNIX_EPOCH - Duration::from_micros(1_500)),
            Ok(-2)
        );
        assert_eq!(
            from_system_time(UNIX_EPOCH - Duration::from_micros(2_000)),
            Ok(-2)
        );
        assert_eq!(
            from_system_time(UNIX_EPOCH - Duration::from_nanos(1)),
            Ok(-1)
        );
    }
}
