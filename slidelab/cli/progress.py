"""Progress on standard error: the search line, the table-building bar, the analysis bar, the batch bar."""

from __future__ import annotations

import sys

import click

#: a search quiet for this long says on stderr what it is doing, on a terminal or not
QUIET_SECONDS = 5.0
#: the width a live progress line is padded to (and cleared over)
LINE_WIDTH = 79


class ProgressLine:
    """Search progress on stderr: bound or depth, nodes, rate, time (on a Dask cluster, and the
    workers busy).

    ``live`` (a terminal, or ``--progress``): one self-overwriting line.
    Otherwise nothing for :data:`QUIET_SECONDS`, then a full line now and then
    (at 5, 10, 20, 40 s, then every minute), so a long solve in a script or a
    log is never silent.  Once a search passes :data:`QUIET_SECONDS` and
    larger tables would help (``stronger_partition`` in the report), it says
    how to get them, once per board.
    """

    def __init__(self, live: bool):
        self.live = live
        self.shown = False
        self.next_line = QUIET_SECONDS
        self.advised = False

    def start(self) -> None:
        """A new board."""
        self.clear()
        self.next_line = QUIET_SECONDS
        self.advised = False

    def __call__(self, info: dict):
        seconds = info["seconds"]
        where = f"bound {info['bound']:g}" if "bound" in info else f"depth {info.get('depth', '?')}"
        rate = f" ({info['generated'] / seconds / 1e6:.1f} M/s)" if seconds > 0 else ""
        # "generated", as the result's line counts them (one word, one count, in both)
        text = f"{info['method']}: {where}, generated {info['generated']:,}{rate}, {seconds:.1f} s"
        if "workers" in info:  # IDA* on a Dask cluster
            text += f", {info['busy']}/{info['workers']} workers busy"
        if seconds >= QUIET_SECONDS and not self.advised:
            self.advised = True
            if info.get("stronger_partition"):
                name = info["stronger_partition"]
                self._line(
                    f"note: larger pattern databases would help: add --partition {name}"
                    f" (built once and cached; see slidelab tables build --help)"
                )
        if self.live:
            click.echo(f"\r{text:<{LINE_WIDTH}}", err=True, nl=False)
            self.shown = True
        elif seconds >= self.next_line:
            self._line(text)
            self.next_line = seconds + min(seconds, 60.0)

    def _line(self, text: str) -> None:
        self.clear()
        click.echo(text, err=True)

    def clear(self):
        if self.shown:
            click.echo("\r" + " " * LINE_WIDTH + "\r", err=True, nl=False)
            self.shown = False


def table_and_step(message: str) -> tuple[str, str]:
    """``("table 2/4", "depth 12")`` of a build's progress message ("table 2/4: depth 12,
    45,000,000 of 127,512,000 placements"): the bar itself shows how far it is, so the label
    keeps the words that fit any terminal, whole."""
    table, _, detail = message.rpartition(": ") if ": " in message else ("tables", "", message)
    return table, detail.split(",")[0].strip()


class TableBar:
    """Progress on stderr while tables are built: a bar per table on a terminal (``live``,
    fitted to the terminal's width and redrawn in place: tqdm), else one line as each table
    starts."""

    def __init__(self, live: bool = True):
        self.live = live
        self.bar = None
        self.done = 0
        self.said = None

    def __call__(self, fraction: float, message: str):
        table, step = table_and_step(message)
        if not self.live:
            if table != self.said:
                self.said = table
                click.echo(f"building tables: {table}", err=True)
            return
        if self.bar is not None and (table != self.said or int(fraction * 1000) < self.done):
            self.close()  # the next table
        if self.bar is None:
            from tqdm import tqdm

            self.said = table
            self.bar = tqdm(
                total=1000,
                file=sys.stderr,
                dynamic_ncols=True,
                bar_format="{desc} {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}]",
                leave=False,
            )
        step_count = int(fraction * 1000) - self.done
        new_table = self.bar.desc == ""
        self.bar.set_description_str(f"building {table}: {step}", refresh=new_table)
        if step_count > 0:
            self.bar.update(step_count)
            self.done += step_count
        else:
            self.bar.refresh()

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None
            self.done = 0


class AnalysisBar:
    """A progress bar on stderr over the states found: depth, states, rate."""

    def __init__(self):
        self.bar = None
        self.shown = 0

    def __call__(self, info: dict):
        if self.bar is None:
            self.bar = click.progressbar(
                length=int(info["total"]),
                label="searching",
                file=sys.stderr,
                show_eta=True,
                show_pos=False,
            )
            self.bar.__enter__()
        step = int(info["states"]) - self.shown
        self.bar.label = (
            f"depth {info['depth']}: {info['states']:,} positions, {info['rate'] / 1e6:.1f} M/s"
        )
        if step > 0:
            self.bar.update(step)
            self.shown += step

    def close(self):
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


class BatchBar:
    """The batch's progress bar on stderr: count, rate, ETA, failures (tqdm)."""

    def __init__(self, total: int, done: int, show: bool):
        self.bar = None
        self.failed = 0
        if show:
            from tqdm import tqdm

            self.bar = tqdm(
                total=total,
                initial=done,
                desc="solving",
                unit=" instances",
                file=sys.stderr,
                dynamic_ncols=True,
                smoothing=0.05,
            )

    def tables(self, fraction: float, message: str) -> None:
        if self.bar is not None:
            table, step = table_and_step(message)
            self.bar.set_description_str(f"{table} {fraction:4.0%} {step}")

    def update(self, record: dict) -> None:
        if self.bar is None:
            return
        if self.bar.desc != "solving":
            self.bar.set_description_str("solving", refresh=False)
        if record.get("error"):
            self.failed += 1
            self.bar.set_postfix_str(f"{self.failed:,} failed", refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
