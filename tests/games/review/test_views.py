"""The review page (/matches/<id>/review): the button, the progress while the expert
works (polled by review.js, or a meta refresh without JavaScript), then my decisions
with the expert's disagreements marked, each linked to its replay step; and refusals."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Match, Move
from games.review import services
from games.review.models import Review, ReviewedDecision
from games.services import SeatRequest, match_create, match_join, match_resign
from tests.games.helpers import logged_in
from tests.games.review.helpers import ITERATIONS, finish_duel

pytestmark = pytest.mark.django_db


def page(client: Client, match: Match) -> str:
    response = client.get(f"/matches/{match.pk}/review")
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_offers_the_review_and_the_button_asks_for_it_once(finished: Match, ann: User) -> None:
    client = logged_in(ann)
    html = page(client, finished)
    assert "Review with the expert bot" in html and f'action="/matches/{finished.pk}/review/start"' in html
    assert "3 decisions" in html
    for _ in range(2):
        response = client.post(f"/matches/{finished.pk}/review/start")
        assert response.status_code == 302 and response["Location"] == f"/matches/{finished.pk}/review"
    assert Review.objects.filter(match=finished, user=ann).count() == 1


def test_the_page_shows_progress_then_my_decisions_with_the_disagreements_marked(
    finished: Match, ann: User
) -> None:
    client = logged_in(ann)
    review = services.review_request(match_id=finished.pk, user=ann)
    Review.objects.filter(pk=review.pk).update(iterations=ITERATIONS)
    services.review_advance(review_id=review.pk, attempt=1, seconds=0)

    working = page(client, finished)
    assert "1 of 3 decisions reviewed" in working
    assert '<progress id="review-bar" max="3" value="1">' in working
    assert '<script src="/static/js/review.js" defer></script>' in working
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in working
    assert not re.search(r"<script(?![^>]*\bsrc=)", working)  # no inline script: the CSP refuses it
    assert "Review with the expert bot" not in working
    status = client.get(f"/matches/{finished.pk}/review/status")
    assert status.json() == {
        "reviewed": 1,
        "decisions": 3,
        "done": False,
        "stalled": False,
        "words": "1 of 3 decisions reviewed",
    }

    services.review_advance(review_id=review.pk, attempt=1)
    done = page(client, finished)
    assert client.get(f"/matches/{finished.pk}/review/status").json()["done"] is True
    assert "review.js" not in done and "http-equiv" not in done
    decisions = list(ReviewedDecision.objects.filter(review=review))
    marked = re.findall(r'<li class="review-decision grade-[a-z-]+ is-disagreement" id="step-(\d+)">', done)
    assert marked == [str(decision.ply) for decision in decisions if not decision.agrees] != []
    for decision in decisions:
        step = f'href="/matches/{finished.pk}/replay?step={decision.ply}&amp;eyes=seat-0"'
        assert step in done
        if not decision.agrees:
            assert "The expert would have played:</strong> " + decision.expert_label in done
    assert done.count("The expert agrees.") + done.count("Your only move.") == 2
    assert "<strong>1 differently</strong>" in done


def graded_review(match: Match, user: User) -> Review:
    """``user``'s finished review of ``match`` at the tests' budget."""
    review = services.review_request(match_id=match.pk, user=user)
    Review.objects.filter(pk=review.pk).update(iterations=ITERATIONS)
    assert services.review_advance(review_id=review.pk, attempt=1) == services.ReviewOutcome.DONE
    return review


def set_costs(review: Review, costs: dict[int, float | None]) -> None:
    """Give the decisions with a choice known estimates (a chance to win of 60% with the
    expert's move, minus each cost; None: written before decisions were graded), so the
    page's order and words can be checked exactly. The first ``len(costs)`` of them, in ply
    order, keyed by their index among them; the others keep the expert's own."""
    chosen = [row for row in review.reviewed_decisions.order_by("ply") if not row.is_forced]
    for index, cost in costs.items():
        row = chosen[index]
        if cost is None:
            row.value_best = row.value_played = row.value_error = row.appraisal_rounds = None
        else:
            row.value_best, row.value_played, row.agrees = 0.6, 0.6 - cost, cost == 0
        row.save()


def test_the_page_grades_each_decision_and_lists_the_three_costliest_first(
    duel: Match, ann: User, bob: User
) -> None:
    match = finish_duel(duel, ann, bob, ann_moves=12, seed=3)
    review = graded_review(match, ann)
    chosen = [row for row in review.reviewed_decisions.order_by("ply") if not row.is_forced]
    assert len(chosen) >= 6
    # Two blunders, a mistake, an inaccuracy, a good move the expert would not have made
    # and one it would: the three costliest first, the costlier first, each linked to its step.
    # (Ann played at random: the rest are made the expert's own, so only these are costly.)
    set_costs(review, {**dict.fromkeys(range(len(chosen)), 0.0), 0: 0.05, 1: 0.25, 2: 0.12, 3: 0.25, 4: 0.01})
    html = page(logged_in(ann), match)
    costliest = html[html.index('id="review-costliest"') : html.index('id="decisions-heading"')]
    steps = re.findall(r'href="/matches/\d+/replay\?step=(\d+)&amp;eyes=seat-0"', costliest)
    assert steps == [str(chosen[index].ply) for index in (1, 3, 2)]  # equal costs: the earlier first
    words = re.findall(r'<span class="review-grade">([^<]+)</span>', costliest)
    assert words == ["Blunder: \u221225% chance to win"] * 2 + ["Mistake: \u221212% chance to win"]
    assert "The expert's move: 60% chance to win; yours: 35% chance to win." in costliest
    # Then every decision in order, each graded.
    every = html[html.index('id="decisions-heading"') :]
    listed = re.findall(r'class="review-decision grade-([a-z-]+)[^"]*" id="step-(\d+)"', every)
    assert [int(ply) for _, ply in listed] == sorted(row.ply for row in review.reviewed_decisions.all())
    by_ply = {int(ply): grade for grade, ply in listed}
    assert [by_ply[chosen[index].ply] for index in range(6)] == [
        "inaccuracy", "blunder", "mistake", "blunder", "good", "best",
    ]  # fmt: skip
    assert all(by_ply[row.ply] == "forced" for row in review.reviewed_decisions.all() if row.is_forced)
    assert "Inaccuracy: \u22125% chance to win" in every and "Good</span>" in every
    assert "Grades: " in html and "2 Blunder" in html and "1 Mistake" in html and "1 Inaccuracy" in html


def test_a_review_without_a_costly_decision_says_so_and_one_from_before_grades_shows_not_graded(
    finished: Match, ann: User
) -> None:
    review = graded_review(finished, ann)
    choices = review.reviewed_decisions.filter(choices__gt=1).count()
    set_costs(review, {0: 0.01, 1: 0.0})
    html = page(logged_in(ann), finished)
    assert "No inaccuracy, mistake or blunder" in html and "review-ungraded" not in html
    # Rows written before decisions were graded (the migration left them without numbers).
    set_costs(review, dict.fromkeys(range(choices)))
    html = page(logged_in(ann), finished)
    assert f"This review was made before the expert graded decisions: {choices} of them" in html
    assert html.count('<span class="review-grade">Not graded</span>') == choices
    assert "No inaccuracy" not in html and "The expert would have played:" in html
    # Asking again grades them: the review reopens as a new run for the ungraded ones only.
    kept = set(review.reviewed_decisions.filter(choices=1).values_list("pk", flat=True))
    client = logged_in(ann)
    for _ in range(2):  # two clicks: one reopening
        response = client.post(f"/matches/{finished.pk}/review/start")
        assert response.status_code == 302
    review.refresh_from_db()
    assert review.attempt == 2 and not review.is_done
    assert f"{len(kept)} of 3 decisions reviewed" in page(client, finished)  # the forced ones stay
    assert services.review_advance(review_id=review.pk, attempt=2) == services.ReviewOutcome.DONE
    html = page(client, finished)
    assert "Not graded" not in html and "review-ungraded" not in html
    assert set(review.reviewed_decisions.filter(choices=1).values_list("pk", flat=True)) == kept
    assert all(row.is_graded for row in review.reviewed_decisions.filter(choices__gt=1))


def test_the_replay_of_a_finished_match_links_to_the_review(finished: Match, duel: Match, ann: User) -> None:
    client = logged_in(ann)
    link = f'<a href="/matches/{finished.pk}/review" id="replay-review-link">'
    assert link in client.get(f"/matches/{finished.pk}/replay").content.decode()
    assert "Review with the expert bot" in page(client, finished)


def test_the_review_as_json_lists_the_decisions_reviewed(finished: Match, ann: User, bob: User) -> None:
    client = logged_in(ann)
    assert client.get(f"/matches/{finished.pk}/review.json").json() == {"requested": False}
    review = services.review_request(match_id=finished.pk, user=ann)
    Review.objects.filter(pk=review.pk).update(iterations=ITERATIONS)
    services.review_advance(review_id=review.pk, attempt=1)
    data = client.get(f"/matches/{finished.pk}/review.json").json()
    rows = list(ReviewedDecision.objects.filter(review=review))
    assert data["requested"] is True and data["done"] is True and data["iterations"] == ITERATIONS
    assert [(item["ply"], item["agrees"], item["expert_label"]) for item in data["reviewed_decisions"]] == [
        (row.ply, row.agrees, row.expert_label) for row in rows
    ]
    assert logged_in(bob).get(f"/matches/{finished.pk}/review.json").json() == {
        "requested": False
    }  # Ann's, not his


def test_a_player_without_a_decision_of_their_own_is_told_so(duel: Match, ann: User, bob: User) -> None:
    match_resign(match_id=duel.pk, user=bob)  # before Ann moved
    html = page(logged_in(ann), duel)
    assert "You made no decisions of your own in this match" in html
    assert "Review with the expert bot" not in html


def test_a_stalled_review_offers_to_resume(finished: Match, ann: User) -> None:
    client = logged_in(ann)
    review = services.review_request(match_id=finished.pk, user=ann)
    Review.objects.filter(pk=review.pk).update(progressed_at=timezone.now() - timedelta(minutes=5))
    html = page(client, finished)
    assert "Resume the review" in html and "review.js" not in html
    assert client.get(f"/matches/{finished.pk}/review/status").json()["stalled"] is True
    client.post(f"/matches/{finished.pk}/review/start")
    review.refresh_from_db()
    assert review.attempt == 2 and "Resume the review" not in page(client, finished)


def refused(client: Client, match: Match) -> str:
    response = client.get(f"/matches/{match.pk}/review")
    assert response.status_code == 400
    posted = client.post(f"/matches/{match.pk}/review/start")
    assert posted.status_code == 400
    assert not Review.objects.exists()
    return response.content.decode()


def test_a_stranger_is_refused(finished: Match, make_person: Callable[..., User]) -> None:
    html = refused(logged_in(make_person("carl")), finished)
    assert "Only the match&#x27;s players can review it" in html
    assert logged_in(make_person("dora")).get(f"/matches/{finished.pk}/review/status").status_code == 404


def test_a_running_match_is_refused(duel: Match, ann: User) -> None:
    assert "reviewed once it is over" in refused(logged_in(ann), duel)


def test_a_private_match_is_not_found_by_others_and_the_page_needs_a_login(
    ann: User, bob: User, make_person: Callable[..., User]
) -> None:
    private = match_create(
        creator=ann, game_slug="go-fox", options={}, visibility="private",
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=private.pk, user=bob)
    finish_duel(Match.objects.get(pk=private.pk), ann, bob, ann_moves=1)
    assert logged_in(make_person("carl")).get(f"/matches/{private.pk}/review").status_code == 404
    assert Client().get(f"/matches/{private.pk}/review").status_code == 302  # to the login page
    # Bob, who resigned to end it, may review his own moves before he did.
    bobs = Move.objects.filter(match=private, user=bob).count()
    assert bobs > 0 and f"each of your {bobs} decision" in page(logged_in(bob), private)
