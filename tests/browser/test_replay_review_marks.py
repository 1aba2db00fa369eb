"""My post-game review in chromium: the finished match's page links to it, it grades my
decisions (axe-checked, both pages); the replay marks where the expert would have played
differently, a mark under the slider; at that step, its choice beside mine; on the next,
my move's log entries. Someone without a review sees the replay as it was, and no error."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.db import transaction

from accounts.models import User
from games.models import Match
from games.review import grades, services
from games.review.models import Review, ReviewedDecision
from games.services import SeatRequest, match_create, match_join
from tests.browser.axe import serious_findings
from tests.browser.helpers import log_in, off_the_event_loop
from tests.conftest import ensure_bot_accounts, wait_for
from tests.games.review.helpers import ITERATIONS, disagree_then_agree, finish_duel

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@dataclass(frozen=True)
class Reviewed:
    match: Match
    ann: User
    bob: User
    disagreement: ReviewedDecision  # Ann's one decision the expert would have made otherwise


def a_reviewed_duel() -> Reviewed:
    """A Go Fox! duel that Ann played the expert's way but once, then her review of it,
    asked for as a person asks and worked out by the site's Celery worker."""
    ensure_bot_accounts()
    ann = User.objects.create_user(username="ann", password="pw-ann-1234", display_name="Ann")
    bob = User.objects.create_user(username="bob", password="pw-bob-1234", display_name="Bob")
    created = match_create(
        creator=ann, game_slug="go-fox", options={},
        seats=[SeatRequest("me"), SeatRequest("invite", username="bob")],
    )  # fmt: skip
    match_join(match_id=created.pk, user=bob)
    duel = Match.objects.get(pk=created.pk)
    match = finish_duel(duel, ann, bob, ann_moves=3, ann_plays=disagree_then_agree(duel))
    with transaction.atomic():  # the tests' small budget, set before the commit queues the work
        review = services.review_request(match_id=match.pk, user=ann)
        Review.objects.filter(pk=review.pk).update(iterations=ITERATIONS)
    wait_for(
        lambda: Review.objects.filter(pk=review.pk, finished_at__isnull=False).exists(),
        timeout=60, interval=0.1, what="the worker to finish Ann's review",
    )  # fmt: skip
    [disagreement] = ReviewedDecision.objects.filter(review=review, agrees=False)
    return Reviewed(match=match, ann=ann, bob=bob, disagreement=disagreement)


def disagreement_cost(decision: ReviewedDecision) -> str:
    """The cost in the page's words: a duel reads as a chance to win."""
    return grades.Scale.for_table(2, cooperative=False).cost(decision.cost)


def watched(page: Any) -> list[str]:
    """The page's script errors, and every error its console shows (a 404 answer too:
    "Failed to load resource", which people auditing the site see as a fault)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


def at_step(page: Any, step: int) -> None:
    page.wait_for_function(f"() => document.getElementById('replay-frame').dataset.step === '{step}'")


def test_my_review_marks_the_replay_where_the_expert_disagreed(live_site: str, browser: Any) -> None:
    reviewed = off_the_event_loop(a_reviewed_duel)
    match, disagreement = reviewed.match, reviewed.disagreement
    marked = disagreement.ply  # the replay's step of the decision: the board just before the move
    # Start on a step that is neither the decision nor the one after it.
    start = 0 if marked >= 2 else match.ply
    context = browser.new_context()
    log_in(context, live_site, reviewed.ann)
    # The finished match's page links to my review; the review grades each decision and
    # lists the costliest first (none here, or the disagreement), each linked to its step.
    # (Its own tab: axe's injected styles are refused by the CSP, errors the replay's
    # console check below must not see.)
    review_tab = context.new_page()
    review_tab.goto(f"{live_site}/matches/{match.pk}/")
    assert serious_findings(review_tab, within="#match-header-live") == []  # the part the link is in
    review_tab.get_by_role("link", name="See your review").click()
    review_tab.wait_for_selector("#review-decisions")
    assert review_tab.url.endswith(f"/matches/{match.pk}/review")
    grade = review_tab.inner_text(f"#step-{marked} .review-grade")
    costly = disagreement.grade.is_costly
    assert grade == disagreement.grade.word + (f": {disagreement_cost(disagreement)}" if costly else "")
    assert review_tab.get_by_role("heading", name="Your costliest moments").is_visible()
    assert serious_findings(review_tab) == []
    review_tab.close()

    page = context.new_page()
    errors = watched(page)
    page.goto(f"{live_site}/matches/{match.pk}/replay?step={start}")

    # A mark under the slider, its step in text and its meaning in words.
    page.wait_for_selector(".replay-marks a.replay-mark")
    marks = page.locator(".replay-marks a.replay-mark")
    assert marks.count() == 1
    mark = marks.first
    assert mark.inner_text().strip().endswith(str(marked))
    assert mark.get_attribute("aria-label") == (
        f"Step {marked}: the expert would have played {disagreement.expert_label}"
    )
    assert page.get_by_role("list", name="Steps where the expert would have played differently").is_visible()
    assert "Steps where the expert would have played differently" in page.inner_text(".replay-review-legend")
    assert page.get_attribute("#replay-slider", "list") == "replay-review-steps"
    assert page.locator("#replay-review-steps option").evaluate_all(
        "options => options.map(o => o.value)"
    ) == [str(marked)]
    assert page.locator("#replay-review-note").count() == 0

    # Following the mark steps there, where the expert's choice stands beside mine.
    mark.click()
    at_step(page, marked)
    assert f"step={marked}" in page.url
    note = page.locator("#replay-review-note")
    note.wait_for()
    words = note.inner_text()
    assert f"you played {disagreement.played_label}." in words
    assert f"The expert would have played: {disagreement.expert_label}" in words
    assert page.locator(".replay-mark[aria-current='step']").count() == 1

    # The next step shows my move in the log, marked with the expert's choice.
    page.keyboard.press("ArrowRight")
    at_step(page, marked + 1)
    page.wait_for_selector(".replay-log li.is-disagreement")
    assert (
        page.locator(".replay-log li.is-disagreement").count()
        == page.locator(".replay-log li.is-current").count()
    )
    assert f"The expert would have played: {disagreement.expert_label}" in page.inner_text(".replay-log")
    assert page.locator("#replay-review-note").count() == 0
    assert page.locator(".replay-mark[aria-current='step']").count() == 0

    # Through another pair of eyes the marks are the same steps.
    page.select_option("#replay-eyes", "all")
    page.wait_for_function("() => document.getElementById('replay-frame').dataset.eyes === 'all'")
    page.wait_for_selector(".replay-marks a.replay-mark")
    assert page.get_attribute(".replay-marks a.replay-mark", "href") == f"?step={marked}&eyes=all"
    assert errors == []
    context.close()


def test_someone_without_a_review_sees_the_replay_without_marks_or_errors(
    live_site: str, browser: Any
) -> None:
    reviewed = off_the_event_loop(a_reviewed_duel)  # Ann's review; Bob asked for none
    match = reviewed.match
    context = browser.new_context()
    log_in(context, live_site, reviewed.bob)
    page = context.new_page()
    errors = watched(page)
    with page.expect_response(lambda response: response.url.endswith("/review.json")) as asked:
        page.goto(f"{live_site}/matches/{match.pk}/replay?step={reviewed.disagreement.ply}")
    assert asked.value.status == 200 and asked.value.json() == {"requested": False}  # no error to log
    # The replay steps as ever; no mark, no note, no marked entry, on either step.
    page.click("#replay-forward")
    at_step(page, reviewed.disagreement.ply + 1)
    for marked in (".replay-review", ".replay-mark", "#replay-review-note", ".replay-log li.is-disagreement"):
        assert page.locator(marked).count() == 0
    assert page.get_attribute("#replay-slider", "list") is None
    assert errors == []

    # A visitor's page does not ask at all.
    visitor = browser.new_context().new_page()
    asked_for: list[str] = []
    visitor.on("request", lambda request: asked_for.append(request.url))
    visitor.goto(f"{live_site}/matches/{match.pk}/replay")
    visitor.click("#replay-back")
    at_step(visitor, match.ply - 1)
    assert (
        not [url for url in asked_for if "review" in url] and visitor.locator(".replay-review").count() == 0
    )
    visitor.context.close()
    context.close()
