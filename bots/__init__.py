"""The WebSocket bot client and its commands. It talks to the room only over HTTP and
WebSocket (an import-linter contract keeps bots.client free of the room); nothing
imports bots."""
