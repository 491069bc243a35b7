"""The live tables over WebSocket: the consumer, the protocol of client messages, the
routes. A translator only: every change goes through tables.services."""
