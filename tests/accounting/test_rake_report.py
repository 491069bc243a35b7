"""R-RAKE-2: the rake report by New York day, table, stakes, game or schedule, on screen for
staff with its charts, as CSV / XLSX, from `manage.py export_rake`, mailed daily to accounting;
hands dealt beside hands raked, tournament fees beside the rake; its totals reconcile with the
hands' histories and with the ledger (issue #16, "The accountant's reports")."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from accounting.report import mail_rake_report_for_yesterday, rake_report, report_csv
from accounting.tasks import mail_daily_rake_report
from accounts.models import LedgerKind
from accounts.selectors import balances_total, ledger_totals_by_kind
from accounts.services import wallet_debit
from tables.models import RakeEntry, RakeSchedule
from tables.selectors import room_chip_totals
from tests.factories import PlayerFactory, StaffFactory, funded, log_in_staff
from tests.history_hands import PlayedTable, hold_scheduling, raked_hand
from tests.table_factories import make_table

pytestmark = pytest.mark.django_db

# 03:30 UTC on 15 March is 23:30 on 14 March in New York: the New York day decides.
LATE_ON_THE_14TH = datetime(2025, 3, 15, 3, 30, tzinfo=UTC)
ON_THE_15TH = datetime(2025, 3, 15, 16, 0, tzinfo=UTC)
ON_THE_16TH = datetime(2025, 3, 16, 16, 0, tzinfo=UTC)
# "Now" for the pages' default period: 20 March 2025, noon in New York.
ON_THE_20TH = datetime(2025, 3, 20, 16, 0, tzinfo=UTC)

RAKE_COLUMNS = [
    "Hands dealt",
    "Hands raked",
    "Rake",
    "Rake per hand",
    "Tournament fees",
    "House revenue",
]


@pytest.fixture
def hands(monkeypatch: pytest.MonkeyPatch) -> list[PlayedTable]:
    """Three raked hands on two tables, 14th to 16th March (New York)."""
    hold_scheduling(monkeypatch)
    small = RakeSchedule.objects.get(name="$0.50/$1 and $1/$2")
    one = make_table(name="Aces", rake_schedule=small)
    two = make_table(name="Kings", rake_schedule=small, small_bet=50, big_bet=100, bring_in=10)
    first = raked_hand(table=one, now=LATE_ON_THE_14TH)
    second = raked_hand(table=one, now=ON_THE_15TH, players=first.players)
    third = raked_hand(table=two, now=ON_THE_16TH)
    return [first, second, third]


@pytest.fixture
def unraked(hands: list[PlayedTable]) -> PlayedTable:
    """A hand dealt on the 15th at a Stud Hi/Lo table with no rake schedule (R-RAKE-3)."""
    table = make_table(name="Queens", game="stud8", rake_schedule=None)
    return raked_hand(table=table, now=ON_THE_15TH)


@pytest.fixture
def tournament_fee(hands: list[PlayedTable], monkeypatch: pytest.MonkeyPatch) -> int:
    """A tournament fee of $5.00 paid on the 15th (New York), as tournaments will write it."""
    player = PlayerFactory()
    funded(player, 2_000)
    monkeypatch.setattr("django.utils.timezone.now", lambda: ON_THE_15TH)
    wallet_debit(
        player_id=player.pk,
        amount=500,
        kind=LedgerKind.TOURNAMENT_FEE,
        reference="tournament:1",
    )
    monkeypatch.undo()
    return 500


def rake_of(played: PlayedTable) -> int:
    assert played.engine.result is not None
    return played.engine.result.rake


def staff_client() -> Client:
    client = Client()
    log_in_staff(client, StaffFactory())
    return client


def test_r_rake_2_by_new_york_day(hands):
    report = rake_report(first_day=date(2025, 3, 14), last_day=date(2025, 3, 16))
    assert [(row.key, row.hands_dealt, row.hands_raked, row.rake) for row in report.rows] == [
        ("2025-03-14", 1, 1, rake_of(hands[0])),
        ("2025-03-15", 1, 1, rake_of(hands[1])),
        ("2025-03-16", 1, 1, rake_of(hands[2])),
    ]
    only_15 = rake_report(first_day=date(2025, 3, 15), last_day=date(2025, 3, 15))
    assert only_15.hands_raked == 1 and only_15.rake == rake_of(hands[1])


def test_r_rake_2_by_table_stakes_and_schedule(hands):
    days = {"first_day": date(2025, 3, 14), "last_day": date(2025, 3, 16)}
    by_table = rake_report(group_by="table", **days)
    assert [(row.label, row.hands_raked) for row in by_table.rows] == [("Aces", 2), ("Kings", 1)]
    by_stakes = rake_report(group_by="stakes", **days)
    assert [(row.label, row.hands_raked) for row in by_stakes.rows] == [
        ("$0.50/$1.00", 1),
        ("$1.00/$2.00", 2),
    ]
    by_schedule = rake_report(group_by="schedule", **days)
    assert [(row.label, row.hands_raked) for row in by_schedule.rows] == [("$0.50/$1 and $1/$2", 3)]
    by_game = rake_report(group_by="game", **days)
    assert [(row.label, row.hands_raked) for row in by_game.rows] == [("Seven Card Stud", 3)]
    assert by_table.rake == by_stakes.rake == by_schedule.rake == sum(map(rake_of, hands))
    assert by_game.rake == by_table.rake


def test_r_rake_2_totals_reconcile_with_the_histories_and_the_ledger(hands):
    report = rake_report(first_day=date(2025, 3, 1), last_day=date(2025, 3, 31))
    # The histories: every hand's PokerStars text says "| Rake $x".
    staff_rake = 0
    for played in hands:
        from histories.selectors import hand_text, played_hand

        copy = played_hand(hand_id=played.hand.pk, player_id=played.players[1].pk)
        assert copy is not None
        match = re.search(r"\| Rake \$(\d+)(?:\.(\d\d))?", hand_text(copy))
        assert match is not None
        staff_rake += int(match.group(1)) * 100 + int(match.group(2) or 0)
    assert report.rake == staff_rake == sum(e.amount for e in RakeEntry.objects.all())
    # The ledger: deposits less withdrawals is what players hold, what is on the tables and
    # in pots, and the rake; so the rake is what the ledger says left the players.
    ledger = ledger_totals_by_kind()
    chips = room_chip_totals()
    money_in = ledger["deposit"] + ledger["withdrawal"]  # withdrawals are negative
    assert money_in - balances_total() - chips["on_tables"] - chips["in_pots"] == report.rake
    assert report.hands_raked == report.hands_dealt == len(hands)


def test_hands_dealt_count_every_hand_and_hands_raked_only_those_raked(hands, unraked):
    """Issue #16: the report's "Hands" counted only raked hands; now both, and rake per hand
    is the rake over the hands dealt."""
    days = {"first_day": date(2025, 3, 14), "last_day": date(2025, 3, 16)}
    by_day = {row.key: row for row in rake_report(**days).rows}
    the_15th = by_day["2025-03-15"]
    assert (the_15th.hands_dealt, the_15th.hands_raked) == (2, 1)
    assert the_15th.rake_per_hand == round(rake_of(hands[1]) / 2)
    by_table = rake_report(group_by="table", **days)
    assert [(row.label, row.hands_dealt, row.hands_raked, row.rake) for row in by_table.rows] == [
        ("Aces", 2, 2, rake_of(hands[0]) + rake_of(hands[1])),
        ("Kings", 1, 1, rake_of(hands[2])),
        ("Queens", 1, 0, 0),
    ]
    by_game = rake_report(group_by="game", **days)
    assert [(row.label, row.hands_dealt, row.hands_raked) for row in by_game.rows] == [
        ("Seven Card Stud", 3, 3),
        ("Stud Hi/Lo", 1, 0),
    ]
    by_schedule = rake_report(group_by="schedule", **days)
    assert [(row.label, row.hands_dealt) for row in by_schedule.rows][-1] == ("(no schedule)", 1)
    assert by_table.hands_dealt == 4 and by_table.hands_raked == 3


def test_tournament_fees_are_house_revenue_beside_the_rake(hands, tournament_fee):
    days = {"first_day": date(2025, 3, 14), "last_day": date(2025, 3, 16)}
    by_day = {row.key: row for row in rake_report(**days).rows}
    assert by_day["2025-03-15"].tournament_fees == tournament_fee
    assert by_day["2025-03-15"].house_revenue == rake_of(hands[1]) + tournament_fee
    assert by_day["2025-03-14"].tournament_fees == 0
    by_table = rake_report(group_by="table", **days)
    assert [row.label for row in by_table.rows] == ["Aces", "Kings", "Tournaments"]
    assert by_table.tournament_fees == tournament_fee
    assert by_table.house_revenue == sum(map(rake_of, hands)) + tournament_fee
    before = rake_report(first_day=date(2025, 3, 16), last_day=date(2025, 3, 16))
    assert before.tournament_fees == 0


def test_the_page_opens_on_the_month_to_date_with_hands_fees_and_charts(
    hands, unraked, tournament_fee, monkeypatch
):
    client = staff_client()
    monkeypatch.setattr("django.utils.timezone.now", lambda: ON_THE_20TH)

    page = client.get(reverse("rake_report"))

    assert page.status_code == 200
    body = page.content.decode()
    assert 'value="2025-03-01"' in body and 'value="2025-03-20"' in body
    header = re.search(r"<thead><tr>(.*?)</tr></thead>", body, re.S)
    assert header is not None
    assert re.findall(r"<th[^>]*>([^<]+)</th>", header.group(1)) == ["Day", *RAKE_COLUMNS]
    rake = sum(map(rake_of, hands))
    totals = dict(re.findall(r'data-testid="(total-[a-z-]+)">([^<]*)<', body))
    assert totals["total-hands-dealt"] == "4" and totals["total-hands-raked"] == "3"
    assert totals["total-rake"] == f"${rake // 100}.{rake % 100:02d}"
    assert totals["total-tournament-fees"] == "$5.00"
    revenue = rake + tournament_fee
    assert totals["total-house-revenue"] == f"${revenue // 100}.{revenue % 100:02d}"
    block = re.search(r'<script id="rake-chart-data" type="application/json">(.*?)</script>', body)
    assert block is not None
    chart = json.loads(block.group(1))
    assert len(chart["days"]["labels"]) == 20 and chart["days"]["labels"][0] == "2025-03-01"
    assert sum(chart["days"]["rake"]) == pytest.approx(rake / 100)
    assert chart["days"]["fees"][14] == 5.0  # the 15th
    assert chart["games"]["labels"] == ["Seven Card Stud", "Stud Hi/Lo"]
    assert 'id="rake-chart-data" type="application/json"' in body
    assert "vendor/chart.js/chart.umd.min.js" in body and "js/rake_report.js" in body
    assert "<script>" not in body  # the data travels as JSON, never as inline script


def test_csv_carries_numbers_dates_and_the_screens_columns(hands, unraked, tournament_fee):
    report = rake_report(first_day=date(2025, 3, 14), last_day=date(2025, 3, 16))
    rows = list(csv.reader(io.StringIO(report_csv(report))))
    assert rows[0] == ["Day", *RAKE_COLUMNS]
    assert [row[0] for row in rows[1:]] == ["2025-03-14", "2025-03-15", "2025-03-16", "Total"]
    the_15th = rows[2]
    assert [int(the_15th[1]), int(the_15th[2])] == [2, 1]
    assert Decimal(the_15th[3]) == Decimal(rake_of(hands[1])) / 100
    assert the_15th[5] == "5.00"
    total = rows[-1]
    assert int(total[1]) == 4 and Decimal(total[3]) * 100 == report.rake
    assert Decimal(total[6]) * 100 == report.rake + 500


def test_xlsx_holds_numbers_in_currency_format_dates_and_formula_totals(
    hands, unraked, tournament_fee
):
    client = staff_client()
    query = {"first_day": "2025-03-14", "last_day": "2025-03-16", "group_by": "day"}

    response = client.get(reverse("rake_report"), {**query, "format": "xlsx"})

    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert [cell.value for cell in sheet[1]] == ["Day", *RAKE_COLUMNS]
    day_cells = [sheet[f"A{n}"] for n in (2, 3, 4)]
    assert all(cell.is_date for cell in day_cells)
    assert [cell.value.date() for cell in day_cells] == [
        date(2025, 3, 14),
        date(2025, 3, 15),
        date(2025, 3, 16),
    ]
    assert (sheet["B3"].value, sheet["C3"].value) == (2, 1)
    rake = sheet["D3"]
    assert isinstance(rake.value, int | float) and rake.number_format == "$#,##0.00"
    assert Decimal(str(rake.value)) == Decimal(rake_of(hands[1])) / 100
    assert sheet["F3"].value == 5 and sheet["F3"].number_format == "$#,##0.00"
    assert sheet["A5"].value == "Total"
    assert sheet["B5"].value == "=SUM(B2:B4)" and sheet["D5"].value == "=SUM(D2:D4)"
    assert sheet["G5"].value == "=SUM(G2:G4)" and sheet["G5"].number_format == "$#,##0.00"
    assert sheet["E5"].value.startswith("=IF(B5>0")
    assert sheet.max_row == 5
    # Issue #21 (11): the totals' values are stored beside their formulas, for readers that
    # compute nothing (openpyxl's data_only, pandas).
    values = load_workbook(io.BytesIO(response.content), data_only=True).active
    report = rake_report(first_day=date(2025, 3, 14), last_day=date(2025, 3, 16), group_by="day")
    assert (values["B5"].value, values["C5"].value) == (report.hands_dealt, report.hands_raked)
    assert Decimal(str(values["D5"].value)) * 100 == report.rake
    assert Decimal(str(values["G5"].value)) * 100 == report.house_revenue
    assert values["E5"].value is not None


def test_export_rake_takes_a_date_range_and_writes_the_screens_columns(hands, tmp_path):
    out = io.StringIO()
    call_command(
        "export_rake",
        "--from",
        "2025-03-15",
        "--to",
        "2025-03-16",
        "--group-by",
        "table",
        stdout=out,
    )
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert rows[0] == ["Table", *RAKE_COLUMNS]
    assert [(row[0], row[1]) for row in rows[1:]] == [("Aces", "1"), ("Kings", "1"), ("Total", "2")]
    target = tmp_path / "rake.xlsx"
    call_command(
        "export_rake",
        "--from",
        "2025-03-14",
        "--to",
        "2025-03-16",
        "--format",
        "xlsx",
        "--output",
        str(target),
    )
    sheet = load_workbook(target).active
    assert sheet.max_row == 5  # header, three days, total
    assert sheet["A2"].is_date and sheet["D5"].value == "=SUM(D2:D4)"


def test_the_staff_page_shows_the_totals_and_players_are_refused(hands):
    query = {"first_day": "2025-03-14", "last_day": "2025-03-16", "group_by": "day"}
    staff = staff_client()
    page = staff.get(reverse("rake_report"), query)
    assert page.status_code == 200
    total = rake_report(first_day=date(2025, 3, 14), last_day=date(2025, 3, 16)).rake
    assert f"${total // 100}.{total % 100:02d}" in page.content.decode()
    csv_response = staff.get(reverse("rake_report"), {**query, "format": "csv"})
    assert csv_response["Content-Type"] == "text/csv"
    player = Client()
    player.force_login(hands[0].players[1])
    for response in (
        player.get(reverse("rake_report"), query),
        player.get(reverse("rake_report"), {**query, "format": "csv"}),
        player.get(reverse("rake_statement")),
        Client().get(reverse("rake_report"), query),
    ):
        assert response.status_code == 302 and "login" in response["Location"]


def test_the_daily_job_mails_yesterdays_report_to_accounting_as_xlsx(hands, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ACCOUNTING_EMAIL = ""
    assert mail_daily_rake_report.apply().get() == "skipped"
    settings.ACCOUNTING_EMAIL = "books@example.com"
    assert mail_rake_report_for_yesterday(now=datetime(2025, 3, 17, 5, 0, tzinfo=UTC)) == "sent"
    [message] = mail.outbox
    assert message.to == ["books@example.com"] and "2025-03-16" in message.subject
    attachments = {name: (body, kind) for name, body, kind in message.attachments}
    body, kind = attachments["rake-2025-03-16-2025-03-16-by-table.xlsx"]
    assert kind == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    sheet = load_workbook(io.BytesIO(body)).active
    assert sheet["A2"].value == "Kings" and sheet["B2"].value == 1
    assert sheet["D2"].number_format == "$#,##0.00"
    assert "Kings" in attachments["rake-2025-03-16-2025-03-16-by-table.csv"][0]


def test_the_admin_action_opens_the_report_for_the_selected_days(hands):
    client = Client()
    log_in_staff(client, StaffFactory())
    ids = [e.pk for e in RakeEntry.objects.all()]
    response = client.post(
        reverse("admin:tables_rakeentry_changelist"),
        {"action": "rake_report_for_selection", "_selected_action": ids},
    )
    assert response.status_code == 302
    assert "first_day=2025-03-14" in response["Location"]
    assert "last_day=2025-03-16" in response["Location"]


def test_a_player_cannot_reach_the_rake_admin():
    client = Client()
    client.force_login(PlayerFactory())
    response = client.get(reverse("admin:tables_rakeentry_changelist"))
    assert response.status_code == 302
