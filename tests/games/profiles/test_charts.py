"""games/profiles/charts.py: the rating chart as SVG, for no point, one and many, with
its text escaped, its words for screen readers, and provisional points marked."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from datetime import date

from games.profiles.charts import LEFT, PLOT_HEIGHT, PLOT_WIDTH, TOP, ChartPoint, rating_chart

SVG = "{http://www.w3.org/2000/svg}"


def parsed(markup: str) -> ElementTree.Element:
    """The chart as XML: it must be well-formed to parse at all."""
    return ElementTree.fromstring(markup)


def dots(chart: ElementTree.Element) -> list[tuple[float, float, str]]:
    return [
        (float(dot.attrib["cx"]), float(dot.attrib["cy"]), dot.findtext(f"{SVG}title") or "")
        for dot in chart.iter(f"{SVG}circle")
    ]


def rating_in(title: str) -> int:
    """The rating a dot's title names ("3 Jan 2026: 1426? (+74)" names 1426)."""
    return int(title.split(": ")[1].split()[0].rstrip("?"))


def texts(chart: ElementTree.Element) -> list[str]:
    return [text.text or "" for text in chart.iter(f"{SVG}text")]


def test_many_points_make_a_line_with_a_dot_each_higher_ratings_higher_up() -> None:
    points = [
        ChartPoint(date(2026, 1, 3), 1426, -74, provisional=True),
        ChartPoint(date(2026, 1, 4), 1546, 120, provisional=True),
        ChartPoint(date(2026, 2, 1), 1523, -23, provisional=True),
        ChartPoint(date(2026, 3, 9), 1736, 213, provisional=False),
    ]
    chart = parsed(rating_chart(points, title="Go Fox! rating", chart_id="rating-go-fox"))
    assert chart.attrib["role"] == "img"
    assert chart.attrib["aria-labelledby"] == "rating-go-fox-title rating-go-fox-desc"
    assert chart.findtext(f"{SVG}title") == "Go Fox! rating"
    assert chart.find(f"{SVG}title").attrib["id"] == "rating-go-fox-title"  # type: ignore[union-attr]
    assert chart.findtext(f"{SVG}desc") == (
        "Go Fox! rating: 4 rated matches from 3 Jan 2026 to 9 Mar 2026. "
        "The rating went from 1426 (provisional) to 1736; highest 1736, lowest 1426."
    )
    drawn = dots(chart)
    assert [title for _, _, title in drawn] == [
        "3 Jan 2026: 1426? (\u221274)",
        "4 Jan 2026: 1546? (+120)",
        "1 Feb 2026: 1523? (\u221223)",
        "9 Mar 2026: 1736 (+213)",
    ]
    # While provisional, a hollow dot.
    circles = list(chart.iter(f"{SVG}circle"))
    assert ["is-provisional" in circle.attrib["class"] for circle in circles] == [True, True, True, False]
    assert [circle.attrib["fill"] for circle in circles] == ["#fff", "#fff", "#fff", "#a93410"]
    xs = [x for x, _, _ in drawn]
    assert xs == sorted(xs) and len(set(xs)) == 4
    assert xs[1] - xs[0] == xs[3] - xs[2]  # one step per rated match, whatever the days between
    ys = {rating_in(title): y for _, y, title in drawn}
    assert ys[1736] < ys[1546] < ys[1523] < ys[1426]  # SVG's y grows downwards
    line = chart.find(f"{SVG}polyline")
    assert line is not None
    assert line.attrib["points"].split() == [f"{x:g},{y:g}" for x, y, _ in drawn]
    # Axis labels: round ratings covering every point, the first and last days, the axes' titles.
    labels = texts(chart)
    ticks = [int(label) for label in labels if label.lstrip("-").isdigit()]
    assert ticks == sorted(ticks) and ticks[0] <= 1426 and ticks[-1] >= 1736 and 3 <= len(ticks) <= 7
    assert "3 Jan 2026" in labels and "9 Mar 2026" in labels
    assert "Rating" in labels and "Rated matches, oldest to newest" in labels


def test_one_point_is_a_dot_in_the_middle_with_ratings_around_it() -> None:
    point = ChartPoint(date(2026, 5, 1), 1574, 74, provisional=True)
    chart = parsed(rating_chart([point], title="Ka-Blam! rating", chart_id="k"))
    assert chart.find(f"{SVG}polyline") is None
    ((x, y, title),) = dots(chart)
    assert title == "1 May 2026: 1574? (+74)" and x == LEFT + PLOT_WIDTH / 2 and TOP < y < TOP + PLOT_HEIGHT
    ticks = [int(label) for label in texts(chart) if label.isdigit()]
    assert ticks[0] < 1574 < ticks[-1]
    assert (
        chart.findtext(f"{SVG}desc")
        == "Ka-Blam! rating: 1 rated match, on 1 May 2026, after which the rating was 1574 (provisional)."
    )
    assert texts(chart).count("1 May 2026") == 1


def test_a_flat_line_at_the_floor_is_drawn_inside_the_chart() -> None:
    points = [ChartPoint(date(2026, 5, day), 100, 0, provisional=False) for day in range(1, 4)]
    chart = parsed(rating_chart(points, title="t", chart_id="c"))
    ys = {y for _, y, _ in dots(chart)}
    assert len(ys) == 1 and TOP < ys.pop() < TOP + PLOT_HEIGHT
    assert dots(chart)[0][2] == "1 May 2026: 100 (\u00b10)"
    ticks = [int(label) for label in texts(chart) if label.lstrip("-").isdigit()]
    assert ticks[0] < 100 < ticks[-1]


def test_no_point_draws_an_empty_chart_that_says_so() -> None:
    chart = parsed(rating_chart([], title="Go Fox! rating", chart_id="empty"))
    assert dots(chart) == [] and chart.find(f"{SVG}polyline") is None
    assert "No rated matches yet" in texts(chart)
    assert chart.findtext(f"{SVG}desc") == "Go Fox! rating: no rated matches yet."


def test_every_text_is_escaped() -> None:
    hostile = "</title><script>alert(\"x\")</script> & 'quotes'"
    markup = rating_chart(
        [ChartPoint(date(2026, 1, day), 1500 + day, day, provisional=True) for day in (1, 2)],
        title=hostile,
        chart_id='x" onload="y',
    )
    assert "<script" not in markup and 'onload="y"' not in markup
    chart = parsed(markup)
    assert chart.findtext(f"{SVG}title") == hostile
    assert chart.find(f"{SVG}title").attrib["id"] == 'x" onload="y-title'  # type: ignore[union-attr]
    assert hostile in texts(chart)
    assert all(not name.startswith("on") for element in chart.iter() for name in element.attrib)
