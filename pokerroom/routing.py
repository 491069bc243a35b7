from django.urls import path

from pokerroom.consumers import PingConsumer
from tables.realtime.routing import websocket_urlpatterns as table_websocket_urlpatterns
from tournaments.routing import websocket_urlpatterns as tournament_websocket_urlpatterns

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    *table_websocket_urlpatterns,
    *tournament_websocket_urlpatterns,
]
