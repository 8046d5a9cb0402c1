package praxis

import (
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"strings"
)

// ErrDecimalNotCanonical is wrapped by every error about a decimal string that is not in
// canonical form, or a value that has none.
var ErrDecimalNotCanonical = errors.New("decimal not canonical")

// canonicalDecimal is the wire form of quantities; "-0" is excluded separately.
var canonicalDecimal = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$`)

// CheckDecimal reports whether s is a canonical decimal string: an optional minus sign,
// an integer part without leading zeros, and an optional fraction without trailing zeros;
// no exponent, no `+`, no `-0`. "1.50", "01", "+1", "1e3", "-0", ".5" and "1." fail.
func CheckDecimal(s string) error {
	if s == "-0" || !canonicalDecimal.MatchString(s) {
		return fmt.Errorf("%w: %q", ErrDecimalNotCanonical, s)
	}
	return nil
}

// ParseDecimal converts a canonical decimal string to an exact rational.
func ParseDecimal(s string) (*big.Rat, error) {
	if err := CheckDecimal(s); err != nil {
		return nil, err
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok { // unreachable for a canonical string; kept so that a bug cannot pass silently
		return nil, fmt.Errorf("%w: %q", ErrDecimalNotCanonical, s)
	}
	return r, nil
}

// FormatDecimal returns the canonical decimal string of r. It fails when r has no finite
// decimal expansion (its reduced denominator has a prime factor other than 2 and 5).
func FormatDecimal(r *big.Rat) (string, error) {
	den := new(big.Int).Set(r.Denom())
	twos, fives := 0, 0
	for den.Bit(0) == 0 {
		den.Rsh(den, 1)
		twos++
	}
	five, mod := big.NewInt(5), new(big.Int)
	for {
		q, m := new(big.Int).QuoRem(den, five, mod)
		if m.Sign() != 0 {
			break
		}
		den = q
		fives++
	}
	if den.Cmp(big.NewInt(1)) != 0 {
		return "", fmt.Errorf("%w: %s has no finite decimal form", ErrDecimalNotCanonical, r.String())
	}
	scale := max(twos, fives)
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
	units := new(big.Int).Mul(r.Num(), pow)
	units.Quo(units, r.Denom()) // exact: the denominator divides 10^scale
	return formatUnits(units, scale), nil
}

// formatUnits writes units / 10^scale; the reduction in FormatDecimal guarantees that the
// last fractional digit is not zero.
func formatUnits(units *big.Int, scale int) string {
	digits := new(big.Int).Abs(units).String()
	sign := ""
	if units.Sign() < 0 {
		sign = "-"
	}
	if scale == 0 {
		return sign + digits
	}
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	cut := len(digits) - scale
	return sign + digits[:cut] + "." + digits[cut:]
}

// DecimalFromInt returns the canonical decimal string of an integer.
func DecimalFromInt(i *big.Int) string {
	return i.String()
}

// DecimalToInt converts a canonical decimal string without a fraction to an integer.
func DecimalToInt(s string) (*big.Int, error) {
	if err := CheckDecimal(s); err != nil {
		return nil, err
	}
	if strings.Contains(s, ".") {
		return nil, fmt.Errorf("%w: %q is not an integer", ErrDecimalNotCanonical, s)
	}
	i, _ := new(big.Int).SetString(s, 10)
	return i, nil
}
