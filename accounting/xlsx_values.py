"""The values of an XLSX's formula cells, stored beside their formulas.

openpyxl writes a formula cell with an empty cached value (`<f>SUM(B2:B9)</f><v/>`): Excel
and LibreOffice compute it on opening, but openpyxl's `data_only`, pandas and many viewers
read the cached value and find nothing. The reports know their totals already, so the sheet
is saved by openpyxl and then each formula cell of a row given here gets its value written
into `<v>`, the formula kept (issue #21, 11)."""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Mapping
from decimal import Decimal

SHEET = "xl/worksheets/sheet1.xml"


def _number(value: int | Decimal) -> str:
    return format(Decimal(value), "f")


def formula_values_store(workbook_bytes: bytes, values: Mapping[str, int | Decimal]) -> bytes:
    """`values`: cell reference ("B12") -> the number its formula gives. Returns the
    workbook with those cached values in its first sheet; a reference that is not a
    formula cell there is an error (the caller's rows and the sheet disagree)."""
    source = zipfile.ZipFile(io.BytesIO(workbook_bytes))
    sheet = source.read(SHEET).decode()
    for reference, value in values.items():
        pattern = re.compile(rf'(<c r="{reference}"[^>]*>\s*<f>[^<]*</f>\s*)<v\s*/>')
        sheet, found = pattern.subn(rf"\g<1><v>{_number(value)}</v>", sheet, count=1)
        if not found:
            raise ValueError(f"{reference} is not a formula cell of the sheet")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = sheet.encode() if item.filename == SHEET else source.read(item.filename)
            target.writestr(item, data)
    return out.getvalue()
