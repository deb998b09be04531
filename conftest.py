"""pytest set-up shared by the tests (``tests/``) and the docstring examples (``slidelab/``).

The docstring examples run with ``SLIDELAB_CACHE`` pointing at a temporary directory of the test
session, so that the tables they build stay apart from the user's own and the examples the API
reference shows need no scaffolding (a temporary directory, a patched environment) to say so.
An example that wants an empty cache of its own still sets one.
"""

import os
import tempfile

import pytest

# this machine's record of its builds' times (slidelab.calibration) kept apart for the run:
# estimates in the tests are the models' own, whatever ran before
os.environ.setdefault(
    "SLIDELAB_TIMINGS", os.path.join(tempfile.mkdtemp(prefix="slidelab-timings-"), "timings.json")
)


@pytest.fixture(scope="session")
def _doctest_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("doctest-cache")


@pytest.fixture(autouse=True)
def _doctests_use_a_cache_of_their_own(request, monkeypatch):
    if isinstance(request.node, pytest.DoctestItem):
        monkeypatch.setenv("SLIDELAB_CACHE", str(request.getfixturevalue("_doctest_cache")))
