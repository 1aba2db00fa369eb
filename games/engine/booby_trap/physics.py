"""The tray as a 2D rigid-body simulation (pymunk 7.3.1, i.e. Chipmunk2D).

Seen from above: the far wall is the line ``y = 0``, the side walls are ``x = 0``
and ``x = TRAY_WIDTH``, and the spring bar is a straight edge across the tray that
can only slide along ``y``; its spring pushes it toward the far wall. Pieces are
discs. There is no gravity in the plane of the board: the board's friction under
the pieces is modelled as viscous damping, and "at rest" is a speed threshold.

Units: inches, seconds, and a mass unit in which one square inch of piece weighs 1
(only ratios of forces matter: loads are reported as fractions of the bar's push).

Determinism: every simulation starts from plain floats (a state's stored
positions), adds bodies and shapes in one fixed order and steps a fixed time step
for at most a fixed budget of steps, so the same inputs give bit-identical floats
in any process with the pinned pymunk. Results are rounded (``POSITION_DECIMALS``,
``LOAD_DECIMALS``) before they go into a state, and the next simulation starts
from exactly those rounded values, so a state never depends on anything but
itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from statistics import NormalDist

import pymunk
import pymunk.batch

from games.engine.rng import Rng

# -- The constants: every physical number of the game, with why it has its value --

TRAY_WIDTH = 6.0  # inches, the rules' ruling
LOADING_LENGTH = 14.0  # inches between the far wall and the pulled-back bar (ruling)
MARKING = 0.25  # the side scale's markings: a trip is one marking of bar travel
# (radius, count) for small, medium, large: the rules' ruling (not tuned).
PIECE_SIZES: tuple[tuple[float, int], ...] = ((0.40, 12), (0.55, 12), (0.75, 8))
RADIUS_JITTER = 0.02  # hidden make-up: each radius within +-2% of nominal (ruling)


@dataclass(frozen=True, slots=True)
class Physics:
    """The tunable constants (see bench/booby_trap.py for the figures they give)."""

    # Friction between pieces (and with the walls and the bar). High, like moulded
    # plastic with a rim: friction is what lets arches stand and leaves pieces
    # loose behind them. At 0.6 the pack flows denser (fewer loose pieces); at 1.1
    # and above arches lock before the pack is even pushed together.
    friction: float = 0.8
    # Each piece's hidden friction is the nominal times (1 +- this): enough that a
    # public picture cannot be re-simulated exactly, not enough to change the feel.
    friction_spread: float = 0.15
    # Board friction as damping: the fraction of its velocity a body keeps after
    # one second. Strong (a disc slides a short way on a board), so a collapse
    # stops within a second or two of simulated time.
    board_damping: float = 0.05
    # The spring: a long spring anchored far behind the far wall, so its push
    # changes little over the bar's travel (at rest about 80% of the loading push,
    # ~110 units against ~32 units of pieces). Only the ratio of push to damping
    # matters for the statics; this one makes a collapse take ~1 s, not ~10 s.
    spring_stiffness: float = 4.0
    spring_anchor_y: float = -20.0
    # The spring's own damping (force per inch/s of bar speed): keeps the bar from
    # ringing after a collapse without stopping it from following the pack.
    spring_damping: float = 4.0
    # The bar's mass (about half of all the pieces together): it carries momentum
    # into the pack when an arch gives way, as a real bar does. A light bar (2)
    # stops at the first new arch and trips the bar a few points less often.
    bar_mass: float = 15.0
    # Fixed time step (s) and solver iterations: 1/120 s with 12 iterations holds
    # arches as well as 1/240 s with 20 did in tuning, at a third of the cost.
    time_step: float = 1.0 / 120.0
    solver_iterations: int = 12
    # Allowed overlap between discs (inches): small next to a 1/4-inch marking, but
    # not zero, which would make resting contacts jitter.
    collision_slop: float = 0.005
    # "At rest": every body slower than this (inches/s) for rest_window steps in a
    # row (1/6 s). A creeping pack moves faster than this, so creep is not "rest".
    rest_speed: float = 0.01
    rest_window: int = 20
    # Step budgets: a take's settle (20 s simulated), and the first release from
    # the loading area (50 s; the bar travels about 6.5 inches). A settle that hits
    # its budget is measured where it stands; the benchmark's slowest settles use
    # under a third of them.
    take_budget: int = 2400
    release_budget: int = 6000

    # -- The fingertip (what a touch reads) --
    # A reading is the piece's load plus a fingertip error of this many bar-pushes
    # times one standard normal draw (one draw per piece per arrangement, stored).
    # About a tenth of the push: a loose piece can feel a little snug and a lightly
    # loaded one loose, but a piece in a main arch never feels loose.
    reading_noise: float = 0.08
    # The reading that fills the 0-10 gauge, in bar-pushes: a piece in the main
    # arch carries about one push.
    gauge_full_scale: float = 1.0
    # Gauge 0..loose_up_to reads "loose", tight_from..10 reads "tight", between
    # them "snug".
    loose_up_to: int = 1
    tight_from: int = 5
    # "Almost no load" (the benchmark's loose pieces), in bar-pushes.
    almost_no_load: float = 0.05


PHYSICS = Physics()

POSITION_DECIMALS = 5  # 1/100000 inch: far below anything the game measures
LOAD_DECIMALS = 4  # loads as fractions of the bar's push


# -- What the simulation takes and gives -------------------------------------


@dataclass(frozen=True, slots=True)
class Disc:
    """One piece as the simulation sees it (true radius and friction)."""

    x: float
    y: float
    radius: float
    friction: float


@dataclass(frozen=True, slots=True)
class Settled:
    """The tray at rest: rounded positions, bar position and each disc's load."""

    positions: tuple[tuple[float, float], ...]
    bar_y: float
    # Half the sum of the contact-force magnitudes on each disc, as a fraction of
    # the bar's push: a disc in a straight force chain carries its force once.
    loads: tuple[float, ...]
    steps: int


@dataclass(frozen=True, slots=True)
class TakeOutcome:
    travel: float  # how far the bar moved toward the far wall (inches)
    # Per disc, how far from where an even squeeze of the pack by the bar's travel
    # would have put it the settle left it (0.0 for the taken disc and absent ones):
    # riding along with the bar is not being knocked out of place.
    dislodged: tuple[float, ...]
    settled: Settled  # indexes as in the input; absent discs keep their entries


@dataclass(frozen=True, slots=True)
class Contact:
    """One contact of the force network (``a``/``b``: disc index, "bar" or "wall")."""

    a: int | str
    b: int | str
    x: float
    y: float
    force: float  # as a fraction of the bar's push


# -- Touch readings -------------------------------------------------------------

_STANDARD_NORMAL = NormalDist()


def noise_draw(rng: Rng) -> float:
    """One standard normal draw for a piece's fingertip error (inverse CDF: pure Python)."""
    uniform = ((rng.next64() >> 11) + 0.5) / (1 << 53)
    return round(_STANDARD_NORMAL.inv_cdf(uniform), LOAD_DECIMALS)


def gauge(load: float, noise: float, physics: Physics = PHYSICS) -> int:
    """The 0-10 gauge a touch shows for a piece with this load and noise draw."""
    reading = max(0.0, load + physics.reading_noise * noise)
    return min(10, round(10 * reading / physics.gauge_full_scale))


def feel(gauge_value: int, physics: Physics = PHYSICS) -> str:
    if gauge_value <= physics.loose_up_to:
        return "loose"
    if gauge_value >= physics.tight_from:
        return "tight"
    return "snug"


# -- Setting up ----------------------------------------------------------------


def random_make_up(rng: Rng, physics: Physics = PHYSICS) -> tuple[tuple[int, Disc], ...]:
    """Seeded (size index, disc) pairs in the loading area, largest first so that
    placement always succeeds.

    Each disc draws its hidden radius (within RADIUS_JITTER of nominal) and
    friction, then a free spot: random tries first, then (never needed in
    practice: the discs cover under 40% of the area) the first free spot of a fine
    scan, so that placement cannot fail.
    """
    made: list[tuple[int, Disc]] = []
    placed: list[Disc] = []
    for size in sorted(range(len(PIECE_SIZES)), key=lambda index: -PIECE_SIZES[index][0]):
        nominal, count = PIECE_SIZES[size]
        for _ in range(count):
            radius = round(nominal * (1.0 + RADIUS_JITTER * (2.0 * rng.random() - 1.0)), POSITION_DECIMALS)
            friction = round(
                physics.friction * (1.0 + physics.friction_spread * (2.0 * rng.random() - 1.0)), LOAD_DECIMALS
            )
            x, y = _free_spot(rng, radius, placed)
            disc = Disc(round(x, POSITION_DECIMALS), round(y, POSITION_DECIMALS), radius, friction)
            placed.append(disc)
            made.append((size, disc))
    return tuple(made)


def _is_free(x: float, y: float, radius: float, discs: Sequence[Disc]) -> bool:
    gap = 0.01  # placed discs do not touch, so the release starts without overlaps
    return all((x - disc.x) ** 2 + (y - disc.y) ** 2 >= (radius + disc.radius + gap) ** 2 for disc in discs)


def _free_spot(rng: Rng, radius: float, discs: Sequence[Disc]) -> tuple[float, float]:
    margin = radius + 0.01
    for _ in range(2000):
        x = margin + rng.random() * (TRAY_WIDTH - 2 * margin)
        y = margin + rng.random() * (LOADING_LENGTH - 2 * margin)
        if _is_free(x, y, radius, discs):
            return x, y
    steps = 200
    for row in range(steps + 1):
        for column in range(steps + 1):
            x = margin + (TRAY_WIDTH - 2 * margin) * column / steps
            y = margin + (LOADING_LENGTH - 2 * margin) * row / steps
            if _is_free(x, y, radius, discs):
                return x, y
    raise RuntimeError("no room left in the loading area")  # unreachable with the ruled sizes


# -- Simulation --------------------------------------------------------------

_WALL_GROUP = 1  # walls and bar never collide with each other
_WALL_THICKNESS = 0.1


class _Tray:
    """A pymunk space built from plain floats, always in the same order."""

    def __init__(self, discs: Sequence[Disc], bar_y: float, physics: Physics) -> None:
        self.physics = physics
        space = pymunk.Space()
        space.iterations = physics.solver_iterations
        space.damping = physics.board_damping
        space.collision_slop = physics.collision_slop
        static = space.static_body
        half = _WALL_THICKNESS / 2
        far_end = LOADING_LENGTH + 10.0
        walls = (
            pymunk.Segment(static, (-1.0, -half), (TRAY_WIDTH + 1.0, -half), half),
            pymunk.Segment(static, (-half, -1.0), (-half, far_end), half),
            pymunk.Segment(static, (TRAY_WIDTH + half, -1.0), (TRAY_WIDTH + half, far_end), half),
        )
        for wall in walls:
            wall.friction = physics.friction
            wall.filter = pymunk.ShapeFilter(group=_WALL_GROUP)
        space.add(*walls)
        self.walls = walls

        bar = pymunk.Body(physics.bar_mass, math.inf)
        bar.position = (TRAY_WIDTH / 2, bar_y)
        edge = pymunk.Poly(
            bar,
            [(-TRAY_WIDTH / 2, 0.0), (TRAY_WIDTH / 2, 0.0), (TRAY_WIDTH / 2, 0.5), (-TRAY_WIDTH / 2, 0.5)],
        )
        edge.friction = physics.friction
        edge.filter = pymunk.ShapeFilter(group=_WALL_GROUP)
        groove = pymunk.GrooveJoint(
            static, bar, (TRAY_WIDTH / 2, -1.0), (TRAY_WIDTH / 2, far_end), (0.0, 0.0)
        )
        spring = pymunk.DampedSpring(
            static,
            bar,
            (TRAY_WIDTH / 2, physics.spring_anchor_y),
            (0.0, 0.0),
            0.0,
            physics.spring_stiffness,
            physics.spring_damping,
        )
        space.add(bar, edge, groove, spring)
        self.bar = bar
        self.bar_edge = edge

        self.bodies: list[pymunk.Body] = []
        self.shapes: list[pymunk.Circle] = []
        for disc in discs:
            mass = math.pi * disc.radius * disc.radius
            body = pymunk.Body(mass, pymunk.moment_for_circle(mass, 0.0, disc.radius))
            body.position = (disc.x, disc.y)
            shape = pymunk.Circle(body, disc.radius)
            shape.friction = disc.friction
            space.add(body, shape)
            self.bodies.append(body)
            self.shapes.append(shape)
        self.present = [True] * len(discs)
        self.space = space
        self._buffer = pymunk.batch.Buffer()

    def remove(self, index: int) -> None:
        self.space.remove(self.bodies[index], self.shapes[index])
        self.present[index] = False

    def max_speed(self) -> float:
        buffer = self._buffer
        buffer.clear()
        pymunk.batch.get_space_bodies(self.space, pymunk.batch.BodyFields.VELOCITY, buffer)
        velocities = memoryview(buffer.float_buf()).cast("d")
        return max(map(abs, velocities)) if len(velocities) else 0.0

    def settle(self, budget: int) -> int:
        """Step until every body has been slower than the rest speed for the rest
        window, or the budget is spent; returns the steps taken."""
        physics = self.physics
        quiet = 0
        for step in range(1, budget + 1):
            self.space.step(physics.time_step)
            if self.max_speed() < physics.rest_speed:
                quiet += 1
                if quiet >= physics.rest_window:
                    return step
            else:
                quiet = 0
        return budget

    def bar_push(self) -> float:
        physics = self.physics
        return physics.spring_stiffness * (self.bar.position.y - physics.spring_anchor_y)

    def contacts(self) -> list[Contact]:
        """Every touching pair with its force after the last step."""
        labels: dict[pymunk.Shape, int | str] = {shape: index for index, shape in enumerate(self.shapes)}
        labels[self.bar_edge] = "bar"
        for wall in self.walls:
            labels[wall] = "wall"
        scale = 1.0 / (self.physics.time_step * self.bar_push())
        found: list[Contact] = []
        # A contact between two discs is met from both sides: keep it once.
        seen: set[frozenset[pymunk.Shape]] = set()

        def record(arbiter: pymunk.Arbiter) -> None:
            first, second = arbiter.shapes
            key = frozenset((first, second))
            if key in seen:
                return
            seen.add(key)
            a, b = labels[first], labels[second]
            points = arbiter.contact_point_set.points
            if not points:
                return
            point = points[0].point_a
            found.append(Contact(a, b, point.x, point.y, abs(arbiter.total_impulse) * scale))

        for index, body in enumerate(self.bodies):
            if self.present[index]:
                body.each_arbiter(record)
        return found

    def settled(self, steps: int, discs: Sequence[Disc]) -> Settled:
        """The rounded picture at rest (absent discs keep their input entries) and
        the loads of that stored picture."""
        stored = tuple(
            replace(
                disc, x=round(body.position.x, POSITION_DECIMALS), y=round(body.position.y, POSITION_DECIMALS)
            )
            if self.present[index]
            else disc
            for index, (disc, body) in enumerate(zip(discs, self.bodies, strict=True))
        )
        bar_y = round(self.bar.position.y, POSITION_DECIMALS)
        # Loads are read from the stored (rounded) picture re-seated, exactly as the
        # next take and the replay's force network will see it: frictional packings
        # can hold the same push in more than one way, so reading them from the
        # settle itself could disagree with what the next take starts from.
        contacts = force_network(stored, tuple(self.present), bar_y, self.physics)
        totals = [0.0] * len(discs)
        for contact in contacts:
            for end in (contact.a, contact.b):
                if isinstance(end, int):
                    totals[end] += contact.force / 2
        loads = tuple(round(total, LOAD_DECIMALS) for total in totals)
        return Settled(tuple((disc.x, disc.y) for disc in stored), bar_y, loads, steps)


# The simulations are pure functions of their (hashable) inputs, so results are
# memoized: replaying a match, or applying the same take to the same state again,
# costs a lookup.


@lru_cache(maxsize=64)
def release(discs: tuple[Disc, ...], physics: Physics = PHYSICS) -> Settled:
    """Let the bar go from the loading position and settle to rest."""
    tray = _Tray(discs, LOADING_LENGTH, physics)
    steps = tray.settle(physics.release_budget)
    return tray.settled(steps, discs)


@lru_cache(maxsize=512)
def take(
    discs: tuple[Disc, ...], present: tuple[bool, ...], bar_y: float, index: int, physics: Physics = PHYSICS
) -> TakeOutcome:
    """Remove disc ``index`` and settle; ``present`` says which discs are in the tray.

    The tray is first re-seated from the stored positions (a few steps, in which a
    true state does not move), so the bar's travel is measured against its
    position at rest just before the take.
    """
    tray = _Tray(discs, bar_y, physics)
    for other, is_present in enumerate(present):
        if not is_present:
            tray.remove(other)
    steps = tray.settle(physics.take_budget)
    before_bar = tray.bar.position.y
    before = [body.position for body in tray.bodies]
    tray.remove(index)
    steps += tray.settle(physics.take_budget)
    after_bar = tray.bar.position.y
    squeeze = after_bar / before_bar
    dislodged = tuple(
        math.hypot(body.position.x - start.x, body.position.y - start.y * squeeze)
        if tray.present[other]
        else 0.0
        for other, (body, start) in enumerate(zip(tray.bodies, before, strict=True))
    )
    return TakeOutcome(before_bar - after_bar, dislodged, tray.settled(steps, discs))


@lru_cache(maxsize=64)
def resettle(
    discs: tuple[Disc, ...], present: tuple[bool, ...], bar_y: float, physics: Physics = PHYSICS
) -> Settled:
    """Settle the present discs from their positions (after pieces popped out)."""
    tray = _Tray(discs, bar_y, physics)
    for other, is_present in enumerate(present):
        if not is_present:
            tray.remove(other)
    steps = tray.settle(physics.take_budget)
    return tray.settled(steps, discs)


@lru_cache(maxsize=64)
def force_network(
    discs: tuple[Disc, ...], present: tuple[bool, ...], bar_y: float, physics: Physics = PHYSICS
) -> tuple[Contact, ...]:
    """Every contact with its force in a stored picture, re-seated (a few steps).

    This is where loads come from after every settle, and what the post-game
    replay draws as stress arches.
    """
    tray = _Tray(discs, bar_y, physics)
    for other, is_present in enumerate(present):
        if not is_present:
            tray.remove(other)
    tray.settle(physics.take_budget)
    return tuple(tray.contacts())


def clear_caches() -> None:
    """Forget memoized simulations (benchmarks that repeat the same playouts call this)."""
    for cached in (release, take, resettle, force_network):
        cached.cache_clear()
