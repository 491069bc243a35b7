"""WebSocket routes of the live tables (included by pokerroom/routing.py)."""

from django.urls import path

from tables.realtime.consumer import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
