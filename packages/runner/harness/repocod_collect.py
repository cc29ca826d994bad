"""pytest plugin of repocod-kit's runner: the node ids a run collected, one per line, in $REPOCOD_ARTIFACT_FILE.

pytest-reportlog does not serialise what a collector found, so a `--collect-only` run would otherwise
tell which modules failed to collect but not which tests are there. Mining's import-time route needs
the latter: the tests a mutation makes uncollectable. The file is written once collection is over
(with --continue-on-collection-errors, also when some modules failed); a run that stops before that
(a conftest that cannot be imported) leaves no file: nothing was collected.
"""
import os
from repocod_protocol import ENV


def pytest_collection_finish(session):
    path = os.environ.get(ENV["artifactFile"])
    if not path:
        return
    with open(path, "w", encoding="utf-8") as out:
        out.writelines(item.nodeid + "\n" for item in session.items)
