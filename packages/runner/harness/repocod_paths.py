"""Paths shared by the runner's harness plugins."""
import os


def repository_root(project_dir, package_root):
    """The working copy's root: the project folder (pytest's working directory) is `package_root` below it."""
    depth = len([part for part in os.path.normpath(package_root).split(os.sep) if part not in ("", ".")])
    root = project_dir
    for _ in range(depth):
        root = os.path.dirname(root)
    return root
