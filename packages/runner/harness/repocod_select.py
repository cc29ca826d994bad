"""pytest plugin of repocod-kit's runner: run exactly the node ids listed in $REPOCOD_SELECT_FILE.

Giving node ids to pytest directly makes one unknown id stop the whole run ("ERROR: not found"),
so the runner gives pytest the files and this plugin deselects every collected test that is not
listed. A listed id that pytest never collects is then reported by the runner as "missing".
"""
import os
from repocod_protocol import ENV


def pytest_collection_modifyitems(config, items):
    path = os.environ.get(ENV["selectFile"])
    if not path:
        return
    with open(path, encoding="utf-8") as handle:
        wanted = {line.rstrip("\n") for line in handle if line.strip()}
    selected = [item for item in items if item.nodeid in wanted]
    deselected = [item for item in items if item.nodeid not in wanted]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
    items[:] = selected
