from django.urls import path

from tables import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("lobby.json", views.lobby_data, name="lobby_data"),
    path("tables/<int:table_id>/", views.table, name="table"),
    path("tables/<int:table_id>/preview.json", views.table_preview, name="table_preview"),
    path("tables/balance.json", views.balance, name="table_balance"),
]
