import os
import subprocess
import sys

from edgecases.core import REGISTRY, add_two, countdown, fib, flaky_target


def test_registry_double():
    assert REGISTRY["double"](21) == 42


def test_add_two():
    assert add_two(40) == 42


def test_fib_small():
    assert fib(10) == 55


def test_fib_again_from_cache():
    assert fib(10) == 55


def test_countdown():
    assert list(countdown(3)) == [3, 2, 1]


def test_config_name(config):
    assert config["name"] == "edge"


def test_config_size(config):
    assert config["size"] == 3


def test_without_config():
    assert True


def test_shout_in_child_process():
    code = "from edgecases.core import shout; print(shout('hi'))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout == "HI!\n", result.stderr


def test_flaky():
    """Fails on every other run: a counter in a file outside the working copy, shared by all runs."""
    flaky_target()
    path = os.environ.get("EDGE_FLAKY_FILE")
    if path is None:
        return
    import fcntl

    with open(path, "a+", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        count = len(handle.read()) + 1
        handle.write("x")
    assert count % 2 == 1, f"run {count} of this test fails, as every even one does"
