"""games/profiles/charts.py: the rating chart as SVG, for no point, one and many, with
its text escaped and its words for screen readers."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from datetime import date

from games.profiles.charts import LEFT, PLOT_HEIGHT, PLOT_WIDTH, TOP, rating_chart

SVG = "{http://www.w3.org/2000/svg}"


def parsed(markup: str) -> ElementTree.Element:
    """The chart as XML: it must be well-formed to parse at all."""
    return ElementTree.fromstring(markup)


def dots(chart: ElementTree.Element) -> list[tuple[float, float, str]]:
    return [
        (float(dot.attrib["cx"]), float(dot.attrib["cy"]), dot.findtext(f"{SVG}title") or "")
        for dot in chart.iter(f"{SVG}circle")
    ]


def texts(chart: ElementTree.Element) -> list[str]:
    return [text.text or "" for text in chart.iter(f"{SVG}text")]


def test_many_points_make_a_line_with_a_dot_each_higher_ratings_higher_up() -> None:
    points = [(date(2026, 1, 3), 0), (date(2026, 1, 4), 120), (date(2026, 2, 1), 97), (date(2026, 3, 9), 310)]
    chart = parsed(rating_chart(points, title="Go Fox! rating", chart_id="rating-go-fox"))
    assert chart.attrib["role"] == "img"
    assert chart.attrib["aria-labelledby"] == "rating-go-fox-title rating-go-fox-desc"
    assert chart.findtext(f"{SVG}title") == "Go Fox! rating"
    assert chart.find(f"{SVG}title").attrib["id"] == "rating-go-fox-title"  # type: ignore[union-attr]
    assert chart.findtext(f"{SVG}desc") == (
        "Go Fox! rating: 4 rated matches from 3 Jan 2026 to 9 Mar 2026. "
        "The rating went from 0 to 310; highest 310, lowest 0."
    )
    drawn = dots(chart)
    assert [title for _, _, title in drawn] == [
        "3 Jan 2026: 0",
        "4 Jan 2026: 120",
        "1 Feb 2026: 97",
        "9 Mar 2026: 310",
    ]
    xs = [x for x, _, _ in drawn]
    assert xs == sorted(xs) and len(set(xs)) == 4
    assert xs[1] - xs[0] == xs[3] - xs[2]  # one step per rated match, whatever the days between
    ys = {title.split(": ")[1]: y for _, y, title in drawn}
    assert ys["310"] < ys["120"] < ys["97"] < ys["0"]  # SVG's y grows downwards
    line = chart.find(f"{SVG}polyline")
    assert line is not None
    assert line.attrib["points"].split() == [f"{x:g},{y:g}" for x, y, _ in drawn]
    # Axis labels: round ratings covering every point, the first and last days, the axes' titles.
    labels = texts(chart)
    ticks = [int(label) for label in labels if label.lstrip("-").isdigit()]
    assert ticks == sorted(ticks) and ticks[0] <= 0 and ticks[-1] >= 310 and 3 <= len(ticks) <= 7
    assert "3 Jan 2026" in labels and "9 Mar 2026" in labels
    assert "Rating" in labels and "Rated matches, oldest to newest" in labels


def test_one_point_is_a_dot_in_the_middle_with_ratings_around_it() -> None:
    chart = parsed(rating_chart([(date(2026, 5, 1), 42)], title="Ka-Blam! rating", chart_id="k"))
    assert chart.find(f"{SVG}polyline") is None
    ((x, y, title),) = dots(chart)
    assert title == "1 May 2026: 42" and x == LEFT + PLOT_WIDTH / 2 and TOP < y < TOP + PLOT_HEIGHT
    ticks = [int(label) for label in texts(chart) if label.isdigit()]
    assert ticks[0] < 42 < ticks[-1]
    assert (
        chart.findtext(f"{SVG}desc")
        == "Ka-Blam! rating: 1 rated match, on 1 May 2026, after which the rating was 42."
    )
    assert texts(chart).count("1 May 2026") == 1


def test_a_flat_line_and_negative_ratings_are_drawn_inside_the_chart() -> None:
    points = [(date(2026, 5, day), -37) for day in range(1, 4)]
    chart = parsed(rating_chart(points, title="t", chart_id="c"))
    ys = {y for _, y, _ in dots(chart)}
    assert len(ys) == 1 and TOP < ys.pop() < TOP + PLOT_HEIGHT
    ticks = [int(label) for label in texts(chart) if label.lstrip("-").isdigit()]
    assert ticks[0] < -37 < ticks[-1]


def test_no_point_draws_an_empty_chart_that_says_so() -> None:
    chart = parsed(rating_chart([], title="Go Fox! rating", chart_id="empty"))
    assert dots(chart) == [] and chart.find(f"{SVG}polyline") is None
    assert "No rated matches yet" in texts(chart)
    assert chart.findtext(f"{SVG}desc") == "Go Fox! rating: no rated matches yet."


def test_every_text_is_escaped() -> None:
    hostile = "</title><script>alert(\"x\")</script> & 'quotes'"
    markup = rating_chart(
        [(date(2026, 1, 1), 5), (date(2026, 1, 2), 6)], title=hostile, chart_id='x" onload="y'
    )
    assert "<script" not in markup and 'onload="y"' not in markup
    chart = parsed(markup)
    assert chart.findtext(f"{SVG}title") == hostile
    assert chart.find(f"{SVG}title").attrib["id"] == 'x" onload="y-title'  # type: ignore[union-attr]
    assert hostile in texts(chart)
    assert all(not name.startswith("on") for element in chart.iter() for name in element.attrib)
