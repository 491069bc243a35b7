from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token

from api import accounting, accounts, fairness, histories, imported, tables, tournaments

urlpatterns = [
    path("token/", obtain_auth_token, name="api_token"),
    path("tables/", tables.LobbyTableList.as_view(), name="api_tables"),
    path("tables/<int:pk>/", tables.TableDetail.as_view(), name="api_table"),
    path("tournaments/", tournaments.TournamentList.as_view(), name="api_tournaments"),
    path("tournaments/<int:pk>/", tournaments.TournamentDetail.as_view(), name="api_tournament"),
    path(
        "tournaments/<int:pk>/register/",
        tournaments.TournamentRegister.as_view(),
        name="api_tournament_register",
    ),
    path(
        "tournaments/<int:pk>/unregister/",
        tournaments.TournamentUnregister.as_view(),
        name="api_tournament_unregister",
    ),
    path(
        "tournaments/<int:pk>/add-on/",
        tournaments.TournamentAddOn.as_view(),
        name="api_tournament_add_on",
    ),
    path("me/", accounts.AccountView.as_view(), name="api_me"),
    path("me/ledger/", accounts.LedgerList.as_view(), name="api_ledger"),
    path("me/top-up/", accounts.TopUpView.as_view(), name="api_top_up"),
    path("me/limits/", accounts.PlayLimitsView.as_view(), name="api_limits"),
    path("hands/", histories.HandList.as_view(), name="api_hands"),
    path("hands/<int:hand_id>/", histories.HandDetail.as_view(), name="api_hand"),
    path("hands/<int:hand_id>/text/", histories.HandText.as_view(), name="api_hand_text"),
    path("hands/import/", imported.ImportOpen.as_view(), name="api_hands_import"),
    path("hands/import/keep/", imported.ImportKeep.as_view(), name="api_hands_import_keep"),
    path("hands/imported/", imported.ImportedHandList.as_view(), name="api_imported_hands"),
    path(
        "hands/imported/<int:imported_id>/",
        imported.ImportedHandDetail.as_view(),
        name="api_imported_hand",
    ),
    path("fairness/chain/", fairness.FairnessChainHead.as_view(), name="api_fairness_chain"),
    path(
        "fairness/chain/entries/",
        fairness.FairnessChainEntries.as_view(),
        name="api_fairness_chain_entries",
    ),
    path("rake/report/", accounting.RakeReportView.as_view(), name="api_rake_report"),
]
