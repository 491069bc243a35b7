from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token

from tables.api import views

urlpatterns = [
    path("token/", obtain_auth_token, name="api_token"),
    path("tables/", views.LobbyTableList.as_view(), name="api_tables"),
    path("tables/<int:pk>/", views.TableDetail.as_view(), name="api_table"),
    path("me/", views.AccountView.as_view(), name="api_me"),
    path("me/ledger/", views.LedgerList.as_view(), name="api_ledger"),
    path("hands/", views.HandList.as_view(), name="api_hands"),
    path("hands/<int:hand_id>/", views.HandDetail.as_view(), name="api_hand"),
    path("hands/<int:hand_id>/text/", views.HandText.as_view(), name="api_hand_text"),
    path("rake/report/", views.RakeReportView.as_view(), name="api_rake_report"),
]
