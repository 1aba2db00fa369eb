"""bench/cpu_split.py: a py-spy profile split into the parts of the move path."""

from __future__ import annotations

from bench.cpu_split import main, split

PROFILE = [
    "Thread._bootstrap (threading.py:1002);MatchConsumer._move (games/live/consumers.py:240);match_submit_action (games/services/moves.py:66) 7",
    # The pushes run inside the service's call, after its commit: theirs, not the service's;
    # the boards drawn there, theirs again.
    "Thread._bootstrap (threading.py:1002);match_submit_action (games/services/moves.py:66);after_commit.<locals>.run (games/effects.py:46) 2",
    "Thread._bootstrap (threading.py:1002);match_submit_action (games/services/moves.py:66);after_commit.<locals>.run (games/effects.py:46);boards_for_watching (games/live/push.py:30) 3",
    "_run_module_as_main (<frozen runpy>:198);Server.run (daphne/server.py:1);RedisChannelLayer.group_send (channels_redis/core.py:9) 1",
    "_run_module_as_main (<frozen runpy>:198);Server.run (daphne/server.py:1);Handle._run (asyncio/events.py:84) 4",
    "elsewhere (x.py:1) 6",
    "",
]


def test_each_sample_goes_to_the_first_part_whose_frame_it_has():
    parts, total = split(PROFILE)
    assert total == 23
    assert parts == {
        "the move's service (engine, SQL, commit)": 7,
        "drawing the move's boards where it is stored (presence, view, presenter, templates)": 3,
        "after-commit pushes and doorbells, the thread's side": 2,
        "channel layer (Redis)": 1,
        "event loop, the rest (Daphne, ASGI, asyncio)": 4,
        "other": 6,
    }


def test_the_table_gives_milliseconds_per_move(tmp_path, capsys):
    profile = tmp_path / "move.raw"
    profile.write_text("\n".join(PROFILE))
    main([str(profile), "--cpu-ms", "10"])
    out = capsys.readouterr().out
    assert "| the move's service (engine, SQL, commit) | 30.4% | 3.0 |" in out
    assert "| other | 26.1% | 2.6 |" in out
