"""A rating-history chart as inline SVG, drawn on the server: no script, nothing from
elsewhere, readable by a screen reader (its ``<title>`` and ``<desc>``).

Pure Python (no Django): points in, markup out. Every text in the markup is escaped
here, so a page may include the result as it is. The points are spaced evenly, one
step per rated match (dates bunch up: ten matches one evening, then none for a month);
the dates of the first and the last label the horizontal axis.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date
from html import escape

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


def rating_chart(points: Sequence[tuple[date, int]], *, title: str, chart_id: str) -> str:
    """An SVG chart of ``points`` (the day of each rated match, oldest first, and the
    rating after it). ``chart_id`` makes the ids of its title and description, which
    must be unique on the page. No points draws an empty chart that says so."""
    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}"'
        f' role="img" aria-labelledby="{_attr(title_id)} {_attr(desc_id)}" font-size="13">',
        f'<title id="{_attr(title_id)}">{_text(title)}</title>',
        f'<desc id="{_attr(desc_id)}">{_text(_description(points, title))}</desc>',
        f'<text class="chart-title" x="{LEFT}" y="{TOP - 16}" font-size="14" font-weight="600">{_text(title)}</text>',
    ]
    values = [value for _, value in points]
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
        parts += _date_labels(points[0][0], points[-1][0])
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


def _line_and_dots(points: Sequence[tuple[date, int]], ticks: list[int]) -> list[str]:
    """The line through the points, and a dot at each that names its day and rating
    when pointed at (the latest dot larger)."""
    spots = [(_x(index, len(points)), _y(value, ticks)) for index, (_, value) in enumerate(points)]
    parts = []
    if len(spots) > 1:
        line = " ".join(f"{x:g},{y:g}" for x, y in spots)
        parts.append(
            f'<polyline class="chart-line" points="{line}" fill="none" stroke="#d6451b" stroke-width="2"/>'
        )
    for index, ((day, value), (x, y)) in enumerate(zip(points, spots, strict=True)):
        is_latest = index == len(points) - 1
        parts.append(
            f'<circle class="chart-dot{" is-latest" if is_latest else ""}" cx="{x:g}" cy="{y:g}"'
            f' r="{4.5 if is_latest else 3}" fill="#a93410">'
            f"<title>{_day(day)}: {value}</title></circle>"
        )
    return parts


def _description(points: Sequence[tuple[date, int]], title: str) -> str:
    """The chart in words, for whoever cannot see it."""
    if not points:
        return f"{title}: no rated matches yet."
    values = [value for _, value in points]
    if len(points) == 1:
        return f"{title}: 1 rated match, on {_day(points[0][0])}, after which the rating was {values[0]}."
    return (
        f"{title}: {len(points)} rated matches from {_day(points[0][0])} to {_day(points[-1][0])}. "
        f"The rating went from {values[0]} to {values[-1]}; highest {max(values)}, lowest {min(values)}."
    )


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
