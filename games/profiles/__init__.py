"""Player profiles: per game how a player has done (played, won, average place, streaks,
rating), a rating-history chart per rated game drawn as SVG on the server, their recent
matches, and their record against the person looking (docs/site.md, "Profiles").

A feature package, not a Django app: it has no models. It reads the core's seats and
matches, the ratings app's ratings and History's lists through their selectors; the
core never imports it, and accounts (which know nothing of games) hand it the
``/players/<username>/`` address.
"""
