"""encode/decode: round trips, play from a decoded state, and junk refused with ValueError."""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games.engine import Game
from tests.engine import junk
from tests.engine.conformance.common import encoding, hypothesis_settings, is_json_ready
from tests.engine.playouts import Playout, canonical


def check_round_trips(playout: Playout, points: list[int]) -> None:
    """At ``points``: decode(encode(s)) == s, re-encodes byte for byte, and play goes on
    from it exactly as from the original (the site keeps states as JSON between moves)."""
    game = playout.game
    for step in points:
        state = playout.states[step]
        label = playout.describe(step)
        text = encoding(playout, step)
        assert is_json_ready(json.loads(text)), f"{label}: encode() is not JSON-ready"
        decoded = game.decode(json.loads(text))
        assert type(decoded) is type(state), f"{label}: decode gave a {type(decoded).__name__}"
        assert decoded == state, f"{label}: decode(encode(state)) != state"
        assert canonical(game.encode(decoded)) == text, f"{label}: re-encoding differs"
        if step < len(playout.moves):
            seat, action = playout.moves[step]
            after = game.apply(decoded, seat, copy.deepcopy(action))
            assert after == playout.states[step + 1], (
                f"{label}: play from a decoded state differs from play from the original"
            )


def check_decode_refuses_junk(game: Game[Any], pool: list[Any], examples: int) -> None:
    """Junk, and real encodings with a part broken, decode or raise ValueError, nothing else."""
    texts = [canonical(game.encode(state)) for state in pool]

    @hypothesis_settings(examples)
    @given(data=st.data())
    def decode_junk(data: st.DataObject) -> None:
        if data.draw(st.booleans(), label="pure junk"):
            broken = data.draw(junk.values(), label="junk")
        else:
            # Draw an index, not the text: Hypothesis hashes what it samples from.
            broken = json.loads(texts[data.draw(st.integers(0, len(texts) - 1), label="encoding")])
            broken = data.draw(junk.broken(broken), label="broken encoding")
        with contextlib.suppress(ValueError):
            game.decode(broken)

    decode_junk()
