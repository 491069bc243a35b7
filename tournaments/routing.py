"""WebSocket routes of the tournaments (included by pokerroom/routing.py)."""

from django.urls import path

from tournaments.consumer import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournaments/", TournamentConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/tournaments/tables/<int:table_id>/", TournamentConsumer.as_asgi()),
]
