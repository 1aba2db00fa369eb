"""The profile page, ``/players/<username>/``. Thin: one selector reads, the charts are
drawn from its points, one template shows them."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET

from accounts.models import User
from games.profiles import selectors
from games.profiles.charts import ChartPoint, rating_chart
from games.ratings.selectors import PROVISIONAL_BELOW
from games.social.views import profile_part


@dataclass(frozen=True)
class Chart:
    series: selectors.RatingSeries
    svg: SafeString


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """Anyone's profile, bots' too; 404 for an unknown or closed account."""
    player = get_object_or_404(User, username=username, is_active=True)
    viewer = request.user
    assert isinstance(viewer, User | AnonymousUser)
    found = selectors.player_profile(player=player, viewer=viewer)
    return render(
        request,
        "profiles/profile.html",
        {
            "player": player,
            "profile": found,
            "charts": [_chart(series) for series in found.rating_series],
            "established": PROVISIONAL_BELOW,
            "is_mine": viewer.pk == player.pk,
            # Follow, block, challenge; one's own follows and blocks (templates/social/_profile.html).
            "social": profile_part(request, player),
        },
    )


def _chart(series: selectors.RatingSeries) -> Chart:
    # Each point on the day the viewer's clock had when the match ended.
    points = [
        ChartPoint(
            day=timezone.localdate(point.finished_at),
            rating=point.display_after,
            change=point.change,
            provisional=point.is_provisional,
        )
        for point in series.points
    ]
    svg = rating_chart(
        points, title=f"{series.rating.game_name} rating", chart_id=f"rating-{series.rating.game_slug}"
    )
    # charts.py escapes every text it draws.
    return Chart(series=series, svg=mark_safe(svg))
