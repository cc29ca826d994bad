"""The runner's pytest plugins (packages/runner/harness), each run by a real pytest on a small project.

The TypeScript side reads what these plugins write; these tests hold each plugin to its side of that
protocol (see docs/architecture.md, "The harness protocol"): the environment variables it reads, the
JSON plan it takes and the lines it writes. pytester runs each session in a subprocess, as the runner
does, with the harness folder on PYTHONPATH.
"""
import glob
import json
import os
import re
import sys

import pytest

pytest_plugins = ["pytester"]

HARNESS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "harness")
sys.path.insert(0, HARNESS)

from repocod_protocol import ENV, PROTOCOL  # noqa: E402  (the harness folder first)

MODULE = '''\
def double(x):
    """Twice x."""
    return x * 2


class Shelf:
    def count(self, items):
        """How many."""
        return len(items)
'''

TESTS = '''\
from mod import Shelf, double


def test_double():
    assert double(2) == 4


def test_count():
    assert Shelf().count([1, 2]) == 2


def test_unrelated():
    assert True
'''


@pytest.fixture
def project(pytester, monkeypatch):
    pytester.makepyfile(mod=MODULE, test_mod=TESTS)
    monkeypatch.setenv("PYTHONPATH", HARNESS + os.pathsep + str(pytester.path))
    return pytester


def test_select_runs_exactly_the_listed_node_ids(project, monkeypatch, tmp_path):
    listed = tmp_path / "select.txt"
    listed.write_text("test_mod.py::test_count\ntest_mod.py::test_not_there\n", encoding="utf-8")
    monkeypatch.setenv(ENV["selectFile"], str(listed))
    result = project.runpytest_subprocess("-p", "repocod_select", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, deselected=2)


def test_collect_writes_every_collected_node_id(project, monkeypatch, tmp_path):
    artifact = tmp_path / "collected.txt"
    monkeypatch.setenv(ENV["artifactFile"], str(artifact))
    project.runpytest_subprocess("-p", "repocod_collect", "-p", "no:cacheprovider", "--collect-only")
    assert artifact.read_text(encoding="utf-8").splitlines() == [
        "test_mod.py::test_double",
        "test_mod.py::test_count",
        "test_mod.py::test_unrelated",
    ]


def mutation(target_id, name, qualname, first_line, body_line, tests):
    return {
        "id": target_id,
        "file": "mod.py",
        "name": name,
        "qualname": qualname,
        "firstLine": first_line,
        "bodyStart": body_line,
        "bodyEnd": body_line,
        "replacement": " " * (4 if qualname == name else 8) + "raise AssertionError('the body was removed')",
        "tests": tests,
        "onDisk": False,
    }


def run_mutations(project, monkeypatch, tmp_path, targets):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"packageRoot": ".", "targets": targets}), encoding="utf-8")
    artifact = tmp_path / "mutations.jsonl"
    monkeypatch.setenv(ENV["pluginInput"], str(plan))
    monkeypatch.setenv(ENV["artifactFile"], str(artifact))
    project.runpytest_subprocess("-p", "repocod_mutate", "-p", "no:cacheprovider")
    return [json.loads(line) for line in artifact.read_text(encoding="utf-8").splitlines()]


def test_mutate_runs_each_targets_tests_with_its_body_removed_then_puts_it_back(project, monkeypatch, tmp_path):
    targets = [
        mutation("double", "double", "double", 1, 3, ["test_mod.py::test_double", "test_mod.py::test_unrelated"]),
        mutation("count", "count", "Shelf.count", 7, 9, ["test_mod.py::test_count", "test_mod.py::test_gone"]),
        # After the first two: their code must be back for this one's run of the same tests.
        mutation("unrelated", "test_unrelated", "test_unrelated", 99, 99, ["test_mod.py::test_double"]),
    ]
    records = run_mutations(project, monkeypatch, tmp_path, targets)
    assert [record["id"] for record in records] == ["double", "count", "unrelated"]
    assert records[0]["status"] == "ok"
    assert records[0]["outcomes"] == {"test_mod.py::test_double": "failed", "test_mod.py::test_unrelated": "passed"}
    assert records[1]["outcomes"] == {"test_mod.py::test_count": "failed", "test_mod.py::test_gone": "missing"}
    assert all(record["seconds"] >= 0 for record in records[:2])
    # No code object of that name starts on line 99: unswappable, with why, and the batch goes on.
    assert records[2]["status"] == "unswappable"
    assert "line 99" in records[2]["reason"]


def test_mutate_leaves_the_file_on_disk_as_it_was(project, monkeypatch, tmp_path):
    before = (project.path / "mod.py").read_bytes()
    target = mutation("double", "double", "double", 1, 3, ["test_mod.py::test_double"])
    target["onDisk"] = True
    records = run_mutations(project, monkeypatch, tmp_path, [target])
    assert records[0]["outcomes"] == {"test_mod.py::test_double": "failed"}
    assert (project.path / "mod.py").read_bytes() == before


def test_mutate_refuses_to_start_without_its_plan(project):
    result = project.runpytest_subprocess("-p", "repocod_mutate", "-p", "no:cacheprovider")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*repocod_mutate needs REPOCOD_PLUGIN_INPUT and REPOCOD_ARTIFACT_FILE*"])


def test_mutate_names_the_fields_a_plan_target_lacks(project, monkeypatch, tmp_path):
    target = mutation("double", "double", "double", 1, 3, ["test_mod.py::test_double"])
    del target["bodyEnd"]
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"packageRoot": ".", "targets": [target]}), encoding="utf-8")
    monkeypatch.setenv(ENV["pluginInput"], str(plan))
    monkeypatch.setenv(ENV["artifactFile"], str(tmp_path / "mutations.jsonl"))
    result = project.runpytest_subprocess("-p", "repocod_mutate", "-p", "no:cacheprovider")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*plan.json: a mutationTarget without bodyEnd (the harness protocol*"])


def test_the_plugins_read_their_environment_through_the_protocol_only():
    sources = glob.glob(os.path.join(HARNESS, "*.py")) + glob.glob(os.path.join(HARNESS, "*", "*.py"))
    named = set(ENV.values())
    for path in sources:
        text = open(path, encoding="utf-8").read()
        # In code, a variable's name comes from ENV; docstrings may name one, and it must be the protocol's.
        assert not re.findall(r'environ[^\n]*"REPOCOD_[A-Z_]+"', text), path
        assert set(re.findall(r"REPOCOD_[A-Z_]+", text)) <= named, path


def test_this_files_mutation_helper_keeps_the_protocol():
    target = mutation("double", "double", "double", 1, 3, [])
    assert sorted(target) == sorted(PROTOCOL["shapes"]["mutationTarget"])


def test_coverage_maps_each_target_body_to_the_tests_that_ran_it(project, monkeypatch, tmp_path):
    plan = tmp_path / "plan.json"
    targets = [
        {"id": "double", "file": "mod.py", "bodyStart": 3, "bodyEnd": 3},
        {"id": "count", "file": "mod.py", "bodyStart": 9, "bodyEnd": 9},
    ]
    plan.write_text(json.dumps({"packageRoot": ".", "targets": targets}), encoding="utf-8")
    artifact = tmp_path / "coverage.jsonl"
    data = tmp_path / "coverage-data"
    data.mkdir()
    boot = os.path.join(HARNESS, "coverage_boot")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([boot, HARNESS, str(project.path)]))
    monkeypatch.setenv(ENV["pluginInput"], str(plan))
    monkeypatch.setenv(ENV["artifactFile"], str(artifact))
    monkeypatch.setenv(ENV["coverageDir"], str(data))
    monkeypatch.setenv(ENV["coverageInclude"], os.path.realpath(project.path))
    monkeypatch.delenv(ENV["coverageMainPid"], raising=False)
    result = project.runpytest_subprocess("-p", "repocod_coverage", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3)
    records = {record["id"]: record for record in map(json.loads, artifact.read_text(encoding="utf-8").splitlines())}
    expected = {"id": "double", "tests": ["test_mod.py::test_double"], "subprocessTests": [], "importTime": False}
    assert records["double"] == expected
    assert records["count"]["tests"] == ["test_mod.py::test_count"]


def test_coverage_refuses_to_start_when_coverage_is_not_running(project):
    result = project.runpytest_subprocess("-p", "repocod_coverage", "-p", "no:cacheprovider")
    assert result.ret != 0
    result.stderr.fnmatch_lines(["*repocod_coverage: coverage is not running*"])
