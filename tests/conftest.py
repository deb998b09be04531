import os
import sys

import pytest
from click.testing import CliRunner, Result

sys.path.insert(0, os.path.dirname(__file__))  # the tests' reference helpers

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_addoption(parser):
    parser.addoption(
        "--runslow", action="store_true", default=False, help="also run the tests marked slow"
    )


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` (over about 20 s on 2 cores) run with ``--runslow`` only."""
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def cli():
    """``cli(*args, input=None)``: run ``slidelab ARGS`` in this process, return click's ``Result``
    (``exit_code``, ``stdout``, ``stderr``, ``output``).

    A crash fails the test with its traceback: click's runner would otherwise catch the
    exception and report exit code 1, which is also slidelab's "unsolvable" code, so that
    ``assert result.exit_code == 1`` would pass on a traceback.  Only ``SystemExit`` (the
    command's own exit codes, click's usage errors) comes back as an exit code.  Arguments are
    passed through ``str`` (boards, numbers, paths)."""
    from slidelab.cli import main

    def run(*args, input=None) -> Result:
        return CliRunner().invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)

    return run
