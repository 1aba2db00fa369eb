"""The single-elimination bracket's drawing, on the server: where each table's box goes,
and the SVG of the lines from each table to the one its advancers go to.

Pure Python (no Django), as ``games/profiles/charts.py``: positions in, numbers and
markup out. The page places the boxes (HTML, so that their links and names are read as
text) by style attributes and lays the lines beneath them, so the bracket needs no
JavaScript. Each column is a round; a table sits level with the middle of the tables
that feed it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

BOX_WIDTH = 220
COLUMN_GAP = 44
BOX_HEADER = 28
ROW_HEIGHT = 26
BOX_GAP = 14
TOP_MARGIN = 36  # the columns' headings


@dataclass(frozen=True)
class Slot:
    """A table of the bracket, as the drawing needs it: its column (0 = round 1), its row
    in the column, and the row of the table it feeds in the next column (None: the final)."""

    column: int
    position: int
    feeds: int | None


@dataclass(frozen=True)
class Box:
    left: int
    top: int
    height: int


@dataclass(frozen=True)
class Drawing:
    headings: list[tuple[str, int]]  # each column's heading ("Round 1", ..., "Final") and its left edge
    boxes: dict[tuple[int, int], Box]  # by (column, position)
    lines_svg: str  # the lines, an <svg> hidden from screen readers (the boxes say it all in words)
    width: int
    height: int


def draw(columns: Sequence[Sequence[Slot]], *, seats: int, decided: Collection[tuple[int, int]]) -> Drawing:
    """The bracket's boxes and lines. ``seats``: the rows a box holds (the largest table);
    ``decided``: the (column, position) of the tables whose advancers are known, whose
    lines are drawn darker."""
    height = BOX_HEADER + max(seats, 1) * ROW_HEIGHT
    centres: dict[tuple[int, int], float] = {}
    boxes: dict[tuple[int, int], Box] = {}
    for column_index, column in enumerate(columns):
        fed_by: dict[int, list[float]] = defaultdict(list)
        if column_index:
            for feeder in columns[column_index - 1]:
                if feeder.feeds is not None:
                    fed_by[feeder.feeds].append(centres[(column_index - 1, feeder.position)])
        for stacked, slot in enumerate(sorted(column, key=lambda slot: slot.position)):
            sources = fed_by.get(slot.position)
            centre = (
                sum(sources) / len(sources)
                if sources
                else TOP_MARGIN + stacked * (height + BOX_GAP) + height / 2
            )
            centres[(column_index, slot.position)] = centre
            boxes[(column_index, slot.position)] = Box(
                _left(column_index), round(centre - height / 2), height
            )
    paths: list[tuple[str, bool]] = []
    for column_index, column in enumerate(columns[:-1]):
        for slot in column:
            if slot.feeds is None or (column_index + 1, slot.feeds) not in centres:
                continue
            start_x = _left(column_index) + BOX_WIDTH
            start_y = round(centres[(column_index, slot.position)])
            end_y = round(centres[(column_index + 1, slot.feeds)])
            middle_x = start_x + COLUMN_GAP // 2
            path = f"M{start_x} {start_y}H{middle_x}V{end_y}H{start_x + COLUMN_GAP}"
            paths.append((path, (column_index, slot.position) in decided))
    last = len(columns)
    width = max(last * (BOX_WIDTH + COLUMN_GAP) - COLUMN_GAP, BOX_WIDTH)
    bottom = max((box.top + box.height for box in boxes.values()), default=TOP_MARGIN) + BOX_GAP
    headings = [
        "Final" if number == last and last > 1 else f"Round {number}" for number in range(1, last + 1)
    ]
    return Drawing(
        headings=[(heading, _left(index)) for index, heading in enumerate(headings)],
        boxes=boxes,
        lines_svg=_lines_svg(paths, width, bottom),
        width=width,
        height=bottom,
    )


def _left(column: int) -> int:
    return column * (BOX_WIDTH + COLUMN_GAP)


def _lines_svg(paths: Sequence[tuple[str, bool]], width: int, height: int) -> str:
    """Numbers and fixed words only: nothing here comes from a person, so nothing to escape."""
    lines = "".join(
        f'<path d="{path}" class="{"decided" if is_decided else "open"}"/>' for path, is_decided in paths
    )
    return (
        f'<svg class="bracket-lines" width="{width}" height="{height}" viewBox="0 0 {width} {height}"'
        f' aria-hidden="true" focusable="false">{lines}</svg>'
    )
