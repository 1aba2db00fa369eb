"""History: a player's finished matches (filters, keyset pages), a match as JSON and all
of one's matches as a stream of JSON lines (docs/site.md, "History"; docs/export.md).

A feature package, not a Django app: it has no models, and reads the core's matches,
seats and moves through its own selectors. The core never imports it; its URLs are
included by name.
"""
