"""Issue #16: the monthly statement per game and stakes, on a page and as XLSX / CSV, with its
totals reconciling with the ledger: audit_chips' own figures at its foot (R-RAKE-2)."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from accounting.report import rake_report
from accounting.statement import monthly_statement
from tables.models import RakeEntry, RakeSchedule, Table
from tests.factories import StaffFactory, log_in_staff
from tests.history_hands import PlayedTable, hold_scheduling, raked_hand
from tests.table_factories import make_table
from tournaments.audit import room_chip_audit

pytestmark = pytest.mark.django_db

IN_FEBRUARY = datetime(2025, 2, 27, 16, 0, tzinfo=UTC)
IN_MARCH = datetime(2025, 3, 10, 16, 0, tzinfo=UTC)
LATER_IN_MARCH = datetime(2025, 3, 12, 16, 0, tzinfo=UTC)
IN_APRIL = datetime(2025, 4, 2, 16, 0, tzinfo=UTC)
NOW = datetime(2025, 3, 20, 16, 0, tzinfo=UTC)


@pytest.fixture
def months(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[PlayedTable]]:
    """Hands in February, March (two stakes and both games, one table unraked) and April."""
    hold_scheduling(monkeypatch)
    small = RakeSchedule.objects.get(name="$0.50/$1 and $1/$2")
    aces = make_table(name="Aces", rake_schedule=small)
    kings = make_table(name="Kings", rake_schedule=small, small_bet=50, big_bet=100, bring_in=10)
    queens = make_table(name="Queens", game="stud8", rake_schedule=None)
    february = raked_hand(table=aces, now=IN_FEBRUARY)
    at_kings = raked_hand(table=kings, now=IN_MARCH)
    march = [
        raked_hand(table=aces, now=IN_MARCH, players=february.players),
        at_kings,
        raked_hand(table=kings, now=LATER_IN_MARCH, players=at_kings.players),
        raked_hand(table=queens, now=IN_MARCH),
    ]
    april = raked_hand(table=aces, now=IN_APRIL, players=february.players)
    return {"february": [february], "march": march, "april": [april]}


def rake_of(played: PlayedTable) -> int:
    assert played.engine.result is not None
    return played.engine.result.rake


def test_r_rake_2_the_month_per_game_and_stakes_reconciles_with_the_audit(months):
    statement = monthly_statement(month=date(2025, 3, 1), now=NOW)

    assert (statement.first_day, statement.last_day) == (date(2025, 3, 1), date(2025, 3, 31))
    assert [
        (line.game_label, line.stakes_label, line.hands_dealt, line.hands_raked)
        for line in statement.lines
    ] == [
        ("Seven Card Stud", "$0.50/$1.00", 2, 2),
        ("Seven Card Stud", "$1.00/$2.00", 1, 1),
        ("Stud Hi/Lo", "$1.00/$2.00", 1, 0),
    ]
    assert statement.rake == sum(map(rake_of, months["march"]))
    assert statement.rake_before == rake_of(months["february"][0])
    assert statement.rake_since == rake_of(months["april"][0])
    # The foot is audit_chips' own computation, and the month's rake adds up to its rake.
    audit = room_chip_audit()
    assert statement.audit == audit and audit.conserved
    assert (
        statement.rake_all_time
        == audit.held["rake"]
        == sum(e.amount for e in RakeEntry.objects.all())
    )
    assert statement.rake_reconciles
    out = io.StringIO()
    call_command("audit_chips", stdout=out)
    assert f"rake ${audit.held['rake'] // 100}.{audit.held['rake'] % 100:02d}" in out.getvalue()


def test_the_statement_page_opens_on_this_month_with_the_audit_at_its_foot(months, monkeypatch):
    client = Client()
    log_in_staff(client, StaffFactory())
    monkeypatch.setattr("django.utils.timezone.now", lambda: NOW)

    page = client.get(reverse("rake_statement"))

    assert page.status_code == 200
    body = page.content.decode()
    assert "March 2025" in body and 'value="2025-03"' in body
    shown = dict(re.findall(r'data-testid="([a-z-]+)">([^<]*)<', body))
    assert shown["statement-hands-dealt"] == "4" and shown["statement-hands-raked"] == "3"
    rake = sum(map(rake_of, months["march"]))
    assert shown["statement-rake"] == f"${rake // 100}.{rake % 100:02d}"
    assert shown["audit-conserved"] == "yes"
    assert shown["audit-money-in"] == shown["audit-money-held"]
    assert shown["rake-reconciles"].endswith("= audit")
    assert "Signed off by" in body
    february = client.get(reverse("rake_statement"), {"month": "2025-02"}).content.decode()
    assert "February 2025" in february


def test_the_statement_downloads_as_xlsx_with_formulas_and_as_csv(months):
    client = Client()
    log_in_staff(client, StaffFactory())

    xlsx = client.get(reverse("rake_statement"), {"month": "2025-03", "format": "xlsx"})
    text = client.get(reverse("rake_statement"), {"month": "2025-03", "format": "csv"})

    assert xlsx["Content-Disposition"] == 'attachment; filename="statement-2025-03.xlsx"'
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    assert sheet["B2"].is_date and sheet["B2"].value.date() == date(2025, 3, 1)
    assert [cell.value for cell in sheet[3]][:5] == [
        "Game",
        "Stakes",
        "Hands dealt",
        "Hands raked",
        "Rake",
    ]
    assert (sheet["A4"].value, sheet["B4"].value, sheet["C4"].value) == (
        "Seven Card Stud",
        "$0.50/$1.00",
        2,
    )
    assert isinstance(sheet["E4"].value, int | float) and sheet["E4"].number_format == "$#,##0.00"
    assert sheet["A7"].value == "Tournaments" and sheet["A8"].value == "Total"
    assert sheet["C8"].value == "=SUM(C4:C7)" and sheet["E8"].value == "=SUM(E4:E7)"
    # Issue #21 (11): the totals' values are stored too (openpyxl data_only, pandas).
    values = load_workbook(io.BytesIO(xlsx.content), data_only=True).active
    column_sums = [
        sum(values[f"{column}{row}"].value or 0 for row in range(4, 8)) for column in "CDEGH"
    ]
    assert [values[f"{column}8"].value for column in "CDEGH"] == pytest.approx(column_sums)
    assert values["F8"].value is not None
    foot = {
        row[0].value: row[1]
        for row in sheet.iter_rows(min_row=10)
        if row[0].value and row[1].value is not None
    }
    rake_all_time = foot["Rake, all time (must equal the audit's)"]
    assert rake_all_time.number_format == "$#,##0.00"
    assert Decimal(str(rake_all_time.value)) * 100 == sum(e.amount for e in RakeEntry.objects.all())
    assert foot["Chips conserved"].value == "yes"
    assert foot["Rake reconciles with the audit"].value == "yes"

    rows = list(csv.reader(io.StringIO(text.content.decode())))
    assert rows[0][:3] == ["Game", "Stakes", "Hands dealt"]
    total = next(row for row in rows if row and row[0] == "Total")
    assert int(total[2]) == 4 and Decimal(total[4]) * 100 == sum(map(rake_of, months["march"]))
    assert ["Rake reconciles with the audit", "yes"] in rows


def test_tournament_hands_are_the_tournaments_rows_never_a_cash_stake(months):
    """Issue #21 (4): a tournament table's 10/20 chip limits were listed as a cash stake
    "$0.10/$0.20" in the statement, the rake per stakes and group-by-stakes, while the
    Tournaments row said 0 hands. Tournament hands are counted in their own rows."""
    tournament_table = make_table(
        name="Sit and Go table", small_bet=10, big_bet=20, bring_in=5, rake_schedule=None
    )
    raked_hand(table=tournament_table, now=IN_MARCH)
    Table.objects.filter(pk=tournament_table.pk).update(is_tournament=True)

    statement = monthly_statement(month=date(2025, 3, 1), now=NOW)
    by_stakes = rake_report(
        first_day=date(2025, 3, 1), last_day=date(2025, 3, 31), group_by="stakes"
    )
    page = Client()
    log_in_staff(page)
    html = page.get(reverse("rake_statement"), {"month": "2025-03"}).content.decode()

    assert all((line.small_bet, line.big_bet) != (10, 20) for line in statement.lines)
    assert statement.tournament_hands == 1 and statement.hands_dealt == 5
    assert 'data-testid="statement-tournament-hands">1<' in html and "$0.10/$0.20" not in html
    assert "$0.10/$0.20" not in [row.label for row in by_stakes.rows]
    tournaments = next(row for row in by_stakes.rows if row.label == "Tournaments")
    assert tournaments.hands_dealt == 1 and tournaments.rake == 0
    assert sum(row.hands_dealt for row in by_stakes.rows) == 5
