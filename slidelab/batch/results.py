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
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from .. import _args
from ..errors import SlidelabError
from .instances import Instance, check_instances, checked_instances

#: ``error_kind`` values and how the summary names them
ERROR_KINDS = {
    "input": "bad input",
    "unsolvable": "unsolvable",
    "limit": "time or memory limit",
    "cluster": "Dask cluster failure",
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


class LineSet:
    """Line numbers, a bit each (a batch's instances done): ``in``, ``len``, iteration in order.

    Ten million lines take 1.25 MB, where a set of them took hundreds.
    """

    def __init__(self):
        self._bits = bytearray()
        self._count = 0

    def add(self, line: int) -> bool:
        """Add ``line``; whether it was not in yet."""
        byte, bit = divmod(line, 8)
        if byte >= len(self._bits):
            self._bits.extend(bytes(max(byte + 1 - len(self._bits), len(self._bits))))
        if self._bits[byte] >> bit & 1:
            return False
        self._bits[byte] |= 1 << bit
        self._count += 1
        return True

    def __contains__(self, line) -> bool:
        if not _args.is_integer(line) or line < 0:
            return False
        byte, bit = divmod(line, 8)
        return byte < len(self._bits) and bool(self._bits[byte] >> bit & 1)

    def __len__(self) -> int:
        return self._count

    def __iter__(self):
        for byte, value in enumerate(self._bits):
            if value:
                for bit in range(8):
                    if value >> bit & 1:
                        yield byte * 8 + bit

    def __eq__(self, other) -> bool:
        """Equal to the same lines in any collection (a set, a dict's keys: ``done == {}``)."""
        if isinstance(other, LineSet):
            return self._count == other._count and list(self) == list(other)
        try:
            return len(other) == self._count and set(other) == set(self)
        except TypeError:
            return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LineSet({len(self)} lines)"


#: bytes read from a results file at a time
_CHUNK = 1 << 20

#: no instances given: they are checked as they come through :meth:`ResultsFile.todo`
_LATER = object()


class ResultsFile:
    """The output file of a batch, opened for resuming and appending.

    The file is read record by record, keeping only a bit and a hash of the input's text for
    each instance done (:attr:`done`, and the :attr:`summary` of the records), so a resumed
    batch of millions of instances takes little memory.  Without ``instances``, the input is
    checked against the file while it streams through :meth:`todo`, which yields what is left
    to solve; nothing is changed in the file (a ``--redo-failed`` rewrite, a cut-off last line
    dropped) before the input is known to be this file's.

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
    >>> [i.line for i in ResultsFile(path).todo(batch)]
    [2]
    """

    def __init__(self, path, instances=_LATER, redo_failed: bool = False):
        if not isinstance(path, (str, os.PathLike)) or not str(path):
            raise _args.ArgumentError(f"path must be a file name, got {_args.show(path)}")
        self.path = Path(path)
        #: the lines of the instances in the file (read back, and appended)
        self.done = LineSet()
        #: the totals of the records in the file (read back, and appended)
        self.summary = Summary()
        self._file = None
        self._fd: int | None = None
        self._entered = False
        self._pending: tuple | None = None  # (truncate at, temporary file) once the input agrees
        self._checks = None  # (lines, hashes) of the records read back, sorted by line
        given = None if instances is _LATER else check_instances(instances, "instances")
        redo_failed = _args.boolean(redo_failed, "redo_failed")
        #: whether the file is read back (a regular file) or only written (a device, a pipe)
        self.resumable = True
        kind = _kind(self.path)
        if kind == "directory":
            raise SlidelabError(f"{self.path} is a directory; give a file for the results")
        if kind not in ("missing", "regular"):
            self._open_unread(kind, redo_failed)
            return
        self._read_back(redo_failed)
        if given is not None:
            for _ in self.todo(given):
                pass

    def _read_back(self, redo_failed: bool) -> None:
        """Read the file's records: :attr:`done`, :attr:`summary`, the hashes to check the input."""
        lines, hashes = array("q"), array("q")
        kept = None  # the records kept by --redo-failed, written to a temporary file
        temporary = self.path.with_name(self.path.name + ".tmp")
        end, cut_off = 0, None
        try:
            f = open(self.path, "rb")
        except FileNotFoundError:
            self._checks = (lines, hashes)
            return
        except OSError as exc:
            raise SlidelabError(f"cannot read {self.path}: {exc.strerror}") from None
        try:
            for number, data in enumerate(_complete_lines(f), start=1):
                if isinstance(data, _CutOff):
                    cut_off = data.text
                    break
                end += len(data)
                text = data.decode("utf-8", "replace")
                if not text.strip():
                    continue
                record = _result(text)
                if record is None:
                    raise SlidelabError(
                        f"{self.path}, line {number}: not a slidelab batch result;"
                        " give another output file"
                    )
                # a Dask cluster's failure is not the instance's: it is solved again on resume
                again = record.get("error_kind") == "cluster"
                if again or (redo_failed and record.get("error")):
                    if kept is None:
                        kept = _copy_up_to(temporary, end - len(data), self.path)
                    continue
                if kept is not None:
                    kept.write(data if data.endswith(b"\n") else data + b"\n")
                if self.done.add(record["line"]):  # a line twice (two runs at once): the first
                    lines.append(record["line"])
                    hashes.append(hash(record["input"]))
                    self.summary.add(record)
        except OSError as exc:
            raise SlidelabError(f"cannot read {self.path}: {exc.strerror}") from None
        except BaseException:
            if kept is not None:
                kept.close()
                temporary.unlink(missing_ok=True)
            raise
        finally:
            f.close()
        if cut_off is not None and not cut_off.startswith(RECORD_START):  # not ours: leave it
            if kept is not None:
                kept.close()
                temporary.unlink(missing_ok=True)
            raise SlidelabError(
                f"{self.path}: its last line is not a slidelab batch result;"
                " give another output file"
            )
        if kept is not None:
            kept.close()
        if cut_off is not None or kept is not None:
            self._pending = (end if cut_off is not None else None, temporary if kept else None)
        self._checks = _sorted_by_line(lines, hashes)

    def todo(self, instances) -> Iterator[Instance]:
        """The ``instances`` not in the file, one at a time, each checked against it as it comes.

        An instance whose line is in the file must have the text the file names; a line in the
        file that the input does not have means the file is another input's: a
        :class:`SlidelabError` is raised.  Nothing is yielded before every line in the file is
        checked, and then the file is made ready to append to (a cut-off last line dropped, the
        failures removed for ``--redo-failed``).  The instances that come before the file's last
        line and are not in it (those that were running when a batch stopped) wait meanwhile.
        """
        instances = checked_instances(instances, "instances")
        if self._checks is None:  # checked already, or not read back (a device, a pipe)
            yield from (i for i in instances if i.line not in self.done)
            return
        lines, hashes = self._checks
        last = lines[-1] if lines else 0
        waiting: list[Instance] = []
        checking = True
        at = 0
        for instance in instances:
            if not checking:
                yield instance
                continue
            line = instance.line
            while at < len(lines) and lines[at] < line:
                self._another_input(lines[at], None)
            if at < len(lines) and lines[at] == line:
                if hashes[at] != hash(instance.text):
                    self._another_input(line, instance.text)
                at += 1
                continue
            if line < last:
                waiting.append(instance)
                continue
            checking = False  # every line of the file is checked
            self._ready()
            yield from waiting
            waiting.clear()
            yield instance
        if checking:
            if at < len(lines):
                self._another_input(lines[at], None)
            self._ready()
            yield from waiting

    def _another_input(self, line: int, text: str | None) -> NoReturn:
        what = "has no instance there" if text is None else f"holds {text!r} there"
        self._drop_pending()
        raise SlidelabError(
            f"{self.path} holds results of another input (a result for line {line};"
            f" the input {what}); give another output file or delete it"
        )

    def _drop_pending(self) -> None:
        if self._pending is not None:
            temporary = self._pending[1]
            if temporary is not None:
                temporary.unlink(missing_ok=True)
            self._pending = None

    def _ready(self) -> None:
        """The input agrees with the file: drop its cut-off last line, put the rewrite in place."""
        self._checks = None
        if self._pending is None:
            return
        end, temporary = self._pending
        self._pending = None
        if temporary is not None:
            os.replace(temporary, self.path)
        elif end is not None:
            with open(self.path, "r+b") as f:
                f.truncate(end)
        if self._file is not None:  # opened before: open the file now in its place
            self._file.close()
            self._file = None
            self._open()

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

    def __enter__(self) -> ResultsFile:
        self._open()
        return self

    def _open(self) -> None:
        try:
            if self._fd is not None:
                self._file = os.fdopen(self._fd, "w", encoding="utf-8")
                self._fd = None
            else:
                self._file = open(self.path, "a", encoding="utf-8")
        except OSError as exc:
            raise SlidelabError(f"cannot write {self.path}: {exc.strerror}") from None

    def append(self, record: dict) -> None:
        """Write one record and flush it to the operating system."""
        if self._file is None:
            raise SlidelabError(f"{self.path} is not open: use the ResultsFile in a with block")
        if self._pending is not None:
            raise SlidelabError(
                f"{self.path}: the input is not checked against it yet (see ResultsFile.todo)"
            )
        try:
            self._file.write(json.dumps(record) + "\n")
            self._file.flush()
        except OSError as exc:
            again = "; the next run solves again what is not written" if self.resumable else ""
            raise SlidelabError(f"cannot write {self.path}: {exc.strerror}{again}") from None
        if self.done.add(record["line"]):
            self.summary.add(record)

    def __exit__(self, *exc) -> None:
        self._drop_pending()
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


class _CutOff:
    """The rest of a file after its last newline."""

    def __init__(self, data: bytes):
        self.text = data.decode("utf-8", "replace")


def _complete_lines(f) -> Iterator:
    """The lines of binary file ``f`` with their newlines, then a :class:`_CutOff` if it does not
    end with one; a chunk at a time, so a file of millions of records is never held."""
    rest = b""
    while True:
        chunk = f.read(_CHUNK)
        if not chunk:
            break
        data = rest + chunk
        end = data.rfind(b"\n") + 1
        if end:
            yield from data[:end].splitlines(keepends=True)
        rest = data[end:]
    if rest:
        yield _CutOff(rest)


def _copy_up_to(temporary: Path, end: int, path: Path):
    """A temporary file open for writing, holding the first ``end`` bytes of ``path``."""
    try:
        out = open(temporary, "wb")
        with open(path, "rb") as source:
            left = end
            while left:
                chunk = source.read(min(left, _CHUNK))
                if not chunk:
                    break
                out.write(chunk)
                left -= len(chunk)
    except OSError as exc:
        raise SlidelabError(f"cannot write {temporary}: {exc.strerror}") from None
    return out


def _sorted_by_line(lines: array, hashes: array) -> tuple[array, array]:
    import numpy as np

    order = np.argsort(np.frombuffer(lines, dtype=np.int64), kind="stable")
    return (
        array("q", np.frombuffer(lines, dtype=np.int64)[order].tobytes()),
        array("q", np.frombuffer(hashes, dtype=np.int64)[order].tobytes()),
    )


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

    def add(self, r: dict) -> None:
        """Count one record (a checked one: see :func:`record_problem`)."""
        self.instances += 1
        if r.get("error"):
            kind = r.get("error_kind") or "internal"
            self.failed[kind] = self.failed.get(kind, 0) + 1
            return
        self.solved += 1
        self.total_length += r["length"]
        self.optimal += bool(r.get("optimal"))
        stats = r.get("stats") or {}
        self.expanded += stats.get("expanded", 0)
        self.generated += stats.get("generated", 0)
        self.seconds += stats.get("seconds", 0.0)
        if r.get("known") is not None:
            self.checked += 1
            if r.get("agrees") is False:
                self.mismatches.append(r)

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
        s.add(r)
    return s


def agrees(length: int, optimal: bool, known: int) -> bool:
    """Whether a solution of ``length`` fits a known optimal length."""
    return length == known if optimal else length >= known
