//! Continuing the attempt's trace in the worker.
//!
//! A server that exports traces hands each task its attempt's span as a W3C Trace Context
//! `traceparent` ([`TaskContext::traceparent`](crate::worker::TaskContext::traceparent)).
//! With the crate's `otel` feature on (the OpenTelemetry API crate `opentelemetry`, never
//! an SDK), the worker runtime runs each handler future with that span made the current
//! *remote* parent (`opentelemetry::context::FutureExt::with_context`), so a span the
//! handler starts with the tracer of whatever SDK the program installed is a child of the
//! attempt, in the run's trace. No propagator needs registering. Without the feature, or
//! when the value is empty or not a valid `traceparent`, the handler runs as before.
//!
//! [`parse_traceparent`] is the strict W3C parser the runtime uses; it needs no feature.

/// A parsed W3C `traceparent` (Trace Context Level 1, version `00` layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceParent {
    /// The trace id (16 bytes, never all zero).
    pub trace_id: [u8; 16],
    /// The parent span id (8 bytes, never all zero).
    pub span_id: [u8; 8],
    /// The trace flags (bit 0: sampled).
    pub flags: u8,
}

/// The W3C length of a version-`00` `traceparent`: `vv-<32>-<16>-ff`.
const LENGTH: usize = 55;

fn hex_value(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None, // upper case is invalid (W3C: lowercase hex)
    }
}

fn hex_bytes<const N: usize>(text: &[u8]) -> Option<[u8; N]> {
    let mut out = [0u8; N];
    for (i, pair) in text.chunks_exact(2).enumerate() {
        out[i] = hex_value(pair[0])? << 4 | hex_value(pair[1])?;
    }
    Some(out)
}

/// Parses `value` strictly per W3C Trace Context: a lowercase-hex version other than `ff`
/// (version `00`: exactly 55 characters; a later version: the `00` fields, then nothing
/// or `-` and more), a non-zero 32-hex trace id, a non-zero 16-hex parent id and 2-hex
/// flags. `None` for an empty or malformed value.
///
/// ```
/// use praxis_client::trace::parse_traceparent;
///
/// let tp = parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").unwrap();
/// assert_eq!(tp.span_id, [0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7]);
/// assert_eq!(tp.flags, 1);
/// assert!(parse_traceparent("").is_none());
/// assert!(parse_traceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01").is_none());
/// ```
pub fn parse_traceparent(value: &str) -> Option<TraceParent> {
    let b = value.as_bytes();
    if b.len() < LENGTH {
        return None;
    }
    let version = hex_bytes::<1>(&b[0..2])?[0];
    if version == 0xff {
        return None;
    }
    if version == 0 && b.len() != LENGTH {
        return None;
    }
    if b.len() > LENGTH && b[LENGTH] != b'-' {
        return None;
    }
    if b[2] != b'-' || b[35] != b'-' || b[52] != b'-' {
        return None;
    }
    let trace_id = hex_bytes::<16>(&b[3..35])?;
    let span_id = hex_bytes::<8>(&b[36..52])?;
    let flags = hex_bytes::<1>(&b[53..55])?[0];
    if trace_id == [0; 16] || span_id == [0; 8] {
        return None;
    }
    Some(TraceParent {
        trace_id,
        span_id,
        flags,
    })
}

/// The current OpenTelemetry context with the attempt's span (`traceparent`) as its remote
/// parent; `None` when `traceparent` is empty or malformed.
#[cfg(feature = "otel")]
pub fn attempt_context(traceparent: &str) -> Option<opentelemetry::Context> {
    use opentelemetry::trace::{
        SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState,
    };
    let tp = parse_traceparent(traceparent)?;
    let span_context = SpanContext::new(
        TraceId::from_bytes(tp.trace_id),
        SpanId::from_bytes(tp.span_id),
        // Only the sampled bit is defined by Level 1; the others are ignored.
        TraceFlags::new(tp.flags & TraceFlags::SAMPLED.to_u8()),
        true,
        TraceState::default(),
    );
    Some(opentelemetry::Context::current().with_remote_span_context(span_context))
}

#[cfg(test)]
mod tests {
    use super::parse_traceparent;

    const VALID: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    #[test]
    fn valid_values_parse() {
        let tp = parse_traceparent(VALID).expect("valid");
        assert_eq!(tp.trace_id[0], 0x4b);
        assert_eq!(tp.trace_id[15], 0x36);
        assert_eq!(tp.flags, 1);
        // A later version may carry more fields after a '-'.
        assert!(parse_traceparent(&format!("01{}-extra", &VALID[2..])).is_some());
        assert!(parse_traceparent(&format!("01{}", &VALID[2..])).is_some());
        assert_eq!(
            parse_traceparent(&VALID.replace("-01", "-00")).map(|t| t.flags),
            Some(0)
        );
    }

    #[test]
    fn malformed_values_are_refused() {
        for bad in [
            "",
            "garbage",
            &VALID[..54],
            &format!("{VALID}-"),           // version 00 is exactly 55 long
            &format!("01{}x", &VALID[2..]), // a later version: '-' after 55
            &format!("ff{}", &VALID[2..]),  // version ff is invalid
            &VALID.to_uppercase(),          // lowercase hex only
            &VALID.replace("4bf9", "4bg9"), // not hex
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01", // zero trace id
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", // zero span id
            "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", // separator
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0x",
            "00-4bf92f3577b34da6a3ce929d0e0e47é6-00f067aa0ba902b7-01", // not ASCII
        ] {
            assert!(parse_traceparent(bad).is_none(), "accepted {bad:?}");
        }
    }
}
