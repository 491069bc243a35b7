"""`make run`'s demo room: loaded once, found again, never paid twice."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from accounts.models import LedgerEntry, Player
from tables.models import Table
from tables.presets import STAKES_PRESETS

pytestmark = pytest.mark.django_db


def test_the_demo_room_has_staff_three_funded_players_and_a_table_per_preset(capsys):
    call_command("load_demo")
    printed = capsys.readouterr().out

    staff = Player.objects.get(username="staff")
    assert staff.is_staff and staff.check_password("staff-demo-pass")
    players = Player.objects.filter(username__in=["alice", "bob", "carol"])
    assert {p.username: p.balance for p in players} == {
        "alice": 50_000,
        "bob": 25_000,
        "carol": 10_000,
    }
    assert not any(p.is_staff for p in players)
    stakes = {(t.small_bet, t.big_bet, t.ante, t.bring_in) for t in Table.objects.all()}
    sane = [p for p in STAKES_PRESETS if not p.odd]
    assert {(p.small_bet, p.big_bet, p.ante, p.bring_in) for p in sane} == stakes
    assert "staff / staff-demo-pass" in printed
    assert "alice, bob, carol / player-demo-pass" in printed


def test_loading_the_demo_room_twice_changes_nothing():
    call_command("load_demo")
    tables, ledger = Table.objects.count(), LedgerEntry.objects.count()
    call_command("load_demo")
    assert Table.objects.count() == tables
    assert LedgerEntry.objects.count() == ledger
    assert Player.objects.get(username="alice").balance == 50_000


def test_the_demo_opens_no_odd_preset_and_staff_still_see_them_flagged(admin_client):
    """Issue #14 and RULES.md "Stakes presets": seed 000's odd presets (the ante or the
    bring-in equal to the small bet) are kept for staff, flagged in the admin's preset list,
    but the demo room (and its practice table) opens none of them."""
    call_command("load_demo")

    for table in Table.objects.all():
        assert table.bring_in < table.small_bet, table.name
        assert table.ante < table.small_bet, table.name
    practice = Table.objects.get(name="Practice (demo bots)")
    assert (practice.small_bet, practice.ante, practice.bring_in) == (100, 10, 20)
    page = admin_client.get("/admin/tables/table/add/").text
    odd = [p for p in STAKES_PRESETS if p.odd]
    assert odd and all(f"[ODD: {p.odd}]" in page for p in odd)


def test_the_demo_tables_have_plain_names_the_lobby_shows_beside_their_stakes():
    """Issue #21: the lobby listed "Stud $1/$2 (seed 000)", a name that repeats the Game and
    Stakes columns and names a document a player never saw. Each table has a plain name of
    its own, with no stakes, game or seed in it."""
    call_command("load_demo")
    names = list(Table.objects.values_list("name", flat=True))
    assert len(set(names)) == len(names)
    for name in names:
        assert "seed" not in name.lower() and "$" not in name and "Stud" not in name, name
        assert len(name) <= 24, name


def test_a_room_loaded_with_the_old_names_is_renamed_not_doubled():
    """A database loaded by an earlier `make run` keeps its tables (and their hands): the
    next load gives them their plain names and opens no second set."""
    call_command("load_demo")
    hilo = Table.objects.get(game="stud8", small_bet=50, big_bet=100)
    Table.objects.filter(pk=hilo.pk).update(name="Stud Hi/Lo $0.50/$1 (seed 003)")
    tables = Table.objects.count()
    call_command("load_demo")
    assert Table.objects.count() == tables
    assert Table.objects.get(pk=hilo.pk).name == hilo.name
    assert "seed" not in hilo.name


def test_r_game_1_the_demo_room_deals_razz_at_the_stud_presets_with_a_bot_table(client, capsys):
    """R-GAME-1: Razz tables at stud presets, one of them the Razz practice table the demo's
    bots sit at; the lobby names the game "Razz" and offers it as a filter."""
    call_command("load_demo", "--razz-table-id")
    razz_id = int(capsys.readouterr().out.strip())
    razz = Table.objects.get(pk=razz_id)
    assert razz.game == "razz"
    presets = {(p.small_bet, p.big_bet, p.ante, p.bring_in) for p in STAKES_PRESETS}
    razz_tables = Table.objects.filter(game="razz")
    assert razz_tables.count() >= 2
    assert all((t.small_bet, t.big_bet, t.ante, t.bring_in) in presets for t in razz_tables)
    page = client.get("/").content.decode()
    assert '<option value="razz">Razz</option>' in page
    assert '<td class="game" data-label="Game">Razz</td>' in page


def test_r_mix_1_the_demo_room_has_a_triple_stud_table(capsys):
    """R-MIX-1: the demo's Triple Stud table, where `make run` seats two bots."""
    call_command("load_demo", "--triple-stud-table-id")
    table = Table.objects.get(pk=int(capsys.readouterr().out.strip()))
    assert table.triple_stud and table.game_of_hand(9) == "razz"
