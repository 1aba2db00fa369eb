"""The ratings in the admin: readable, never written there (only the services write them)."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.ratings.models import Rating, RatingChange
from games.ratings.services import match_rate
from tests.games.helpers import logged_in
from tests.games.ratings.helpers import START, finished_match

pytestmark = pytest.mark.django_db


def test_a_superuser_reads_ratings_and_their_changes_and_cannot_change_them(ann: User, bob: User) -> None:
    match_rate(match_id=finished_match("go-fox", [(ann, 1), (bob, 2)], START).pk)
    admin = logged_in(User.objects.create_superuser(username="root", email="root@example.com", password="x"))
    rating, change = Rating.objects.get(user=ann), RatingChange.objects.get(user=ann)
    for model, row in (("rating", rating), ("ratingchange", change)):
        listing = admin.get(f"/admin/ratings/{model}/")
        assert listing.status_code == 200 and "Ann" in listing.content.decode()
        assert admin.get(f"/admin/ratings/{model}/add/").status_code == 403
        page = admin.get(f"/admin/ratings/{model}/{row.pk}/change/")
        assert page.status_code == 200 and 'name="_save"' not in page.content.decode()
        assert admin.post(f"/admin/ratings/{model}/{row.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Rating.objects.get(pk=rating.pk).mu == rating.mu and RatingChange.objects.count() == 2
    # The rating as the site shows it, beside the stored numbers.
    assert '<td class="field-shown">1574?</td>' in admin.get("/admin/ratings/rating/").content.decode()
