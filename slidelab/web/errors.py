"""The API's errors: ``{"error": "one line", ...}`` with a status, in the API's words.

:class:`ApiError` is raised anywhere in a request and answered by the handler that
:func:`install` registers; :func:`input_error` rewrites a message of the shared
checks (which name command-line options) into the API's fields; :func:`job_error`
turns a worker's failure into its status.  The other handlers answer FastAPI's own
errors (a body that does not match the schema: 422; an unknown path: 404) in the
same one-line shape.
"""

from __future__ import annotations

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
    fields = []

    def field(match):
        name = _FIELDS[match.group(1)]
        fields.append(name)
        return f'"{name}": "{match.group(2)}"' if match.group(2) else f'the "{name}" field'

    text = _OPTION.sub(field, one_line(message))
    if fields:
        extra.setdefault("field", fields[0])
    return ApiError(status, text, **extra)


#: a failed job's kind (see :func:`slidelab.workers.run_job`) -> the status it is answered with
JOB_STATUS = {"input": 400, "unsolvable": 422, "limit": 422, "cancelled": 409}


def job_error(job) -> ApiError:
    """The error of a job that did not finish (``job.error``), with its kind and id."""
    error = job.error or {"error": "failed", "kind": "internal"}
    kind = error.get("kind")
    extra = {"kind": kind, "id": job.id}
    if error.get("stats"):
        extra["stats"] = error["stats"]
    return input_error(error["error"], JOB_STATUS.get(kind, 500), **extra)


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
