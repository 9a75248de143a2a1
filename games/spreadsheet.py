"""Text for spreadsheets: a sheet exported as CSV is opened by people in Excel or Numbers."""

from __future__ import annotations


def spreadsheet_text(text: str) -> str:
    """Text that a spreadsheet will show, not run: one starting like a formula gets the
    single quote spreadsheets themselves use to mark text."""
    return f"'{text}" if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text
