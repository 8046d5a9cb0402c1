"""How a table fits a terminal (praxis_cli.output.fit): ids whole, text cut, optional
columns left out."""

from __future__ import annotations

from rich.cells import cell_len

from praxis_cli.output import MIN_TEXT, Column, cut, fit, free_text, ident

COLUMNS = [ident("RUN"), Column("STATE"), Column("CREATED", optional=True), free_text("ERROR")]
ROW = ["run-0123456789abcdef", "FAILED", "2026-12-07 12:10:23.123 UTC", "x" * 60]


def test_a_table_that_fits_is_left_alone() -> None:
    fitted = fit(COLUMNS, [ROW], 500, 3, 1)
    assert fitted.kept == (0, 1, 2, 3) and fitted.widths == (20, 6, 27, 60) and fitted.fits


def test_free_text_gives_way_first_then_optional_columns() -> None:
    fitted = fit(COLUMNS, [ROW], 80, 3, 1)  # text alone can give 48 cells: enough
    assert fitted.kept == (0, 1, 2, 3) and fitted.widths[:3] == (20, 6, 27)
    assert sum(fitted.widths) + 3 * 4 + 1 == 80 and fitted.hidden == ()
    narrow = fit(COLUMNS, [ROW], 60, 3, 1)  # past MIN_TEXT: CREATED goes, text grows back
    assert narrow.kept == (0, 1, 3) and narrow.hidden == ("CREATED",)
    assert narrow.widths[:2] == (20, 6) and narrow.widths[2] >= MIN_TEXT and narrow.fits


def test_ids_are_never_cut_even_when_nothing_fits() -> None:
    fitted = fit(COLUMNS, [ROW], 30, 3, 1)
    assert fitted.kept == (0, 1, 3) and fitted.widths == (20, 6, 5) and not fitted.fits


def test_cut_ends_in_an_ellipsis_and_counts_wide_characters() -> None:
    assert cut("abcdef", 4) == "abc…" and cut("abc", 4) == "abc"
    cjk = cut("日本語テキスト", 6)  # two cells a character
    assert cjk.startswith("日本") and cjk.endswith("…") and cell_len(cjk) == 6
