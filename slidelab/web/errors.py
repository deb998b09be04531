"""The API's errors: ``{"error": "one line", ...}`` with a status, in the API's words.

:class:`ApiError` is raised anywhere in a request and answered by the handler that
:func:`install` registers; :func:`input_error` rewrites a message of the shared
checks (which name command-line options) into the API's fields; :func:`job_error`
turns a worker's failure into its status.  The other handlers answer FastAPI's own
errors (a body that does not match the schema: 422; an unknown path: 404) in the
same one-line shape.

A page has no shell: where the library's message names the command that builds tables
ahead of time, the API says why without them (the error's ``reason``) and what they are
(:func:`page_remedy`: which tables, how big, how long, and what the server does about them:
building them now, after its warm-up, or what time limit builds them), never the command
(:func:`without_commands` for the notices a solve reports while it runs).
"""

from __future__ import annotations

import math
import re

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


class ApiError(Exception):
    """An answer other than 2xx: ``status``, the one-line ``message``, response ``headers``
    and ``extra`` fields of the body besides ``"error"``."""

    def __init__(self, status: int, message: str, headers: dict | None = None, **extra):
        super().__init__(message)
        self.status, self.message, self.headers, self.extra = status, message, headers, extra


def one_line(text: str) -> str:
    return " ".join(str(text).split())


#: command-line options named in the shared messages, and the API fields that do their work
_FIELDS = {
    "size": "size",
    "goal": "goal",
    "weight": "weight",
    "method": "method",
    "heuristic": "heuristic",
    "time-limit": "time_limit",
    "blank-first": "blank_first",
    "seed": "seed",
    "moves": "moves",
    "format": "format",
}
_OPTION = re.compile(
    r"--("
    + "|".join(sorted(map(re.escape, _FIELDS), key=len, reverse=True))
    + r")\b(?:[ =]([^\s),;]+))?"
)


def input_error(message: str, status: int = 400, **extra) -> ApiError:
    """An error for bad input, its message in the API's words: a field where the command
    line's message names an option (``--size 4x3`` -> ``"size": "4x3"``), and that field
    named in ``"field"``."""
    text, fields = _api_words(message)
    if fields:
        extra.setdefault("field", fields[0])
    return ApiError(status, text, **extra)


def _api_words(message: str) -> tuple[str, list]:
    """``message`` on one line with the command line's options it names as the API's fields,
    and those fields."""
    fields = []

    def field(match):
        name = _FIELDS[match.group(1)]
        fields.append(name)
        return f'"{name}": "{match.group(2)}"' if match.group(2) else f'the "{name}" field'

    return _OPTION.sub(field, one_line(message)), fields


#: a failed job's kind (see :func:`slidelab.workers.run_job`) -> the status it is answered with
JOB_STATUS = {"input": 400, "unsolvable": 422, "limit": 422, "cancelled": 409}

#: a library message's advice to build tables ahead of time, the command at its end
#: (:meth:`slidelab.tables.family.Tables.advice`, after a ``;`` where it ends a message)
_ADVICE = re.compile(r"(?:;\s*)?[^;]*? would help \(.*?\): slidelab tables build [^;]*")


def without_commands(text: str) -> str:
    """``text`` without the library's advice to run a command (the page has no shell; the
    answer's ``remedy`` says what would help, in the page's words), and the command line's
    options it names as the API's fields."""
    return _api_words(_ADVICE.sub("", str(text)))[0]


def page_remedy(remedy: dict | None, tables: list, time_limit: float) -> dict | None:
    """A remedy (:func:`slidelab.workers.jobs.remedy_fields`, or a solution's, whose
    ``command`` is dropped) for the page: what the tables are, their size and time, what the
    server does about them (``server``: the state of the server's own tables, ``tables``:
    ``ready``, ``building``, ``queued``; None where they are not the server's) and all that
    in words (``advice``), given the longest ``time_limit`` a solve may have."""
    if not remedy:
        return None
    out = {k: v for k, v in remedy.items() if k not in ("command", "server", "advice")}
    state = next((t.get("state") for t in tables if t.get("tables") == out.get("tables")), None)
    out["server"] = state if state in ("ready", "building", "queued") else None
    out["advice"] = _advice(out, time_limit)
    return out


def _advice(remedy: dict, time_limit: float) -> str:
    from ..units import format_bytes, format_duration

    seconds = float(remedy.get("seconds") or 0.0)
    what = (
        f"{remedy.get('tables', 'tables')} would help ({format_bytes(int(remedy.get('bytes') or 0))},"
        f" about {format_duration(seconds)} to build once)"
    )
    state = remedy.get("server")
    if state == "ready":
        return f"{what}: the server has them now; solve again"
    if state == "building":
        return f"{what}: the server is building them now; solve again once they are ready"
    if state == "queued":
        return f"{what}: the server builds them once it has warmed up"
    if seconds < time_limit:
        return (
            f"{what}: a solve with a time limit of {math.ceil(seconds) + 1} s or more builds them"
        )
    return f"{what}: building them takes longer than the {time_limit:g} s a solve may take here"


def job_error(job, tables: list | None = None, time_limit: float = 60.0) -> ApiError:
    """The error of a job that did not finish (``job.error``), with its kind and id; a limit
    reached says why (``reason``) and what would help (:func:`page_remedy`), never a command
    (``tables``: the server's own, :meth:`slidelab.web.lanes.Lanes.tables`)."""
    error = job.error or {"error": "failed", "kind": "internal"}
    kind = error.get("kind")
    extra = {"kind": kind, "id": job.id}
    if error.get("stats"):
        extra["stats"] = error["stats"]
    message, remedy = page_error(error, tables or [], time_limit)
    if remedy is not None:
        extra["remedy"] = remedy
    return input_error(message, JOB_STATUS.get(kind, 500), **extra)


def page_error(error: dict, tables: list, time_limit: float) -> tuple[str, dict | None]:
    """A failed job's message for the page and its remedy (see :func:`job_error`)."""
    remedy = page_remedy(error.get("remedy"), tables, time_limit)
    if remedy is None:
        return without_commands(error.get("error") or "failed"), None
    reason = without_commands(error.get("reason") or error.get("error") or "failed")
    return f"{reason}; {remedy['advice']}", remedy


def install(app: FastAPI) -> None:
    """Answer :class:`ApiError`, invalid bodies (422) and HTTP errors as ``{"error": ...}``."""

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        return JSONResponse(
            {"error": exc.message, **exc.extra}, status_code=exc.status, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError):
        problems = []
        for e in exc.errors()[:3]:
            if e.get("type") == "json_invalid":
                problems.append("body is not valid JSON")
                continue
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
            problems.append(f"{where}: {e.get('msg', 'invalid')}")
        return JSONResponse(
            {"error": one_line("; ".join(problems) or "invalid request")}, status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        return JSONResponse(
            {"error": one_line(exc.detail)},
            status_code=exc.status_code,
            headers=getattr(exc, "headers", None),
        )
