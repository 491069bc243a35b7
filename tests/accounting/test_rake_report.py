"""R-RAKE-2: the rake report by New York day, table, stakes or schedule, on screen for staff,
as CSV / XLSX, from `manage.py export_rake`, mailed daily to accounting; its totals reconcile
with the hands' histories and with the ledger."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, date, datetime

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from accounting.report import mail_rake_report_for_yesterday, rake_report, report_csv
from accounting.tasks import mail_daily_rake_report
from accounts.selectors import balances_total, ledger_totals_by_kind
from tables.models import RakeEntry, RakeSchedule
from tables.selectors import room_chip_totals
from tests.factories import PlayerFactory, StaffFactory
from tests.history_hands import PlayedTable, hold_scheduling, raked_hand
from tests.table_factories import make_table

pytestmark = pytest.mark.django_db

# 03:30 UTC on 15 March is 23:30 on 14 March in New York: the New York day decides.
LATE_ON_THE_14TH = datetime(2025, 3, 15, 3, 30, tzinfo=UTC)
ON_THE_15TH = datetime(2025, 3, 15, 16, 0, tzinfo=UTC)
ON_THE_16TH = datetime(2025, 3, 16, 16, 0, tzinfo=UTC)


@pytest.fixture
def hands(monkeypatch: pytest.MonkeyPatch) -> list[PlayedTable]:
    hold_scheduling(monkeypatch)
    small = RakeSchedule.objects.get(name="$0.50/$1 and $1/$2")
    one = make_table(name="Aces", rake_schedule=small)
    two = make_table(name="Kings", rake_schedule=small, small_bet=50, big_bet=100, bring_in=10)
    first = raked_hand(table=one, now=LATE_ON_THE_14TH)
    second = raked_hand(table=one, now=ON_THE_15TH, players=first.players)
    third = raked_hand(table=two, now=ON_THE_16TH)
    return [first, second, third]


def rake_of(played: PlayedTable) -> int:
    assert played.engine.result is not None
    return played.engine.result.rake


def test_r_rake_2_by_new_york_day(hands):
    report = rake_report(first_day=date(2025, 3, 14), last_day=date(2025, 3, 16))
    assert [(row.key, row.hands, row.rake) for row in report.rows] == [
        ("2025-03-14", 1, rake_of(hands[0])),
        ("2025-03-15", 1, rake_of(hands[1])),
        ("2025-03-16", 1, rake_of(hands[2])),
    ]
    only_15 = rake_report(first_day=date(2025, 3, 15), last_day=date(2025, 3, 15))
    assert only_15.hands == 1 and only_15.rake == rake_of(hands[1])


def test_r_rake_2_by_table_stakes_and_schedule(hands):
    days = {"first_day": date(2025, 3, 14), "last_day": date(2025, 3, 16)}
    by_table = rake_report(group_by="table", **days)
    assert [(row.label, row.hands) for row in by_table.rows] == [("Aces", 2), ("Kings", 1)]
    by_stakes = rake_report(group_by="stakes", **days)
    assert [(row.label, row.hands) for row in by_stakes.rows] == [
        ("$0.50/$1.00", 1),
        ("$1.00/$2.00", 2),
    ]
    by_schedule = rake_report(group_by="schedule", **days)
    assert [(row.label, row.hands) for row in by_schedule.rows] == [("$0.50/$1 and $1/$2", 3)]
    assert by_table.rake == by_stakes.rake == by_schedule.rake == sum(map(rake_of, hands))


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
    assert report.hands == len(hands)


def test_csv_and_xlsx_carry_the_rows_and_the_total(hands):
    report = rake_report(first_day=date(2025, 3, 14), last_day=date(2025, 3, 16))
    rows = list(csv.reader(io.StringIO(report_csv(report))))
    assert rows[0] == ["group_by", "key", "label", "hands", "rake_cents", "rake"]
    assert rows[-1][2:5] == ["Total", "3", str(report.rake)]
    staff = StaffFactory()
    client = Client()
    client.force_login(staff)
    query = {"first_day": "2025-03-14", "last_day": "2025-03-16", "group_by": "table"}
    response = client.get(reverse("rake_report"), {**query, "format": "xlsx"})
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[-1][2:5] == ("Total", 3, report.rake)


def test_the_staff_page_shows_the_totals_and_players_are_refused(hands):
    query = {"first_day": "2025-03-14", "last_day": "2025-03-16", "group_by": "day"}
    staff = Client()
    staff.force_login(StaffFactory())
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
        Client().get(reverse("rake_report"), query),
    ):
        assert response.status_code == 302 and "login" in response["Location"]


def test_export_rake_command_writes_csv_and_xlsx(hands, tmp_path):
    out = io.StringIO()
    call_command(
        "export_rake",
        "--from",
        "2025-03-14",
        "--to",
        "2025-03-16",
        "--group-by",
        "table",
        stdout=out,
    )
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert [row[2] for row in rows[1:]] == ["Aces", "Kings", "Total"]
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
    assert load_workbook(target).active.max_row == 5  # header, three days, total


def test_the_daily_job_mails_yesterdays_report_to_accounting(hands, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.ACCOUNTING_EMAIL = ""
    assert mail_daily_rake_report.apply().get() == "skipped"
    settings.ACCOUNTING_EMAIL = "books@example.com"
    assert mail_rake_report_for_yesterday(now=datetime(2025, 3, 17, 5, 0, tzinfo=UTC)) == "sent"
    [message] = mail.outbox
    assert message.to == ["books@example.com"] and "2025-03-16" in message.subject
    [(name, body, _)] = message.attachments
    assert name == "rake-2025-03-16-2025-03-16-by-table.csv" and "Kings" in body


def test_the_admin_action_opens_the_report_for_the_selected_days(hands):
    client = Client()
    client.force_login(StaffFactory())
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
