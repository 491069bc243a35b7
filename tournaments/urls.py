from django.urls import path

from tournaments import views

urlpatterns = [
    path("", views.lobby, name="tournament_lobby"),
    path("lobby.json", views.lobby_data, name="tournament_lobby_data"),
    path("<int:tournament_id>/", views.tournament, name="tournament"),
    path("<int:tournament_id>.json", views.tournament_data, name="tournament_data"),
    path("<int:tournament_id>/results/", views.results, name="tournament_results"),
    path("<int:tournament_id>/clock/", views.clock, name="tournament_clock"),
    path("<int:tournament_id>/register/", views.register, name="tournament_register"),
    path("<int:tournament_id>/unregister/", views.unregister, name="tournament_unregister"),
    path("<int:tournament_id>/add-on/", views.add_on, name="tournament_add_on"),
]
