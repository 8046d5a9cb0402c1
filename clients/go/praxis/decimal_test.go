package praxis

import (
	"errors"
	"math/big"
	"testing"
)

var canonical = []string{
	"0", "1", "-1", "10", "123456789012345678901234567890", "0.5", "-0.5", "1.05",
	"0.000001", "-12.34",
}

var nonCanonical = []string{
	"", "-", "-0", "1.50", "01", "00", "+1", "1e3", "1E3", ".5", "1.", "-.5", " 1", "1 ",
	"1\n", "0.0", "-0.0", "1,5", "0x10", "NaN", "Infinity", "١", "1.5.1",
}

func TestCheckDecimalAcceptsCanonical(t *testing.T) {
	for _, s := range canonical {
		if err := CheckDecimal(s); err != nil {
			t.Errorf("CheckDecimal(%q) = %v, want nil", s, err)
		}
	}
}

func TestCheckDecimalRejectsNonCanonical(t *testing.T) {
	for _, s := range nonCanonical {
		err := CheckDecimal(s)
		if !errors.Is(err, ErrDecimalNotCanonical) {
			t.Errorf("CheckDecimal(%q) = %v, want ErrDecimalNotCanonical", s, err)
		}
		if _, err := ParseDecimal(s); err == nil {
			t.Errorf("ParseDecimal(%q) succeeded", s)
		}
	}
}

func TestParseAndFormatDecimalRoundTrip(t *testing.T) {
	for _, s := range canonical {
		r, err := ParseDecimal(s)
		if err != nil {
			t.Fatalf("ParseDecimal(%q): %v", s, err)
		}
		got, err := FormatDecimal(r)
		if err != nil || got != s {
			t.Errorf("FormatDecimal(ParseDecimal(%q)) = %q, %v", s, got, err)
		}
	}
}

func TestParseDecimalIsExact(t *testing.T) {
	r, err := ParseDecimal("0.1")
	if err != nil {
		t.Fatal(err)
	}
	if r.Cmp(big.NewRat(1, 10)) != 0 {
		t.Errorf("ParseDecimal(0.1) = %s, want 1/10", r)
	}
	sum := new(big.Rat).Add(r, mustParse(t, "0.2"))
	if got, _ := FormatDecimal(sum); got != "0.3" {
		t.Errorf("0.1 + 0.2 = %s, want 0.3", got)
	}
}

func TestFormatDecimal(t *testing.T) {
	cases := []struct {
		r    *big.Rat
		want string
	}{
		{big.NewRat(0, 1), "0"},
		{big.NewRat(-3, 2), "-1.5"},
		{big.NewRat(1, 8), "0.125"},
		{big.NewRat(-1, 1000), "-0.001"},
		{big.NewRat(150, 100), "1.5"},
		{big.NewRat(7, 40), "0.175"},
	}
	for _, c := range cases {
		if got, err := FormatDecimal(c.r); err != nil || got != c.want {
			t.Errorf("FormatDecimal(%s) = %q, %v; want %q", c.r, got, err, c.want)
		}
	}
	for _, r := range []*big.Rat{big.NewRat(1, 3), big.NewRat(1, 7), big.NewRat(-5, 6)} {
		if _, err := FormatDecimal(r); !errors.Is(err, ErrDecimalNotCanonical) {
			t.Errorf("FormatDecimal(%s) = %v, want ErrDecimalNotCanonical", r, err)
		}
	}
}

func TestDecimalIntegers(t *testing.T) {
	big1, _ := new(big.Int).SetString("-90071992547409930000", 10)
	if got := DecimalFromInt(big1); got != "-90071992547409930000" {
		t.Errorf("DecimalFromInt = %q", got)
	}
	i, err := DecimalToInt("90071992547409930001")
	if err != nil || i.String() != "90071992547409930001" {
		t.Errorf("DecimalToInt = %v, %v", i, err)
	}
	for _, s := range []string{"1.5", "-0", "007"} {
		if _, err := DecimalToInt(s); !errors.Is(err, ErrDecimalNotCanonical) {
			t.Errorf("DecimalToInt(%q) = %v, want ErrDecimalNotCanonical", s, err)
		}
	}
}

func mustParse(t *testing.T, s string) *big.Rat {
	t.Helper()
	r, err := ParseDecimal(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
