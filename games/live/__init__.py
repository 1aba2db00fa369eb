"""The live part of a match: its WebSockets and what they carry.

``consumers`` (the match socket and the per-person one), ``routing`` (their URLs),
``fragments`` (the live part of the match page, drawn for one kind of viewer),
``push`` (after a change commits: a move's boards drawn once per kind of viewer looking
and sent to each kind's group, or a doorbell for every socket to read again),
``broadcast`` (the channel-layer groups and messages), ``presence`` (who has a match
open, and as which kinds of viewer, in Redis), ``socket_db`` (the sockets' database
threads) and ``socket_limits`` (the caps per client and per match).

The core does not import this package: it hears the core's changes through the signals
of ``games/effects.py``, connected in ``games/apps.py``.
"""
