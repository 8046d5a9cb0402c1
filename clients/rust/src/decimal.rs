//! Canonical decimal strings.

use std::fmt;
use std::str::FromStr;

/// A quantity in canonical decimal form, the wire form of fields such as
/// `cost_microcredits`: `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?`, never `-0`.
///
/// Construction validates and never normalises: `"1.50"`, `"01"`, `"+1"`, `"1e3"`, `"-0"`,
/// `".5"` and `"1."` are all rejected, as the engine rejects them with
/// `DECIMAL_NOT_CANONICAL`. Two equal numbers have one spelling, so string equality is
/// numeric equality. There is deliberately no `Ord` (string order is not numeric order) and
/// no conversion to or from floating point.
///
/// ```
/// use praxis_client::Decimal;
/// let cost: Decimal = "12.5".parse().unwrap();
/// assert_eq!(cost.as_str(), "12.5");
/// assert!("12.50".parse::<Decimal>().is_err());
/// assert_eq!(Decimal::from(-7_i64).as_str(), "-7");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decimal(String);

/// The string is not a canonical decimal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecimalError {
    value: String,
}

impl fmt::Display for DecimalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a canonical decimal string: {:?}", self.value)
    }
}

impl std::error::Error for DecimalError {}

impl Decimal {
    /// Validates a canonical decimal string.
    pub fn parse(value: &str) -> Result<Self, DecimalError> {
        if Self::is_canonical(value) {
            Ok(Self(value.to_owned()))
        } else {
            Err(DecimalError {
                value: value.to_owned(),
            })
        }
    }

    /// Reports whether `value` is in canonical form.
    pub fn is_canonical(value: &str) -> bool {
        let digits = value.strip_prefix('-').unwrap_or(value);
        let (int, frac) = match digits.split_once('.') {
            Some((int, frac)) => (int, Some(frac)),
            None => (digits, None),
        };
        let int_ok = int == "0"
            || (!int.is_empty()
                && int.bytes().all(|b| b.is_ascii_digit())
                && !int.starts_with('0'));
        let frac_ok = frac.is_none_or(|f| {
            !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()) && !f.ends_with('0')
        });
        int_ok && frac_ok && value != "-0"
    }

    /// The canonical string, as sent on the wire.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The canonical string, by value.
    pub fn into_string(self) -> String {
        self.0
    }

    /// Whether the value is below zero.
    pub fn is_negative(&self) -> bool {
        self.0.starts_with('-')
    }
}

impl FromStr for Decimal {
    type Err = DecimalError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl TryFrom<&str> for Decimal {
    type Error = DecimalError;
    fn try_from(s: &str) -> Result<Self, Self::Error> {
        Self::parse(s)
    }
}

impl TryFrom<String> for Decimal {
    type Error = DecimalError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        if Self::is_canonical(&s) {
            Ok(Self(s))
        } else {
            Err(DecimalError { value: s })
        }
    }
}

impl From<Decimal> for String {
    fn from(d: Decimal) -> Self {
        d.0
    }
}

impl AsRef<str> for Decimal {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

macro_rules! from_integer {
    ($($t:ty),*) => {$(
        impl From<$t> for Decimal {
            /// Integers are always canonical in their decimal spelling.
            fn from(n: $t) -> Self {
                Self(n.to_string())
            }
        }
    )*};
}
from_integer!(i8, i16, i32, i64, i128, u8, u16, u32, u64, u128);

#[cfg(test)]
mod tests {
    use super::*;

    const CANONICAL: &[&str] = &[
        "0",
        "1",
        "-1",
        "10",
        "1.5",
        "-1.5",
        "0.5",
        "-0.5",
        "0.05",
        "123456789012345678901234567890",
        "1.000000000000000000000000001",
        "9007199254740993",
    ];

    const NON_CANONICAL: &[&str] = &[
        "", "-0", "1.50", "01", "+1", "1e3", "1E3", ".5", "1.", "-", "-.5", "00", "0.0", "-0.0",
        " 1", "1 ", "1,5", "١", "NaN", "Infinity", "0x10", "1.5.1", "--1", "1_000", "-00", "0.",
    ];

    #[test]
    fn accepts_canonical() {
        for s in CANONICAL {
            assert!(Decimal::is_canonical(s), "{s:?}");
            let d: Decimal = s.parse().unwrap();
            assert_eq!(d.as_str(), *s);
            assert_eq!(d.to_string(), *s);
            assert_eq!(Decimal::try_from(s.to_string()).unwrap().into_string(), *s);
        }
    }

    #[test]
    fn rejects_non_canonical() {
        for s in NON_CANONICAL {
            assert!(!Decimal::is_canonical(s), "{s:?}");
            let err = s.parse::<Decimal>().unwrap_err();
            assert!(err.to_string().contains("not a canonical"), "{err}");
            assert!(Decimal::try_from(s.to_string()).is_err(), "{s:?}");
        }
    }

    #[test]
    fn integers_convert() {
        assert_eq!(Decimal::from(0_i64).as_str(), "0");
        assert_eq!(Decimal::from(i64::MIN).as_str(), "-9223372036854775808");
        assert_eq!(
            Decimal::from(u128::MAX).as_str(),
            "340282366920938463463374607431768211455"
        );
        assert!(Decimal::from(-3_i32).is_negative());
        assert!(!Decimal::from(0_u8).is_negative());
    }

    #[test]
    fn matches_a_reference_grammar_on_every_short_string() {
        // Exhaustive over strings of up to 4 characters from a small alphabet, checked
        // against a direct transcription of the grammar.
        fn reference(s: &str) -> bool {
            let b = s.as_bytes();
            let mut i = 0;
            if b.first() == Some(&b'-') {
                i = 1;
            }
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let int = &s[start..i];
            if int.is_empty() || (int.len() > 1 && int.starts_with('0')) {
                return false;
            }
            if i < b.len() {
                if b[i] != b'.' {
                    return false;
                }
                let frac = &s[i + 1..];
                if frac.is_empty()
                    || !frac.bytes().all(|c| c.is_ascii_digit())
                    || frac.ends_with('0')
                {
                    return false;
                }
            }
            s != "-0"
        }
        let alphabet = ['0', '1', '9', '.', '-', 'e'];
        let mut strings = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for s in &strings {
                for c in alphabet {
                    next.push(format!("{s}{c}"));
                }
            }
            strings.extend(next.iter().cloned());
            strings = strings
                .into_iter()
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect();
        }
        assert!(strings.len() > 1000);
        for s in &strings {
            assert_eq!(Decimal::is_canonical(s), reference(s), "{s:?}");
        }
    }
}
