"""/matches/<id>/review.json, what the replay page's script marks the replay with: each
decision names its replay step and the expert's choice in words, and a review not
finished (or one that failed) says so."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from games.models import Match, Move
from games.review import services
from games.review.models import Review, ReviewedDecision
from tests.games.helpers import logged_in
from tests.games.review.helpers import ITERATIONS

pytestmark = pytest.mark.django_db


def reviewed(match: Match, user: User, *, seconds: float = services.CHUNK_SECONDS) -> Review:
    """``user``'s review of ``match`` at the tests' budget, worked on for one chunk."""
    review = services.review_request(match_id=match.pk, user=user)
    Review.objects.filter(pk=review.pk).update(iterations=ITERATIONS)
    services.review_advance(review_id=review.pk, attempt=1, seconds=seconds)
    review.refresh_from_db()
    return review


def test_a_finished_review_names_each_disagreement_s_replay_step_and_the_expert_s_choice(
    finished: Match, ann: User
) -> None:
    review = reviewed(finished, ann)
    data = logged_in(ann).get(f"/matches/{finished.pk}/review.json").json()

    assert data["done"] is True and data["problem"] == "" and data["reviewed"] == data["decisions"] == 3
    anns_moves = list(Move.objects.filter(match=finished, user=ann).order_by("ply"))
    decisions = data["reviewed_decisions"]
    assert [decision["ply"] for decision in decisions] == [move.ply for move in anns_moves]
    for decision, move in zip(decisions, anns_moves, strict=True):
        assert set(decision) == {
            "ply", "step", "replay_url", "seat", "agrees", "forced",
            "played", "played_label", "expert", "expert_label",
            "grade", "value_best", "value_played", "cost",
        }  # fmt: skip
        # The replay's step is the board just before the move: as many moves made as its ply.
        assert decision["step"] == move.ply and decision["seat"] == move.seat == 0
        assert decision["replay_url"] == f"/matches/{finished.pk}/replay?step={move.ply}&eyes=seat-0"
        assert decision["played"] == move.action

    # Ann's play (the fixture) is one disagreement, her first decision with a choice.
    disagreements = [decision for decision in decisions if not decision["agrees"]]
    assert len(disagreements) == 1
    [disagreement] = disagreements
    row = ReviewedDecision.objects.get(review=review, ply=disagreement["step"])
    assert disagreement["expert"] == row.expert != disagreement["played"]
    assert disagreement["expert_label"] == row.expert_label != disagreement["played_label"]
    # In words, with the players' names in place of the seat marks ("{s1}").
    assert disagreement["expert_label"].strip() and "{s" not in disagreement["expert_label"]
    # Graded by what it cost, the expert's estimates stored with it (0 to 1: search.reward).
    assert disagreement["grade"] == row.grade.slug != "best"
    assert disagreement["value_best"] == row.value_best and disagreement["value_played"] == row.value_played
    assert disagreement["cost"] == row.cost == max(0.0, row.value_best - row.value_played)
    assert all(decision["grade"] in {"best", "forced"} for decision in decisions if decision["agrees"])

    # The replay step it names shows the board before that move.
    replay = logged_in(ann).get(disagreement["replay_url"])
    assert replay.status_code == 200
    assert f'data-step="{disagreement["step"]}"' in replay.content.decode()


def test_a_review_still_worked_on_says_it_is_not_done(finished: Match, ann: User) -> None:
    reviewed(finished, ann, seconds=0)  # one decision, then the next chunk would be queued
    data = logged_in(ann).get(f"/matches/{finished.pk}/review.json").json()
    assert data["done"] is False and data["reviewed"] == 1 and data["decisions"] == 3
    assert len(data["reviewed_decisions"]) == 1


def test_a_review_that_could_not_be_made_says_why(finished: Match, ann: User) -> None:
    review = reviewed(finished, ann)
    Review.objects.filter(pk=review.pk).update(problem="The match could not be rebuilt: no such card.")
    data = logged_in(ann).get(f"/matches/{finished.pk}/review.json").json()
    assert data["done"] is True and data["problem"] == "The match could not be rebuilt: no such card."


def test_the_replay_of_a_finished_match_tells_its_script_where_my_review_is(
    finished: Match, ann: User
) -> None:
    hook = f'data-review-url="/matches/{finished.pk}/review.json"'
    assert hook in logged_in(ann).get(f"/matches/{finished.pk}/replay").content.decode()
    # A visitor has no review to ask for: the page does not send its script asking.
    assert hook not in Client().get(f"/matches/{finished.pk}/replay").content.decode()


def test_the_replay_of_a_running_match_has_no_review_to_ask_for(duel: Match, ann: User) -> None:
    html = logged_in(ann).get(f"/matches/{duel.pk}/replay").content.decode()
    assert 'id="replay-page"' in html and "data-review-url" not in html
