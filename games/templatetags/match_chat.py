"""The match page's chat box: ``{% chat_is_closed access as closed %}``.

The page shows why a silenced seat cannot write instead of a box that refuses every
message; the rule is ``games.live.fragments.chat_closed`` (the game's own).
"""

from __future__ import annotations

from django import template

from games.live.fragments import chat_closed
from games.selectors import Access

register = template.Library()


@register.simple_tag
def chat_is_closed(access: Access) -> bool:
    return chat_closed(access)
