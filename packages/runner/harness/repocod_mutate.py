"""pytest plugin of repocod-kit's runner: many mining mutations in one pytest process.

For each target of $REPOCOD_PLUGIN_INPUT (JSON: {"packageRoot": ".", "targets": [{"id", "file",
"name", "qualname", "firstLine", "bodyStart", "bodyEnd", "replacement", "tests", "onDisk"}]}) it swaps the
function's code object for one compiled from the mutated source (the body lines bodyStart..bodyEnd
replaced by `replacement`, exactly the text the runner's file patch writes) and, with "onDisk", also
writes that source to the file for the tests' child processes; runs the target's tests
as a small session of their own (collection order, shared fixtures set up and torn down as pytest
would), and puts the original code back. pytest starts and collects once for all targets.

The swap changes the code of the live function objects, so references taken at import time (a
registry, a decorator's closure, `from m import f`) see the mutation too. A nested function is
reached through the code of the functions that enclose it. `functools.lru_cache` wrappers of the
target are cleared before and after, so no result cached from earlier runs hides the mutation.

When a target cannot be swapped (no code object: a C extension; a module that cannot be imported;
free variables the mutated code cannot share) its record says `unswappable` with the reason, and the
runner falls back to one process per mutation with the file patched on disk. One JSON line per
target goes to $REPOCOD_ARTIFACT_FILE as soon as it is done, so a killed process keeps the rest:

  {"id": ..., "status": "ok", "outcomes": {node id: outcome}}  |  {"id": ..., "status": "unswappable", "reason": ...}
"""
import ast
import functools
import gc
import importlib
import json
import os
import sys
import time
import types

import pytest

from repocod_paths import repository_root
from repocod_protocol import ENV, check_shape


class Unswappable(Exception):
    pass


class RealPaths:
    """os.path.realpath is a system call per path; code objects repeat the same few file names."""

    def __init__(self):
        self.cache = {}

    def __call__(self, path):
        found = self.cache.get(path)
        if found is None:
            found = self.cache[path] = os.path.realpath(path)
        return found


def module_for_file(path, realpath):
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if file and realpath(file) == path:
            return module
    return None


def import_file(path, realpath):
    """Imports the module of `path` through the import path, as the tests would, unless it is loaded."""
    if module_for_file(path, realpath) is not None:
        return
    best = None
    for entry in sys.path:
        root = realpath(entry or os.getcwd())
        if path.startswith(root + os.sep):
            relative = os.path.relpath(path, root)
            if best is None or len(relative) < len(best):
                best = relative
    if best is None:
        raise Unswappable(f"{path} is not under any entry of sys.path")
    parts = best[: -len(".py")].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    name = ".".join(parts)
    try:
        importlib.import_module(name)
    except BaseException as error:  # noqa: BLE001 - any failure means: not swappable here
        raise Unswappable(f"importing {name} failed: {type(error).__name__}: {error}") from None


def nested_codes(code):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const


def mutated_file(lines, target, extra=()):
    """The file's bytes with the body replaced, as the runner's patch writes them (plus `extra` lines)."""
    start, end = target["bodyStart"], target["bodyEnd"]
    if end >= start:
        last = lines[end - 1]
        ending = last[len(last.rstrip(b"\r\n")):]
        head, tail = lines[: start - 1], lines[end:]
    else:
        previous = lines[start - 2] if start >= 2 else b""
        ending = previous[len(previous.rstrip(b"\r\n")):]
        if ending == b"":
            # A docstring on the file's last line without a newline: the patch gives it one.
            head, ending = lines[: start - 2] + [previous + b"\n"], b"\n"
        else:
            head = lines[: start - 1]
        tail = lines[start - 1:]
    new = [(target["replacement"]).encode("utf-8") + ending]
    new += [line.encode("utf-8") + (ending or b"\n") for line in extra]
    return b"".join(head) + b"".join(new) + b"".join(tail)


_TOP_LEVEL_SPANS = {}
# The compiler flags that `from __future__ import …` leaves in a code object's co_flags.
_FUTURE_FLAGS = 0
for _name in __import__("__future__").all_feature_names:
    _FUTURE_FLAGS |= getattr(__import__("__future__"), _name).compiler_flag


def top_level_span(path, source, line):
    """First and last line of the module-level statement (decorators included) that holds `line`."""
    spans = _TOP_LEVEL_SPANS.get(path)
    if spans is None:
        spans = []
        for node in ast.parse(source).body:
            start = min([node.lineno] + [decorator.lineno for decorator in getattr(node, "decorator_list", ())])
            spans.append((start, node.end_lineno))
        _TOP_LEVEL_SPANS[path] = spans
    for start, end in spans:
        if start <= line <= end:
            return start, end
    raise Unswappable(f"line {line} is in no module-level statement")


def mutated_code(path, target, original):
    """The target's code compiled from the mutated file, sharing the original's free variables.

    Only the module-level statement around the target is compiled (a whole large module costs tens of
    milliseconds per target), behind blank lines that keep every line number, with the original's
    `from __future__` flags.
    """
    with open(path, "rb") as handle:
        source = handle.read()
    lines = source.splitlines(keepends=True)
    replacement = target["replacement"]
    indent = replacement[: len(replacement) - len(replacement.lstrip())]
    extra = []
    if original.co_freevars:
        # Unreachable, but the compiler still makes these names free variables, so the mutated code
        # takes the same closure cells as the original and can replace it.
        extra.append(indent + "(" + ", ".join(original.co_freevars) + ",)")
    try:
        start, end = top_level_span(path, source, target["firstLine"])
    except SyntaxError as error:
        raise Unswappable(f"the file does not parse: {error}") from None
    mutated = mutated_file(lines, target, extra).splitlines(keepends=True)
    # The statement grew or shrank by the lines the replacement added or removed.
    grown = len(mutated) - len(lines)
    snippet = b"\n" * (start - 1) + b"".join(mutated[start - 1 : end + grown])
    try:
        flags = original.co_flags & _FUTURE_FLAGS
        module_code = compile(snippet, original.co_filename, "exec", flags=flags, dont_inherit=True)
    except SyntaxError as error:
        raise Unswappable(f"the mutated file does not compile: {error}") from None
    stack = [module_code]
    while stack:
        code = stack.pop()
        if (
            code.co_name == original.co_name
            and code.co_firstlineno == original.co_firstlineno
            and getattr(code, "co_qualname", None) == getattr(original, "co_qualname", None)
        ):
            if code.co_freevars != original.co_freevars:
                raise Unswappable(f"free variables differ: {original.co_freevars} vs {code.co_freevars}")
            return code
        stack.extend(nested_codes(code))
    raise Unswappable("the mutated code object was not found after compiling")


class Swap:
    """The code objects to change for one target, and how to put them back."""

    def __init__(self, target, repo_root, realpath):
        self.target = target
        self.original_bytes = None
        self.path = path = realpath(os.path.join(repo_root, target["file"]))
        import_file(path, realpath)
        functions_by_code = {}
        for obj in gc.get_objects():
            if type(obj) is types.FunctionType and realpath(obj.__code__.co_filename) == path:
                functions_by_code.setdefault(id(obj.__code__), []).append(obj)
        # Every code object of this file reachable from a live function, with its enclosing code.
        parents = {}
        codes = {}
        stack = [functions[0].__code__ for functions in functions_by_code.values()]
        while stack:
            code = stack.pop()
            if id(code) in codes:
                continue
            codes[id(code)] = code
            for child in nested_codes(code):
                parents.setdefault(id(child), []).append(code)
                stack.append(child)
        originals = [
            code
            for code in codes.values()
            if code.co_name == target["name"]
            and code.co_firstlineno == target["firstLine"]
            and getattr(code, "co_qualname", target["qualname"]) == target["qualname"]
        ]
        if not originals:
            where = f"{target['qualname']} (line {target['firstLine']})"
            raise Unswappable(f"no code object of {where} is alive in this process")
        self.changes = []  # (function, original code, new code)
        self.wrappers = []
        for original in originals:
            self.plan(original, mutated_code(path, target, original), functions_by_code, parents)
        swapped = {id(function) for function, _, _ in self.changes}
        for obj in gc.get_objects():
            # type(), not isinstance(): gc hands out weak proxies whose referent is gone, and any
            # attribute lookup on those (isinstance reads __class__) raises ReferenceError.
            if type(obj) is functools._lru_cache_wrapper and id(unwrap(obj)) in swapped:
                self.wrappers.append(obj)
        if not self.changes:
            raise Unswappable(f"no live function runs the code of {target['qualname']}")

    def plan(self, original, replacement, functions_by_code, parents):
        for function in functions_by_code.get(id(original), ()):
            self.changes.append((function, original, replacement))
        for parent in parents.get(id(original), ()):
            consts = tuple(replacement if const is original else const for const in parent.co_consts)
            self.plan(parent, parent.replace(co_consts=consts), functions_by_code, parents)

    def apply(self):
        self.clear_caches()
        for function, _, replacement in self.changes:
            function.__code__ = replacement
        if self.target.get("onDisk"):
            # Child processes import the module from disk: they get the mutation from the file,
            # byte for byte what the runner's patch writes.
            with open(self.path, "rb") as handle:
                self.original_bytes = handle.read()
            with open(self.path, "wb") as handle:
                handle.write(mutated_file(self.original_bytes.splitlines(keepends=True), self.target))

    def restore(self):
        for function, original, _ in self.changes:
            function.__code__ = original
        self.clear_caches()
        if self.original_bytes is not None:
            with open(self.path, "wb") as handle:
                handle.write(self.original_bytes)
            self.original_bytes = None

    def clear_caches(self):
        for wrapper in self.wrappers:
            wrapper.cache_clear()


def unwrap(function):
    seen = set()
    while hasattr(function, "__wrapped__") and id(function) not in seen:
        seen.add(id(function))
        function = function.__wrapped__
    return function


class QuietReports:
    """Keeps the mutation runs' reports out of pytest's own report log and final summary.

    Every target reruns tests that mostly fail: pytest-reportlog would serialize each failure's whole
    traceback and the terminal would print them all at the end, which costs far more than the runs
    (over a minute for flask's 82 functions). The reports still go to every other plugin, and to this
    one, which records the outcomes. The report log gets its plugin back for the session's end.
    """

    def __init__(self, config):
        self.config = config
        plugins = config.pluginmanager.get_plugins()
        self.reportlog = [plugin for plugin in plugins if type(plugin).__name__ == "ReportLogPlugin"]

    def __enter__(self):
        for plugin in self.reportlog:
            self.config.pluginmanager.unregister(plugin)

    def __exit__(self, *exc_info):
        for plugin in self.reportlog:
            self.config.pluginmanager.register(plugin)
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        if terminal is not None:
            for key in ("failed", "error", "passed", "skipped", "xfailed", "xpassed", ""):
                terminal.stats.pop(key, None)
        return False


class MutationRunner:
    def __init__(self, plan, artifact):
        self.plan = plan
        self.artifact = artifact
        self.outcomes = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        if session.testsfailed and not session.config.option.continue_on_collection_errors:
            plural = "s" if session.testsfailed != 1 else ""
            raise session.Interrupted(f"{session.testsfailed} error{plural} during collection")
        repo_root = repository_root(str(session.config.invocation_params.dir), self.plan.get("packageRoot", "."))
        order = {item.nodeid: index for index, item in enumerate(session.items)}
        items = {item.nodeid: item for item in session.items}
        realpath = RealPaths()
        quiet = QuietReports(session.config)
        with open(self.artifact, "w", encoding="utf-8") as out:
            for target in self.plan["targets"]:
                with quiet:
                    record = self.run_target(target, items, order, repo_root, realpath)
                out.write(json.dumps(record) + "\n")
                out.flush()
        return True

    def run_target(self, target, items, order, repo_root, realpath):
        started = time.perf_counter()
        record = self.mutate_and_run(target, items, order, repo_root, realpath)
        record["seconds"] = round(time.perf_counter() - started, 4)
        return record

    def mutate_and_run(self, target, items, order, repo_root, realpath):
        try:
            swap = Swap(target, repo_root, realpath)
        except Unswappable as error:
            return {"id": target["id"], "status": "unswappable", "reason": str(error)}
        except Exception as error:  # noqa: BLE001 - one target's trouble must not end the batch
            reason = f"finding its code failed: {type(error).__name__}: {error}"
            return {"id": target["id"], "status": "unswappable", "reason": reason}
        listed = (items[nodeid] for nodeid in set(target["tests"]) if nodeid in items)
        selected = sorted(listed, key=lambda item: order[item.nodeid])
        self.outcomes = {}
        try:
            try:
                swap.apply()
            except Exception as error:  # noqa: BLE001 - restored below; the runner falls back for it
                reason = f"swapping its code failed: {type(error).__name__}: {error}"
                return {"id": target["id"], "status": "unswappable", "reason": reason}
            for index, item in enumerate(selected):
                nextitem = selected[index + 1] if index + 1 < len(selected) else None
                item.ihook.pytest_runtest_protocol(item=item, nextitem=nextitem)
            outcomes = {nodeid: self.outcomes.get(nodeid, "missing") for nodeid in target["tests"]}
        finally:
            swap.restore()
            self.outcomes = None
        return {"id": target["id"], "status": "ok", "outcomes": outcomes}

    def pytest_runtest_logreport(self, report):
        if self.outcomes is None:
            return
        # The phases combine as in the runner's report reader (pytest-report.ts).
        current = self.outcomes.get(report.nodeid, "passed")
        xfail = hasattr(report, "wasxfail")
        if report.when == "call":
            if report.outcome == "failed":
                current = "failed"
            elif report.outcome == "skipped":
                current = "xfailed" if xfail else "skipped"
            elif xfail:
                current = "xpassed"
        elif report.outcome == "failed":
            current = "error"
        elif report.outcome == "skipped" and report.when == "setup":
            current = "xfailed" if xfail else "skipped"
        self.outcomes[report.nodeid] = current


def pytest_configure(config):
    input_path = os.environ.get(ENV["pluginInput"])
    artifact = os.environ.get(ENV["artifactFile"])
    if not input_path or not artifact:
        needed = f"{ENV['pluginInput']} and {ENV['artifactFile']}"
        raise pytest.UsageError(f"repocod_mutate needs {needed} (set by the runner)")
    with open(input_path, encoding="utf-8") as handle:
        plan = json.load(handle)
    try:
        check_shape("mutationPlan", plan, input_path)
        for target in plan["targets"]:
            check_shape("mutationTarget", target, input_path)
    except ValueError as error:
        raise pytest.UsageError(f"repocod_mutate: {error}") from None
    config.pluginmanager.register(MutationRunner(plan, artifact), "repocod-mutation-runner")
