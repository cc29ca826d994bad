"""pytest plugin of repocod-kit's runner: the coverage map of a mining run.

Coverage.py is already running (coverage_boot/sitecustomize.py started it before pytest). This plugin
switches its dynamic context to the running test's node id for the test's whole protocol (setup, call,
teardown), and to `fixture:<baseid>::<name>` while a fixture wider than a function is set up, because
such a fixture runs once, inside whichever test needs it first, yet every test that uses it depends
on it. Lines run outside any test (imports, collection, plugins) keep the empty context. The project's
lru_cache wrappers are emptied before each test, so that a cached result does not hide who calls them.

With "shard": {"index", "count"} in the plan, only that shard of the tests runs (whole classes and modules), so that one
coverage run can be spread over several workers. At the end it reads the data of this process and of
its children and writes, for each target function of $REPOCOD_PLUGIN_INPUT (JSON: {"packageRoot": ".",
"targets": [{"id", "file", "bodyStart", "bodyEnd"}], "shard": …}), one JSON line to
$REPOCOD_ARTIFACT_FILE:

  {"id": ..., "tests": [node ids], "subprocessTests": [node ids], "importTime": bool}

`tests` holds the tests whose context ran a line of the body, the users of a wider fixture that ran
one included; `subprocessTests` those whose child processes ran one; `importTime` says that a body line
ran outside any test, where only a whole-suite run can tell what a change would break.
"""
import glob
import json
import os

import pytest

from repocod_paths import repository_root
from repocod_protocol import ENV, check_shape

_FIXTURE_PREFIX = "fixture:"
_SUB_PREFIX = "sub:"


class CoverageContexts:
    def __init__(self, cov, shard):
        self.cov = cov
        self.shard = shard
        self.current = ""
        self.stack = []
        self.fixtures_of = {}
        self.caches = []

    def switch(self, context):
        self.current = context
        self.cov.switch_context(context)
        # Children started from now on attribute their lines to this context.
        os.environ[ENV["coverageContext"]] = context

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        if self.shard is not None:
            keep_shard(config, items, *self.shard)
        for item in items:
            self.fixtures_of[item.nodeid] = set(getattr(item, "fixturenames", ()))
        self.caches = project_caches()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item):
        # A result cached by an earlier test would hide that this test depends on the function:
        # emptied, the cache makes the body run (and be seen) in every test that calls it.
        for cache in self.caches:
            cache.cache_clear()
        self.switch(item.nodeid)
        yield
        self.switch("")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef):
        if fixturedef.scope == "function":
            yield
            return
        previous = self.current
        self.switch(f"{_FIXTURE_PREFIX}{fixturedef.baseid}::{fixturedef.argname}")
        try:
            yield
        finally:
            self.switch(previous)

    def users_of_fixture(self, context):
        baseid, _, argname = context[len(_FIXTURE_PREFIX):].rpartition("::")
        return {
            nodeid
            for nodeid, names in self.fixtures_of.items()
            if argname in names
            and (
                baseid == ""
                or nodeid == baseid
                or nodeid.startswith(baseid.rstrip("/") + "/")
                or nodeid.startswith(baseid + "::")
            )
        }

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session):
        self.cov.stop()
        self.cov.save()
        input_path = os.environ.get(ENV["pluginInput"])
        artifact = os.environ.get(ENV["artifactFile"])
        if not input_path or not artifact:
            return
        with open(input_path, encoding="utf-8") as handle:
            plan = json.load(handle)
        check_shape("coveragePlan", plan, input_path)
        for target in plan["targets"]:
            check_shape("coverageTarget", target, input_path)
        repo_root = repository_root(os.getcwd(), plan.get("packageRoot", "."))
        import coverage

        datas = []
        for path in sorted(glob.glob(os.path.join(os.environ[ENV["coverageDir"]], "coverage*"))):
            data = coverage.CoverageData(basename=path)
            data.read()
            datas.append(data)
        by_file = {}
        with open(artifact, "w", encoding="utf-8") as out:
            for target in plan["targets"]:
                path = os.path.realpath(os.path.join(repo_root, target["file"]))
                if path not in by_file:
                    by_file[path] = contexts_by_line(datas, path)
                lines = by_file[path]
                tests, sub_tests, import_time = set(), set(), False
                for lineno in range(target["bodyStart"], target["bodyEnd"] + 1):
                    for context in lines.get(lineno, ()):
                        if context == "":
                            import_time = True
                        elif context.startswith(_SUB_PREFIX):
                            inner = context[len(_SUB_PREFIX):]
                            if inner == "":
                                import_time = True
                            elif inner.startswith(_FIXTURE_PREFIX):
                                sub_tests |= self.users_of_fixture(inner)
                            else:
                                sub_tests.add(inner)
                        elif context.startswith(_FIXTURE_PREFIX):
                            tests |= self.users_of_fixture(context)
                        else:
                            tests.add(context)
                entry = {
                    "id": target["id"],
                    "tests": sorted(tests),
                    "subprocessTests": sorted(sub_tests),
                    "importTime": import_time,
                }
                out.write(json.dumps(entry) + "\n")


def contexts_by_line(datas, path):
    merged = {}
    for data in datas:
        for measured in data.measured_files():
            if os.path.realpath(measured) != path:
                continue
            for lineno, contexts in data.contexts_by_lineno(measured).items():
                merged.setdefault(lineno, set()).update(contexts)
    return merged


def project_caches():
    """The functools.lru_cache (and functools.cache) wrappers of the measured project's functions."""
    import functools
    import gc

    roots = [root for root in os.environ.get(ENV["coverageInclude"], "").split(os.pathsep) if root]
    caches = []
    for obj in gc.get_objects():
        # type(), not isinstance(): a weak proxy whose referent is gone raises on any attribute lookup.
        if type(obj) is functools._lru_cache_wrapper:
            code = getattr(getattr(obj, "__wrapped__", None), "__code__", None)
            if code is not None and any(os.path.realpath(code.co_filename).startswith(root + os.sep) for root in roots):
                caches.append(obj)
    return caches


def pytest_configure(config):
    import coverage

    cov = coverage.Coverage.current()
    if cov is None:
        raise pytest.UsageError(
            "repocod_coverage: coverage is not running; the runner starts it through coverage_boot/sitecustomize.py"
        )
    shard = None
    input_path = os.environ.get(ENV["pluginInput"])
    if input_path:
        with open(input_path, encoding="utf-8") as handle:
            found = json.load(handle).get("shard")
        if found is not None:
            shard = (found["index"], found["count"])
    config.pluginmanager.register(CoverageContexts(cov, shard), "repocod-coverage-contexts")


def keep_shard(config, items, index, count):
    """Keeps shard `index` of `count`: the tests' parents (a class, else a module) dealt round-robin in
    collection order, so that a class's or a module's plain functions stay together, in their order."""
    groups = {}
    for item in items:
        groups.setdefault(item.nodeid.rsplit("::", 1)[0], len(groups))
    kept = [item for item in items if groups[item.nodeid.rsplit("::", 1)[0]] % count == index]
    dropped = [item for item in items if groups[item.nodeid.rsplit("::", 1)[0]] % count != index]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept
