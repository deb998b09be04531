"""A batch's results: the JSON-lines file, read back to resume, and the summary.

Each finished instance is one line of JSON, appended and flushed as soon as it
is known, so a batch that is killed loses at most the instances that were
running.  Running the same batch again reads the file back and skips what is
in it; a last line cut off by the kill is dropped first.  A record names its
instance by ``line`` and ``input`` (the line's text), so results written for
another input file are recognised and refused rather than mixed in.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .. import _args
from ..errors import SlidelabError
from .instances import Instance, check_instances

#: ``error_kind`` values and how the summary names them
ERROR_KINDS = {
    "input": "bad input",
    "unsolvable": "unsolvable",
    "limit": "time or memory limit",
    "internal": "internal error",
}


def _result(text: str) -> dict | None:
    """The record on a line of a results file, or None if it is not one."""
    try:
        record = json.loads(text)
    except ValueError:
        return None
    if (
        isinstance(record, dict)
        and _args.is_integer(record.get("line"))
        and isinstance(record.get("input"), str)
        and record_problem(record) is None
    ):
        return record
    return None


def record_problem(record) -> str | None:
    """What keeps ``record`` from being a batch result :func:`summarize` can count, or None.

    A failed record has an ``error``; a solved one a whole-number ``length``,
    and ``stats`` (if any) a dict of numbers.
    """
    if not isinstance(record, dict):
        return f"is not a dict but {_args.show(record)}"
    if record.get("error"):
        return None
    length = record.get("length")
    if not _args.is_integer(length) or length < 0:
        return f"has no error and no whole-number 'length' (got {_args.show(length)})"
    stats = record.get("stats")
    if stats is not None and (
        not isinstance(stats, dict)
        or not all(
            isinstance(stats.get(k, 0), (int, float)) and not isinstance(stats.get(k, 0), bool)
            for k in ("expanded", "generated", "seconds")
        )
    ):
        return f"has 'stats' that are not a dict of numbers ({_args.show(stats)})"
    return None


def _kind(path: Path) -> str:
    """``missing``, ``regular``, ``directory``, ``pipe``, ``device`` or ``other`` (a socket...)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        raise SlidelabError(f"cannot use {path}: {exc.strerror}") from None
    except ValueError:  # a NUL in the name: no file can be called that
        raise SlidelabError(f"cannot use {str(path)!r}: a file name cannot hold a NUL") from None
    if stat.S_ISREG(mode):
        return "regular"
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISFIFO(mode):
        return "pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    return "other"


#: how every record starts (``id`` is its first field)
RECORD_START = '{"id": '


class ResultsFile:
    """The output file of a batch, opened for resuming and appending.

    Examples
    --------
    >>> import tempfile, os
    >>> from slidelab.batch import read_instances
    >>> path = os.path.join(tempfile.mkdtemp(), "out.jsonl")
    >>> batch = read_instances(["1 2 3/4 5 6/0 7 8", "1 2 3/4 5 6/7 0 8"])
    >>> with ResultsFile(path, batch) as out:
    ...     out.append({"line": 1, "input": "1 2 3/4 5 6/0 7 8", "length": 2})
    >>> sorted(ResultsFile(path, batch).done)
    [1]
    """

    def __init__(self, path, instances: Iterable[Instance], redo_failed: bool = False):
        if not isinstance(path, (str, os.PathLike)) or not str(path):
            raise _args.ArgumentError(f"path must be a file name, got {_args.show(path)}")
        self.path = Path(path)
        self.done: dict[int, dict] = {}
        self._file = None
        self._fd: int | None = None
        instances = check_instances(instances, "instances")
        redo_failed = _args.boolean(redo_failed, "redo_failed")
        #: whether the file is read back (a regular file) or only written (a device, a pipe)
        self.resumable = True
        kind = _kind(self.path)
        if kind == "directory":
            raise SlidelabError(f"{self.path} is a directory; give a file for the results")
        if kind not in ("missing", "regular"):
            self._open_unread(kind, redo_failed)
            return
        by_line = {i.line: i for i in instances}
        kept: list[str] = []
        dropped = False
        lines, end, cut_off = self._read()
        for number, text in lines:
            record = _result(text)
            if record is None:
                raise SlidelabError(
                    f"{self.path}, line {number}: not a slidelab batch result;"
                    " give another output file"
                )
            line, given = record["line"], record["input"]
            instance = by_line.get(line)
            if instance is None or instance.text != given:
                raise SlidelabError(
                    f"{self.path} holds results of another input (its line {line} was {given!r});"
                    " give another output file or delete it"
                )
            if redo_failed and record.get("error"):
                dropped = True
                continue
            self.done[line] = record
            kept.append(text)
        if cut_off is not None:  # the last record was being written when the batch was killed
            if not cut_off.startswith(RECORD_START):  # not ours: leave it alone
                raise SlidelabError(
                    f"{self.path}: its last line is not a slidelab batch result;"
                    " give another output file"
                )
            with open(self.path, "r+b") as f:
                f.truncate(end)
        if dropped:
            self._rewrite(kept)

    def _open_unread(self, kind: str, redo_failed: bool) -> None:
        """A device or a named pipe: written without resume, never read back (it may not end)."""
        what = {"pipe": "a named pipe", "device": "a device"}.get(kind, "not a regular file")
        if kind not in ("pipe", "device"):
            raise SlidelabError(f"{self.path} is {what}; give a regular file for the results")
        if redo_failed:
            raise SlidelabError(
                f"--redo-failed reads the results back, and {self.path} is {what},"
                " not a regular file"
            )
        self.resumable = False
        if kind == "pipe":  # opening it to write waits for a reader: see whether there is one
            try:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno == errno.ENXIO:
                    raise SlidelabError(
                        f"{self.path} is a named pipe that nothing reads; start"
                        " its reader first, or give a regular file"
                    ) from None
                raise SlidelabError(f"cannot write {self.path}: {exc.strerror}") from None
            os.set_blocking(self._fd, True)

    def _read(self):
        """``(complete lines as (number, text), their length in bytes, the cut-off rest or None)``."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return [], 0, None
        except OSError as exc:
            raise SlidelabError(f"cannot read {self.path}: {exc.strerror}") from None
        end = data.rfind(b"\n") + 1
        text = data[:end].decode("utf-8", "replace")
        lines = [(n, t) for n, t in enumerate(text.splitlines(), start=1) if t.strip()]
        return lines, end, (data[end:].decode("utf-8", "replace") if end < len(data) else None)

    def _rewrite(self, lines: list[str]) -> None:
        """Replace the file by ``lines`` at once (a temporary file renamed over it)."""
        temporary = self.path.with_name(self.path.name + ".tmp")
        temporary.write_text("".join(text + "\n" for text in lines), encoding="utf-8")
        os.replace(temporary, self.path)

    def __enter__(self) -> ResultsFile:
        try:
            if self._fd is not None:
                self._file = os.fdopen(self._fd, "w", encoding="utf-8")
                self._fd = None
            else:
                self._file = open(self.path, "a", encoding="utf-8")
        except OSError as exc:
            raise SlidelabError(f"cannot write {self.path}: {exc.strerror}") from None
        return self

    def append(self, record: dict) -> None:
        """Write one record and flush it to the operating system."""
        if self._file is None:
            raise SlidelabError(f"{self.path} is not open: use the ResultsFile in a with block")
        try:
            self._file.write(json.dumps(record) + "\n")
            self._file.flush()
        except OSError as exc:
            again = "; the next run solves again what is not written" if self.resumable else ""
            raise SlidelabError(f"cannot write {self.path}: {exc.strerror}{again}") from None
        self.done[record["line"]] = record

    def __exit__(self, *exc) -> None:
        if self._file is None:
            return
        file, self._file = self._file, None
        try:
            file.flush()
            if self.resumable:
                os.fsync(file.fileno())
        except OSError:
            pass  # append said what could not be written
        finally:
            try:
                file.close()
            except OSError:
                pass


@dataclass
class Summary:
    """Totals over a batch's records (see :func:`summarize`)."""

    instances: int = 0
    solved: int = 0
    failed: dict = field(default_factory=dict)  #: error kind -> count
    total_length: int = 0
    optimal: int = 0
    expanded: int = 0
    generated: int = 0
    seconds: float = 0.0
    checked: int = 0  #: solutions compared with a known optimal length
    mismatches: list = field(default_factory=list)  #: records that disagree with theirs

    @property
    def mean_length(self) -> float | None:
        return self.total_length / self.solved if self.solved else None

    def table(self) -> str:
        """The summary as text, for people."""
        mean = f"{self.mean_length:.2f}" if self.solved else "-"
        rows = [
            ("", "instances", "length", "mean", "expanded", "generated", "search s"),
            (
                "solved",
                f"{self.solved:,}",
                f"{self.total_length:,}",
                mean,
                f"{self.expanded:,}",
                f"{self.generated:,}",
                f"{self.seconds:.2f}",
            ),
            ("failed", f"{sum(self.failed.values()):,}", "", "", "", "", ""),
            ("total", f"{self.instances:,}", "", "", "", "", ""),
        ]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = [
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=False))
            ).rstrip()
            for row in rows
        ]
        if self.failed:
            lines.append(
                "failed: "
                + ", ".join(
                    f"{count:,} {ERROR_KINDS.get(kind, kind)}"
                    for kind, count in sorted(self.failed.items())
                )
            )
        if self.solved and self.optimal < self.solved:
            lines.append(f"{self.solved - self.optimal:,} solutions not proven optimal")
        if self.checked:
            verdict = "all agree" if not self.mismatches else f"{len(self.mismatches)} disagree:"
            lines.append(f"known optimal lengths: {self.checked:,} checked, {verdict}")
            for r in self.mismatches:
                lines.append(
                    f"  line {r['line']} (id {r['id']}): length {r['length']}, known {r['known']}"
                )
        return "\n".join(lines)


def summarize(records: Iterable[dict]) -> Summary:
    """Totals over ``records``.

    A solution disagrees with a known optimal length when it is proven optimal
    and of another length, or shorter than the known length.
    """
    s = Summary()
    for i, r in enumerate(_args.items(records, "records", what="an iterable of result dicts")):
        if not isinstance(r, dict):
            raise _args.ArgumentError(f"records[{i}] must be a result dict, got {_args.show(r)}")
        problem = record_problem(r)
        if problem is not None:
            raise SlidelabError(f"records[{i}] {problem}")
        s.instances += 1
        if r.get("error"):
            kind = r.get("error_kind") or "internal"
            s.failed[kind] = s.failed.get(kind, 0) + 1
            continue
        s.solved += 1
        s.total_length += r["length"]
        s.optimal += bool(r.get("optimal"))
        stats = r.get("stats") or {}
        s.expanded += stats.get("expanded", 0)
        s.generated += stats.get("generated", 0)
        s.seconds += stats.get("seconds", 0.0)
        if r.get("known") is not None:
            s.checked += 1
            if r.get("agrees") is False:
                s.mismatches.append(r)
    return s


def agrees(length: int, optimal: bool, known: int) -> bool:
    """Whether a solution of ``length`` fits a known optimal length."""
    return length == known if optimal else length >= known
