"""Inputs that once crashed something, and a fuzz over every way in.

Every bad input gets a clear error and changes nothing; no socket dies from a
message (games/inputs.py). The fuzz (Hypothesis) sends arbitrary JSON values, deep
nesting, NUL characters, lone surrogates and plain junk to every socket message
type, the API and the form posts of a running match.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from accounts.models import User
from accounts.services import api_token_create
from games.models import ChatMessage, Match, Move
from tests.games.sockets import Viewer, next_of, run, socket

pytestmark = pytest.mark.django_db(transaction=True)

DEEP = "[" * 5000 + "]" * 5000  # 10 KB, under every size limit: RecursionError in the parser
NUL = "hello\x00world"
SURROGATE = '{"type": "chat", "text": "\\ud800"}'  # valid JSON text, a lone surrogate inside


def changes(match: Match) -> tuple[int, int, int]:
    match.refresh_from_db()
    return (
        match.ply,
        Move.objects.filter(match=match).count(),
        ChatMessage.objects.filter(match=match).count(),
    )


def socket_survives(match_id: int, viewer: Viewer, texts: list[str]) -> list[dict[str, Any]]:
    """Send each text; after each the socket must still answer a ping. The errors met."""
    errors: list[dict[str, Any]] = []

    async def scenario() -> None:
        ws = socket(match_id, viewer)
        assert (await ws.connect())[0]
        await next_of(ws, "board")
        for text in texts:
            await ws.send_to(text_data=text)
            await ws.send_json_to({"type": "ping"})
            while True:
                message = await ws.receive_json_from(timeout=5)
                if message["type"] == "error":
                    errors.append(message)
                if message["type"] == "pong":
                    break
        await ws.disconnect()

    run(scenario)
    return errors


# -- the inputs the security test found ----------------------------------------------


def test_deep_json_is_refused_clearly_everywhere(two_player_match: Match, ann: User) -> None:
    before = changes(two_player_match)
    token = api_token_create(user=ann, name="t")[1]
    answer = Client().post(
        f"/api/matches/{two_player_match.pk}/actions",
        data=DEEP,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "malformed_json"
    nested_action = json.dumps({"action": json.loads("[" * 40 + "]" * 40), "ply": 0})
    answer = Client().post(
        f"/api/matches/{two_player_match.pk}/actions",
        data=nested_action,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert answer.status_code == 400 and "deeper" in answer.json()["error"]["message"]

    browser = Client()
    browser.force_login(ann)
    answer = browser.post(f"/matches/{two_player_match.pk}/act", {"action": DEEP, "ply": "0"}, follow=True)
    assert answer.status_code == 200 and "not valid JSON" in answer.content.decode()

    errors = socket_survives(
        two_player_match.pk, Viewer(ann), [DEEP, json.dumps({"type": "act", "action": DEEP})]
    )
    assert [error["code"] for error in errors][:1] == ["malformed_message"]
    assert changes(two_player_match) == before


def test_a_nul_character_in_chat_is_refused_by_form_and_socket(two_player_match: Match, ann: User) -> None:
    before = changes(two_player_match)
    browser = Client()
    browser.force_login(ann)
    # A browser's text box cannot send one: the form's post is refused before any view
    # (boomsite/nul_characters.py), the socket's message where it is parsed.
    answer = browser.post(f"/matches/{two_player_match.pk}/chat", {"text": NUL})
    assert answer.status_code == 400 and "NUL" in answer.content.decode()
    errors = socket_survives(two_player_match.pk, Viewer(ann), [json.dumps({"type": "chat", "text": NUL})])
    assert errors and "NUL" in errors[0]["message"]
    assert changes(two_player_match) == before


def test_a_lone_surrogate_in_chat_is_refused_and_the_socket_lives(two_player_match: Match, ann: User) -> None:
    before = changes(two_player_match)
    errors = socket_survives(two_player_match.pk, Viewer(ann), [SURROGATE])
    assert errors and "surrogate" in errors[0]["message"]
    assert changes(two_player_match) == before


def test_control_characters_in_chat_are_refused_but_lines_are_fine(
    two_player_match: Match, ann: User
) -> None:
    errors = socket_survives(
        two_player_match.pk,
        Viewer(ann),
        [
            json.dumps({"type": "chat", "text": "bell\x07"}),
            json.dumps({"type": "chat", "text": "two\nlines"}),
        ],
    )
    assert [error["code"] for error in errors] == ["bad_text"]
    assert list(ChatMessage.objects.filter(match=two_player_match).values_list("text", flat=True)) == [
        "two\nlines"
    ]


# -- the fuzz ----------------------------------------------------------------------------


@pytest.fixture
def ann_token(ann: User) -> str:
    return api_token_create(user=ann, name="fuzz")[1]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
nasty_text = st.sampled_from([DEEP, NUL, "\ud800", "\x07", "", " ", "null", "[]", '{"type": 1}', "😀" * 10])
payloads = st.one_of(json_values, nasty_text)
message_types = st.sampled_from(["ping", "hello", "refresh", "act", "chat", "nonsense", None, 7, ["act"]])

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _as_text(message: Any) -> str:
    # A lone surrogate cannot be sent as UTF-8 text; JSON escapes it, as a client could.
    return json.dumps(message) if not isinstance(message, str) else message


@FUZZ
@example(kind="chat", field="text", value="\ud800")  # the cases the security test found
@example(kind="chat", field="text", value=NUL)
@example(kind="nonsense", field="text", value=DEEP)
@given(
    kind=message_types, field=st.sampled_from(["action", "text", "ply", "action_id", "extra"]), value=payloads
)
def test_no_socket_message_kills_the_socket_or_changes_anything(
    two_player_match: Match, ann: User, kind: Any, field: str, value: Any
) -> None:
    before = changes(two_player_match)
    message = {"type": kind, field: value}
    # Raw junk for "nonsense" (the test communicator cannot send an empty frame).
    text = value if kind == "nonsense" and isinstance(value, str) and value else _as_text(message)
    socket_survives(two_player_match.pk, Viewer(ann), [text])
    after = changes(two_player_match)
    # A fuzzed chat may be a fine message; nothing else may change anything.
    assert after[:2] == before[:2]
    if not (kind == "chat" and field == "text" and isinstance(value, str) and value.strip()):
        assert after == before


@FUZZ
@example(body=DEEP)
@given(
    body=st.one_of(
        json_values.map(_as_text), nasty_text, st.binary(max_size=64).map(lambda raw: raw.decode("latin-1"))
    )
)
def test_no_api_body_crashes_or_changes_anything(two_player_match: Match, ann_token: str, body: str) -> None:
    token = ann_token
    before = changes(two_player_match)
    answer = Client().post(
        f"/api/matches/{two_player_match.pk}/actions",
        data=body.encode("utf-8", "surrogatepass"),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert answer.status_code < 500 and "error" in answer.json()
    assert changes(two_player_match) == before


@FUZZ
@given(
    path=st.sampled_from(["act", "chat", "join", "decline", "leave", "resign"]),
    # A browser cannot post a lone surrogate (it sends U+FFFD instead): left out here.
    fields=st.dictionaries(
        st.sampled_from(["action", "ply", "action_id", "text"]),
        nasty_text.filter(lambda text: text != "\ud800") | st.text(max_size=30),
        max_size=4,
    ),
)
def test_no_form_post_crashes(two_player_match: Match, bob: User, path: str, fields: dict[str, str]) -> None:
    browser = Client()
    browser.force_login(bob)
    answer = browser.post(f"/matches/{two_player_match.pk}/{path}", fields)
    assert answer.status_code < 500
