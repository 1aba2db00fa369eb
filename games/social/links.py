"""What friends offer the core's pages (``games/feature_links.py``, listed in settings):
the home page's "Friends online" and "Friends' recent results", for a signed-in person
who follows someone. Each is a fixed number of queries (``selectors``)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import timezone
from django.utils.timesince import timesince

from accounts.models import User
from games.feature_links import FeatureLink, FeatureSection
from games.social import selectors


def friends_online_section(user: User | AnonymousUser) -> FeatureSection | None:
    """The people ``user`` follows who are on the site now, each a link to challenge
    them; None when none is (or for a visitor)."""
    people = selectors.friends_online(user)
    if not people:
        return None
    return FeatureSection(
        title="Friends online",
        id="friends-online",
        links=[
            FeatureLink(
                text=f"Challenge {person.public_name}",
                url=reverse("social:challenge", args=[person.username]),
                hint="online now",
            )
            for person in people
        ],
        more=_following_link(user),
    )


def friends_results_section(user: User | AnonymousUser) -> FeatureSection | None:
    """The latest public results of the people ``user`` follows ("Bob won Go Fox! #12"),
    each a link to its match; None when there is none."""
    results = selectors.friends_results(user)
    if not results:
        return None
    now = timezone.now()
    return FeatureSection(
        title="Friends' recent results",
        id="friends-results",
        links=[
            FeatureLink(
                text=f"{_in_words(result.friends)} · {result.match.game_name} #{result.match.pk}",
                url=reverse("match", args=[result.match.pk]),
                hint=(f"with {', '.join(result.others)} · " if result.others else "")
                + f"{timesince(result.finished_at, now, depth=1)} ago",
            )
            for result in results
        ],
    )


def _in_words(friends: list[tuple[str, str]]) -> str:
    return ", ".join(f"{name} {how}" for name, how in friends)


def _following_link(user: User | AnonymousUser) -> FeatureLink | None:
    if not isinstance(user, User):
        return None
    return FeatureLink(
        text="Everyone you follow", url=f"{reverse('profile', args=[user.username])}#following"
    )
