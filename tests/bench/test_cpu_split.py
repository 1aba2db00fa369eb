"""bench/cpu_split.py: a py-spy profile split into the parts of the move path."""

from __future__ import annotations

from bench.cpu_split import main, split

PROFILE = [
    "Thread._bootstrap (threading.py:1002);MatchConsumer._move (games/consumers.py:240);match_submit_action (games/services/moves.py:66) 7",
    # The doorbells run inside the service's call, after its commit: theirs, not the service's.
    "Thread._bootstrap (threading.py:1002);match_submit_action (games/services/moves.py:66);after_commit.<locals>.run (games/effects.py:46) 2",
    "_run_module_as_main (<frozen runpy>:198);Server.run (daphne/server.py:1);RedisChannelLayer.group_send (channels_redis/core.py:9) 1",
    "_run_module_as_main (<frozen runpy>:198);Server.run (daphne/server.py:1);Handle._run (asyncio/events.py:84) 4",
    "elsewhere (x.py:1) 6",
    "",
]


def test_each_sample_goes_to_the_first_part_whose_frame_it_has():
    parts, total = split(PROFILE)
    assert total == 20
    assert parts == {
        "the move's service (engine, SQL, commit)": 7,
        "after-commit doorbells, the thread's side": 2,
        "channel layer (Redis)": 1,
        "event loop, the rest (Daphne, ASGI, asyncio)": 4,
        "other": 6,
    }


def test_the_table_gives_milliseconds_per_move(tmp_path, capsys):
    profile = tmp_path / "move.raw"
    profile.write_text("\n".join(PROFILE))
    main([str(profile), "--cpu-ms", "10"])
    out = capsys.readouterr().out
    assert "| the move's service (engine, SQL, commit) | 35.0% | 3.5 |" in out
    assert "| other | 30.0% | 3.0 |" in out
