"""A rating-history chart as inline SVG, drawn on the server: no script, nothing from
elsewhere, readable by a screen reader (its ``<title>`` and ``<desc>``).

Pure Python (no Django; the ratings' pure ``rules`` write a rating as text): points
in, markup out. Every text in the markup is escaped here, so a page may include the
result as it is. The points are spaced evenly, one step per rated match (dates bunch
up: ten matches one evening, then none for a month); the dates of the first and the
last label the horizontal axis. A point while the rating was provisional is a hollow
dot, and its label says so ("1574?").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from html import escape

from games.ratings import rules

WIDTH = 640
HEIGHT = 260
# Room around the plot: the rating labels (left), the title (top), the dates and the
# axis title (bottom).
LEFT, RIGHT, TOP, BOTTOM = 64, 24, 40, 52
PLOT_WIDTH = WIDTH - LEFT - RIGHT
PLOT_HEIGHT = HEIGHT - TOP - BOTTOM
# About this many steps between the rating labels.
TICK_STEPS = 4
# The month names, not strftime's %b, which follows the process's locale.
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True)
class ChartPoint:
    """One rated match: its day, the rating shown after it, what the match changed, and
    whether the rating was still provisional after it."""

    day: date
    rating: int
    change: int
    provisional: bool

    @property
    def shown(self) -> str:
        return rules.shown(self.rating, provisional=self.provisional)


def rating_chart(points: Sequence[ChartPoint], *, title: str, chart_id: str) -> str:
    """An SVG chart of ``points`` (one per rated match, oldest first). ``chart_id`` makes
    the ids of its title and description, which must be unique on the page. No points
    draws an empty chart that says so."""
    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}"'
        f' role="img" aria-labelledby="{_attr(title_id)} {_attr(desc_id)}" font-size="13">',
        f'<title id="{_attr(title_id)}">{_text(title)}</title>',
        f'<desc id="{_attr(desc_id)}">{_text(_description(points, title))}</desc>',
        f'<text class="chart-title" x="{LEFT}" y="{TOP - 16}" font-size="14" font-weight="600">{_text(title)}</text>',
    ]
    values = [point.rating for point in points]
    ticks = _ticks(min(values), max(values)) if values else []
    if ticks:
        parts += _rating_axis(ticks)
    parts.append(
        f'<line class="chart-axis" x1="{LEFT}" y1="{TOP + PLOT_HEIGHT}" x2="{LEFT + PLOT_WIDTH}"'
        f' y2="{TOP + PLOT_HEIGHT}" stroke="#5f5a6e"/>'
    )
    parts.append(
        f'<text class="chart-axis-title" x="{LEFT + PLOT_WIDTH / 2:g}" y="{HEIGHT - 8}"'
        f' text-anchor="middle">Rated matches, oldest to newest</text>'
    )
    if not points:
        parts.append(
            f'<text class="chart-empty" x="{LEFT + PLOT_WIDTH / 2:g}" y="{TOP + PLOT_HEIGHT / 2:g}"'
            f' text-anchor="middle">No rated matches yet</text>'
        )
    else:
        parts += _date_labels(points[0].day, points[-1].day)
        parts += _line_and_dots(points, ticks)
    parts.append("</svg>")
    return "".join(parts)


def _ticks(low: int, high: int) -> list[int]:
    """Round numbers about ``TICK_STEPS`` steps apart (1, 2 or 5 times a power of ten,
    1 at least), from at or below ``low`` to at or above ``high``."""
    if low == high:  # one value (one point, or a flat line): a band around it
        low, high = low - 10, high + 10
    rough = (high - low) / TICK_STEPS
    power = 10 ** math.floor(math.log10(rough))
    step = max(1, round(next(factor * power for factor in (1, 2, 5, 10) if factor * power >= rough)))
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(first, last + 1, step))


def _rating_axis(ticks: list[int]) -> list[str]:
    """A grid line and a label at each tick, and the axis's title."""
    parts = []
    for tick in ticks:
        y = _y(tick, ticks)
        parts.append(
            f'<line class="chart-grid" x1="{LEFT}" y1="{y:g}" x2="{LEFT + PLOT_WIDTH}" y2="{y:g}" stroke="#e4ded3"/>'
        )
        parts.append(f'<text class="chart-tick" x="{LEFT - 8}" y="{y + 4:g}" text-anchor="end">{tick}</text>')
    middle = TOP + PLOT_HEIGHT / 2
    parts.append(
        f'<text class="chart-axis-title" x="{-middle:g}" y="14" transform="rotate(-90)"'
        f' text-anchor="middle">Rating</text>'
    )
    return parts


def _date_labels(first: date, last: date) -> list[str]:
    y = TOP + PLOT_HEIGHT + 18
    if first == last:
        return [
            f'<text class="chart-tick" x="{LEFT + PLOT_WIDTH / 2:g}" y="{y}" text-anchor="middle">{_day(first)}</text>'
        ]
    return [
        f'<text class="chart-tick" x="{LEFT}" y="{y}" text-anchor="start">{_day(first)}</text>',
        f'<text class="chart-tick" x="{LEFT + PLOT_WIDTH}" y="{y}" text-anchor="end">{_day(last)}</text>',
    ]


def _line_and_dots(points: Sequence[ChartPoint], ticks: list[int]) -> list[str]:
    """The line through the points, and a dot at each that names its day, rating and
    change when pointed at (the latest dot larger; a provisional one hollow)."""
    spots = [(_x(index, len(points)), _y(point.rating, ticks)) for index, point in enumerate(points)]
    parts = []
    if len(spots) > 1:
        line = " ".join(f"{x:g},{y:g}" for x, y in spots)
        parts.append(
            f'<polyline class="chart-line" points="{line}" fill="none" stroke="#d6451b" stroke-width="2"/>'
        )
    for index, (point, (x, y)) in enumerate(zip(points, spots, strict=True)):
        is_latest = index == len(points) - 1
        classes = (
            "chart-dot"
            + (" is-latest" if is_latest else "")
            + (" is-provisional" if point.provisional else "")
        )
        paint = 'fill="#fff" stroke="#a93410" stroke-width="1.5"' if point.provisional else 'fill="#a93410"'
        parts.append(
            f'<circle class="{classes}" cx="{x:g}" cy="{y:g}" r="{4.5 if is_latest else 3}" {paint}>'
            f"<title>{_day(point.day)}: {point.shown} ({rules.signed(point.change)})</title></circle>"
        )
    return parts


def _description(points: Sequence[ChartPoint], title: str) -> str:
    """The chart in words, for whoever cannot see it."""
    if not points:
        return f"{title}: no rated matches yet."
    first, last = points[0], points[-1]
    if len(points) == 1:
        return f"{title}: 1 rated match, on {_day(first.day)}, after which the rating was {_words(first)}."
    values = [point.rating for point in points]
    return (
        f"{title}: {len(points)} rated matches from {_day(first.day)} to {_day(last.day)}. "
        f"The rating went from {_words(first)} to {_words(last)}; highest {max(values)}, lowest {min(values)}."
    )


def _words(point: ChartPoint) -> str:
    return f"{point.rating} (provisional)" if point.provisional else str(point.rating)


def _x(index: int, count: int) -> float:
    if count == 1:
        return LEFT + PLOT_WIDTH / 2
    return round(LEFT + PLOT_WIDTH * index / (count - 1), 1)


def _y(value: int, ticks: list[int]) -> float:
    low, high = ticks[0], ticks[-1]
    if high == low:
        return TOP + PLOT_HEIGHT / 2
    return round(TOP + PLOT_HEIGHT * (high - value) / (high - low), 1)


def _day(day: date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def _text(text: str) -> str:
    return escape(text, quote=False)


def _attr(text: str) -> str:
    return escape(text, quote=True)
