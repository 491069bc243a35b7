"""A player's finished hands: pages, filters, downloads, the replayer, "email me these
hands". No models of its own: it reads tables.Hand and tables.HandEvent and writes
tables.HistoryEmailRequest (see docs/architecture.md)."""
