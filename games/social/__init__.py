"""Friends, challenges and blocks (docs/site.md, "Friends, challenges and blocks").

A person follows others (``Follow``) to see who of them is online and how their last
public matches went (the home page's sections, ``links.py``); challenges a player
from their profile (a private match of two, the challenger seated and the other
invited: ``services.challenge``, answered as any invitation is); and blocks a person
(``Block``): no invitation, challenge or follow between the two, and neither sees the
other's chat lines. The core honours blocks through ``settings.BLOCKS``
(``games/blocks.py``), which lists ``selectors.blocked_with``; it never imports this
package. Profiles, above it, show its buttons and lists.
"""
