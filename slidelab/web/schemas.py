"""The API's request and response bodies (pydantic models), so that the OpenAPI schema
(``/openapi.json``) documents them.

Requests are strict (no coercion: ``"10"`` is not a number) and refuse unknown fields.
The method and heuristic names are not enumerated here: they are checked against the
registries (:mod:`slidelab.search.registry`, :mod:`slidelab.heuristics.registry`) by
:func:`~slidelab.search.options.check_options`, and listed by ``GET /api/methods``
(:class:`MethodsOut`).
"""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from ..heuristics.registry import HEURISTICS
from ..moves import METRICS
from ..parse import STYLES
from ..search.compare import DEFAULT_METHODS
from ..search.options import MAX_WEIGHT
from ..search.registry import METHODS
from .lanes import (
    DEFAULT_TIME_LIMIT,
    HINT_TIME_LIMIT,
    LAB_TIME_LIMIT,
    MAX_BODY,
    MAX_RECORD,
    MAX_TIME_LIMIT,
    UNPOLLED_SECONDS,
)

# ------------------------------------------------------------------------------------------
# request bodies


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PuzzleIn(_Body):
    board: str = Field(max_length=MAX_BODY, description="Start board, in any accepted format.")
    goal: str | None = Field(
        None,
        max_length=MAX_BODY,
        description="Goal board or size WxH (default: tiles in order, blank last).",
    )
    blank_first: bool = Field(False, description="Ordered goal with the blank first.")
    size: str | None = Field(None, max_length=20, description="WxH, for one-line boards.")


class SolveIn(PuzzleIn):
    method: str = Field("auto", max_length=40, description="A name from GET /api/methods.")
    heuristic: str | None = Field(
        None, max_length=40, description="A name from GET /api/methods (default: the method's)."
    )
    weight: float | None = Field(None, ge=1, le=MAX_WEIGHT)
    metric: str = Field(
        "stm",
        max_length=8,
        description="stm (a move slides one tile) or mtm (a slide of tiles in a line is one"
        " move); optimal methods minimise it.",
    )
    time_limit: float = Field(
        DEFAULT_TIME_LIMIT, gt=0, le=MAX_TIME_LIMIT, description="Seconds of search."
    )
    wait: bool = Field(
        True,
        description="Answer with the solution (true) or a solve id at once; such a solve is"
        f" ended once nobody has asked for it (GET) for {UNPOLLED_SECONDS:g} s.",
    )


class HintIn(PuzzleIn):
    metric: str = Field("stm", max_length=8, description="stm or mtm: what a move is.")
    time_limit: float = Field(
        HINT_TIME_LIMIT,
        gt=0,
        le=MAX_TIME_LIMIT,
        description="Seconds of search at most (cut to the lane's limit: 2 s for boards of at"
        " most 9 cells); past it the answer is a lower bound.",
    )
    wait: bool = Field(
        True,
        description="Answer with the hint (true) or a hint id at once; such a hint is ended"
        f" once nobody has asked for it (GET) for {UNPOLLED_SECONDS:g} s.",
    )


class CompareIn(PuzzleIn):
    methods: list[str] | None = Field(
        None,
        min_length=1,
        max_length=20,
        description="Names from GET /api/methods, each run in turn (default: bfs, bidirectional,"
        " astar, weighted-astar, bidirectional-astar, idastar).",
    )
    heuristic: str | None = Field(
        None,
        max_length=40,
        description="For the methods that take one (default: the one a solve would search the"
        " board with now, its tables cached; each entry names the heuristic it used).",
    )
    metric: str = Field("stm", max_length=8, description="stm or mtm: what a move is.")
    time_limit: float = Field(
        DEFAULT_TIME_LIMIT,
        gt=0,
        le=MAX_TIME_LIMIT,
        description="Seconds for each method (the comparison may take methods x time_limit).",
    )
    record: int = Field(
        0,
        ge=0,
        le=MAX_RECORD,
        description="Nodes of each search to record for playing it back, in its entry's"
        " ``visits``: A*'s first expansions (the node, g, h, f, open and closed), a breadth-first"
        " search's first states of each layer.  The search is run again to record them: its"
        " times and memory are those of the search unrecorded.",
    )
    wait: bool = Field(
        True,
        description="Answer with the comparison (true) or a comparison id at once; such a"
        f" comparison is ended once nobody has asked for it (GET) for {UNPOLLED_SECONDS:g} s.",
    )


class GenerateIn(_Body):
    size: str | None = Field(None, max_length=20, description="WxH (ordered goal).")
    goal: str | None = Field(None, max_length=MAX_BODY)
    blank_first: bool = False
    n: int = Field(1, ge=1, le=100, description="How many positions.")
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    moves: int | None = Field(
        None, ge=0, le=100_000, description="Random walk of this many moves instead of uniform."
    )
    format: Literal[STYLES] = "slash"  # type: ignore[valid-type]


class AnalyzeIn(_Body):
    goal: str = Field(max_length=MAX_BODY, description="Goal board, or a size WxH.")
    size: str | None = Field(None, max_length=20)
    blank_first: bool = False
    metric: str = Field("stm", max_length=8, description="stm or mtm: what a move is.")


# ------------------------------------------------------------------------------------------
# response bodies

#: a cell: a tile's number or letter label, 0 for the blank
Cell = int | str


class CheckOut(BaseModel):
    solvable: bool
    reason: str = Field(description="Why (not) solvable, in one line.")
    start: str
    goal: str
    size: str = Field(description="WxH")
    width: int
    height: int
    repeats: bool = Field(description="Whether labels repeat (a puzzle with identical tiles).")
    cells: list[Cell] = Field(description="The start's cells, row by row.")
    goal_cells: list[Cell]


class GenerateOut(BaseModel):
    boards: list[str]


class Visit(BaseModel):
    """A node a search visited, recorded for playing it back (``slidelab.solution.Visit``)."""

    kind: str = Field(description="expanded (A*) or layer (breadth-first)")
    side: str = Field("", description="Bidirectional searches: forward or backward.")
    board: str
    g: int
    h: int
    f: float
    open: int = Field(description="A*: nodes open once it was expanded; a layer: its states.")
    closed: int = Field(description="A*: nodes expanded so far; a layer: states stored.")


class Phase(BaseModel):
    """A layer of a breadth-first search (``depth``: its distance from its side's root) or an
    iteration of IDA* (``depth``: its bound)."""

    kind: str = Field(description="layer, iteration or contour")
    side: str = Field("", description="Bidirectional searches: forward or backward.")
    depth: float
    expanded: int
    generated: int
    frontier: int
    seconds: float


class Stats(BaseModel):
    expanded: int
    generated: int
    stored: int
    peak_frontier: int
    seconds: float
    expanded_forward: int = Field(
        0, description="Bidirectional searches: expansions from the start (0 for the others)."
    )
    expanded_backward: int = Field(
        0, description="Bidirectional searches: expansions from the goal (0 for the others)."
    )
    phases: list[Phase] = Field(
        default_factory=list,
        description="Per layer (breadth-first searches) or per iteration (IDA*), where kept.",
    )
    visits: list[Visit] = Field(default_factory=list, description="Nodes recorded, where asked.")


class Remedy(BaseModel):
    """The tables that would have helped an answer (not built: they did not fit its time), in
    the page's words: never a command, which a page cannot run."""

    tables: str = Field(description="What they are: 'the 6-6-3 pattern databases of the 4x4 goal'.")
    size: str | None = Field(None, description="The board size of their goal (WxH).")
    goal: str | None = Field(None, description="Their goal.")
    metric: str | None = Field(None, description="The metric their distances count.")
    bytes: int = Field(description="Their size, on disk and loaded.")
    seconds: float = Field(description="About how long building them takes here (once).")
    server: Literal["ready", "building", "queued"] | None = Field(
        None,
        description="They are the server's own tables: ready now, being built now, or built"
        " once it has warmed up; null: not the server's (a solve with a long enough time limit"
        " builds them).",
    )
    advice: str = Field(description="All that in one line.")


class ErrorOut(BaseModel):
    """Every error the API answers (a 4xx or 5xx): one line, and what it concerns."""

    error: str = Field(description="What is wrong, in one line.")
    field: str | None = Field(None, description="The request field at fault, where one is.")
    kind: str | None = Field(
        None,
        description="A solve that did not finish: input, unsolvable, limit, cancelled or internal.",
    )
    id: str | None = Field(None, description="The solve the error belongs to.")
    lane: str | None = Field(None, description="The lane that is full (429): cheap or hard.")
    stats: Stats | None = Field(None, description="A search stopped by its limit: what it did.")
    remedy: Remedy | None = Field(
        None, description="A limit reached: the tables that would have helped (in the error too)."
    )


#: what each error status means (the routes declare theirs with :func:`error_responses`)
ERROR_STATUS = {
    400: "Bad input: a board, goal, size or option that cannot be used",
    404: "No solve (or comparison) with that id",
    409: "The solve (or comparison) was cancelled",
    413: "The request body is too large",
    422: "Unsolvable, a limit reached, or a request that does not match the schema",
    429: "Busy: try again after Retry-After seconds",
    500: "An internal error (a worker lost)",
}
#: the errors of a route that runs a job in a worker
JOB_ERRORS = (400, 409, 413, 422, 429, 500)


def error_responses(*statuses: int) -> dict:
    """A route's ``responses``: each status with :class:`ErrorOut` (the body every error has;
    FastAPI's own 422 model, ``HTTPValidationError``, is not what this server sends)."""
    return {s: {"model": ErrorOut, "description": ERROR_STATUS[s]} for s in statuses}


class SolveRecord(BaseModel):
    """The ``solve --json`` record."""

    model_config = ConfigDict(extra="allow")

    start: str
    goal: str
    size: str
    solution: str = Field(description="The moves, each the direction its tile travels (R2 U L).")
    length: int = Field(description="Moves in the solution's metric.")
    metric: str = Field(description="stm or mtm: what the length counts, and optimal means.")
    length_stm: int = Field(description="Single-tile moves.")
    length_mtm: int = Field(description="Multi-tile moves (a row slide counts once).")
    optimal: bool
    method: str
    stats: Stats
    remedy: Remedy | None = Field(
        None,
        description="The tables that would have made it better (optimal, or sooner) but did"
        " not fit its time limit.",
    )


class SolveOut(SolveRecord):
    id: str


class SolveStarted(BaseModel):
    id: str
    status: str


R = TypeVar("R")


class JobView(BaseModel, Generic[R]):
    """A job as the server tracks it (``result`` once done, ``error`` once failed): one shape
    for every kind of job (solve, comparison, hint, review), each naming its result."""

    id: str
    status: Literal["queued", "running", "done", "failed", "cancelled"]
    progress: dict = Field(description="The search's latest progress message.")
    elapsed: float
    result: R | None = None
    error: str | None = None
    error_kind: str | None = None
    warm_up: str | None = Field(
        None,
        description="While the job waits (queued) for its worker to warm up: what it does"
        " (compiling, first start; the server's first tables); its time limit starts when its"
        " search does.",
    )


class SolveView(JobView[SolveRecord]):
    """A solve as the server tracks it."""

    remedy: Remedy | None = Field(
        None, description="A limit reached: the tables that would have helped (in the error too)."
    )


class HintOut(BaseModel):
    distance: int | None = Field(description="Moves to the goal (exact), or null when unknown.")
    lower_bound: int | None = Field(
        description="At least this many moves (when the time was not enough for the distance)."
    )
    move: str | None = Field(
        description="The first move of an optimal solution (tile notation), or null when"
        " solved or unknown."
    )
    tile: Cell | None = Field(description="The tile that moves.")
    exact: bool
    how: str = Field(description="solved, distance table, or optimal search.")
    metric: str = Field(description="stm or mtm: what the distance counts.")
    seconds: float
    message: str = Field(description="One line for people.")
    good: list[str] = Field(
        default_factory=list,
        description="Every move that keeps the optimum (the first moves of all optimal"
        " solutions); ``move`` is one of them.",
    )
    id: str | None = None


class ReviewIn(PuzzleIn):
    moves: str = Field(
        max_length=4000,
        description="The solve: moves in tile notation (the letter: where the tile goes; R3 ="
        " RRR), from the board.",
    )
    metric: str = Field("stm", max_length=8, description="stm or mtm: what a move is.")
    time_limit: float = Field(
        DEFAULT_TIME_LIMIT,
        gt=0,
        le=MAX_TIME_LIMIT,
        description="Seconds for each position's optimal search where no distance table"
        " answers; the whole review within the lane's limit.",
    )
    wait: bool = Field(
        True,
        description="Answer with the review (true) or a review id at once; such a review is"
        f" ended once nobody has asked for it (GET) for {UNPOLLED_SECONDS:g} s.",
    )


#: bounds ``[low, high]`` of a distance or a loss (``high`` null: none)
BOUNDS = "[low, high] (high null where there is none)"


class ReviewStep(BaseModel):
    number: int
    move: str
    before: int | None = Field(description="The distance before the move (null: not proven).")
    after: int | None = Field(description="The distance after it (null: not proven).")
    lost: int | None = Field(description="Moves it lost: 0 when it kept the optimum.")
    good: list[str] | None = Field(
        description="The moves that keep the optimum from before it (null: not known)."
    )
    seconds: float | None = None
    before_bounds: list[int | None] = Field(description=f"The distance before it, {BOUNDS}.")
    after_bounds: list[int | None] = Field(description=f"The distance after it, {BOUNDS}.")
    lost_bounds: list[int | None] = Field(description="The fewest and most moves it lost.")


class ReviewOut(BaseModel):
    start: str
    goal: str
    metric: str
    length: int
    optimum: int | None = Field(description="The start's distance (null: not proven).")
    optimum_bounds: list[int | None] = Field(description=f"The start's distance, {BOUNDS}.")
    exact_from: int | None = Field(
        description="The first position whose distance is proven (0: the start; null: none);"
        " before it the distances are bounds."
    )
    lost: int | None
    lost_bounds: list[int | None]
    reaches_goal: bool
    summary: str = Field(description="'33 moves, optimal 31: 2 lost, at move 2 (2)'.")
    good_at_start: list[str] | None
    steps: list[ReviewStep]
    id: str | None = None


class ReviewView(JobView[ReviewOut]):
    """A review as the server tracks it."""


class HintView(JobView[HintOut]):
    """A hint as the server tracks it."""


class Entry(BaseModel):
    """One method's run in a comparison (``error`` set when it did not finish)."""

    method: str
    heuristic: str | None = None
    metric: str
    length: int | None = None
    length_stm: int | None = None
    length_mtm: int | None = None
    optimal: bool = False
    expanded: int | None = None
    generated: int | None = None
    stored: int | None = None
    peak_frontier: int | None = None
    memory_bytes: int | None = Field(
        None,
        description="The most memory its answer held at once (traced, or the growth of the"
        " worker's peak resident memory), its kernels and tables ready before.",
    )
    search_seconds: float | None = Field(None, description="The search alone.")
    setup_seconds: float | None = Field(
        None,
        description="The set-up before the answer: kernels compiled or loaded, tables built or"
        " loaded.",
    )
    total_seconds: float | None = Field(
        None, description="The whole answer, set-up done: choosing, search, replay and check."
    )
    solution: str | None = None
    error: str | None = None
    phases: list[Phase] = Field(default_factory=list)
    visits: list[Visit] = Field(
        default_factory=list, description="The nodes recorded, where asked for (``record``)."
    )


class CompareOut(BaseModel):
    start: str
    goal: str
    metric: str
    entries: list[Entry]
    skipped: dict[str, str] = Field(
        default_factory=dict,
        description="Methods asked for that were not run, and why (they do not search in the"
        " metric).",
    )
    id: str | None = None


class CompareProgress(BaseModel):
    method: str | None = Field(None, description="The method that runs now.")
    done: int | None = Field(None, description="Methods finished.")
    of: int | None = Field(None, description="Methods in all.")
    entries: list[Entry] = Field(default_factory=list, description="Those finished, so far.")


class CompareView(JobView[CompareOut]):
    """A comparison as the server tracks it (its progress: the methods finished so far)."""

    progress: CompareProgress


class AnalyzeOut(BaseModel):
    goal: str
    size: str
    metric: str = Field(description="stm or mtm: what the distances count.")
    states: int
    diameter: int
    counts: list[int] = Field(description="Arrangements at each distance from the goal.")
    seconds: float


class LaneStatus(BaseModel):
    ready: bool
    workers: int
    active: int
    waiting: int
    queue: int
    per_client: int
    time_limit: float


class PageLimits(BaseModel):
    """The server's limits and defaults, which its page uses (and a client may)."""

    time_limit: float = Field(DEFAULT_TIME_LIMIT, description="A solve's seconds by default.")
    max_time_limit: float = Field(MAX_TIME_LIMIT, description="The most seconds a job may ask.")
    hint_time_limit: float = Field(HINT_TIME_LIMIT, description="A hint's seconds by default.")
    lab_time_limit: float = Field(
        LAB_TIME_LIMIT, description="Each method's seconds in the page's lab, to start with."
    )
    unpolled_seconds: float = Field(
        UNPOLLED_SECONDS,
        description="A job started without waiting ends once nobody has asked for it this long.",
    )
    max_record: int = Field(
        MAX_RECORD, description="The most nodes of a search a comparison may record (``record``)."
    )


class ServerTables(BaseModel):
    """One set of the tables a server builds itself (:func:`slidelab.search.policy.server_tables`)."""

    tables: str = Field(description="What they are: 'the 6-6-3 pattern databases of the 4x4 goal'.")
    size: str
    goal: str
    metric: str
    bytes: int
    seconds: float = Field(description="About how long building them takes here (once).")
    when: Literal["first", "later"] = Field(
        description="first: built while the server warms up, before it says it is ready;"
        " later: built afterwards, at the lowest priority (no request waits for them)."
    )
    state: Literal["ready", "building", "queued", "skipped", "failed"]
    progress: float | None = Field(None, description="While being built: how far, 0 to 1.")
    reason: str | None = Field(None, description="Why skipped or failed.")


class StatusOut(BaseModel):
    ready: bool = Field(description="Whether the workers have started and warmed up.")
    warm_up: str | None = Field(
        description="While the server's first warm-up lasts: what it does (compiling, first"
        " start); null once it is over."
    )
    version: str
    lanes: dict[str, LaneStatus]
    limits: PageLimits = Field(default_factory=PageLimits)
    tables: list[ServerTables] = Field(
        default_factory=list,
        description="The tables the server builds itself, and their states (empty until its"
        " builder's first report, a second or two after start-up).",
    )


class MethodInfo(BaseModel):
    name: str
    summary: str
    aliases: list[str]
    optimal: bool = Field(
        description="Its solutions are proven shortest (weight 1, an admissible heuristic)."
    )
    options: list[str] = Field(description="Which of heuristic, partition, weight it takes.")
    metrics: list[str] = Field(description="The metrics it searches in (stm, mtm).")


class HeuristicInfo(BaseModel):
    name: str
    summary: str
    aliases: list[str]
    admissible: bool = Field(description="Never overestimates: optimal searches may use it.")


class MethodsOut(BaseModel):
    methods: list[MethodInfo]
    heuristics: list[HeuristicInfo]
    metrics: list[str] = Field(description="The move metrics, the default first.")
    compare: list[str] = Field(
        default_factory=list,
        description="The methods the lab compares unless others are chosen"
        " (``slidelab.search.compare.DEFAULT_METHODS``).",
    )

    @classmethod
    def from_registries(cls) -> MethodsOut:
        """The methods and heuristics as their registries declare them, in their order."""
        return cls(
            methods=[
                MethodInfo(
                    name=m.name,
                    summary=m.summary,
                    aliases=list(m.aliases),
                    optimal=m.optimal,
                    options=list(m.options),
                    metrics=list(m.metrics),
                )
                for m in METHODS.values()
            ],
            metrics=list(METRICS),
            compare=list(DEFAULT_METHODS),
            heuristics=[
                HeuristicInfo(
                    name=h.name, summary=h.summary, aliases=list(h.aliases), admissible=h.admissible
                )
                for h in HEURISTICS.values()
            ],
        )
