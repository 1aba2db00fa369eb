"""Who follows whom, and who blocked whom. Writes go through ``services``; other
features read these through ``selectors`` (an import contract says so)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Follow(models.Model):
    """``follower`` follows ``followed``: sees whether they are online and their latest
    public results. One-sided: nobody is asked, and the followed person is not told."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")), name="no_self_follow"),
        ]
        # "Who follows me" is never asked; "whom do I follow" is the unique key's prefix.

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: no invitation, challenge or follow between the two
    either way, and neither sees the other's chat lines (``games/blocks.py``). Only the
    blocker may lift it."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="no_self_block"),
        ]
        # Blocks are read both ways (``selectors.blocked_with``): the other side needs its own index.
        indexes = [models.Index(fields=["blocked"], name="block_by_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocked {self.blocked_id}"
