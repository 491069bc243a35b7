"""The REST API (Django REST framework only): a module per domain (tables, accounts,
histories, accounting), the URLs, the schema and /api/docs/. Thin views over each app's
selectors."""
