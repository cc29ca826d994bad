"""Starts coverage.py in every Python process of a coverage-map run, before anything is imported.

The runner puts this folder first on PYTHONPATH only for coverage-map runs (REPOCOD_COVERAGE_DIR set).
Starting here rather than in a pytest plugin matters twice: lines a package runs when it is first
imported (possibly by another plugin, before ours loads) are measured, and so are the child Python
processes a test starts (a CLI run through subprocess), which inherit PYTHONPATH and the environment.

The first process to get here is pytest itself; it records its pid so that children can tell they
are children. A child's lines are attributed to the test that was running in the parent when it
started (REPOCOD_COVERAGE_CONTEXT, kept current by the repocod_coverage plugin), prefixed `sub:`.
"""
import atexit
import os


def measured_files(ENV):
    """The files of the plan's target functions: tracing nothing else keeps the run fast."""
    import json

    plan_path = os.environ.get(ENV["pluginInput"])
    root = os.environ.get(ENV["coverageInclude"])
    if not plan_path or not root:
        return []
    try:
        with open(plan_path, encoding="utf-8") as handle:
            plan = json.load(handle)
    except (OSError, ValueError):
        return []
    from repocod_paths import repository_root  # the harness folder follows this one on PYTHONPATH

    repo_root = repository_root(root, plan.get("packageRoot", "."))
    return sorted({os.path.join(repo_root, target["file"]) for target in plan.get("targets", [])})


def _start():
    try:
        from repocod_protocol import ENV  # the harness folder follows this one on PYTHONPATH
    except ImportError:
        return
    data_dir = os.environ.get(ENV["coverageDir"])
    if not data_dir:
        return
    try:
        import coverage
    except ImportError:
        return
    main_pid = os.environ.get(ENV["coverageMainPid"])
    if main_pid is None:
        os.environ[ENV["coverageMainPid"]] = str(os.getpid())
        context = ""
    else:
        context = "sub:" + os.environ.get(ENV["coverageContext"], "")
    roots = [root for root in os.environ.get(ENV["coverageInclude"], "").split(os.pathsep) if root]
    include = measured_files(ENV) or [os.path.join(root, "*") for root in roots]
    cov = coverage.Coverage(
        data_file=os.path.join(data_dir, "coverage"),
        data_suffix=True,
        config_file=False,
        include=include or None,
        context=context,
    )
    cov.start()

    def _save():
        cov.stop()
        cov.save()

    atexit.register(_save)


_start()
