"""The rake report: the staff page, CSV, XLSX, the daily mail and export_rake. No models
of its own: it reads tables.RakeEntry (see docs/architecture.md)."""
