"""The command line is only ever run in a child process here, as users run it.

``inventory.cli.main`` is deliberately not imported by any test: these tests
reach it through ``python -c``, so a tool that traces calls in the test
process alone will not see it.
"""

import subprocess
import sys

import pytest


def run_cli(project_root, *args):
    code = f"import sys, inventory.cli; sys.exit(inventory.cli.main({list(args)!r}))"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=project_root,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def stock_csv(tmp_path):
    path = tmp_path / "bins.csv"
    path.write_text("sku,qty,bin\nBOLT-M8,60,A-01\nBOLT-M8,40,B-02\nGLUE-50,2,\nNUT-M8,3,A-01\n", encoding="utf-8")
    return path


def test_tax_command(project_root):
    result = run_cli(project_root, "tax", "100.00", "DE")
    assert (result.returncode, result.stdout, result.stderr) == (0, "19.00\n", "")


def test_stock_command_lists_low_skus(project_root, stock_csv):
    result = run_cli(project_root, "stock", str(stock_csv), "--threshold", "5")
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["SKU      Units", "-------  -----", "GLUE-50      2", "NUT-M8       3"]


def test_stock_command_strict_exit_status(project_root, stock_csv):
    assert run_cli(project_root, "stock", str(stock_csv), "--threshold", "5", "--strict").returncode == 1
    quiet = run_cli(project_root, "stock", str(stock_csv), "--strict")
    assert (quiet.returncode, quiet.stdout) == (0, "nothing at or below 0 units\n")


@pytest.mark.parametrize(
    "args, message",
    [
        (("tax", "100", "Atlantis"), "error: no tax rate known for region 'Atlantis'"),
        (("tax", "lots", "DE"), "error: "),
        (("stock", "does-not-exist.csv"), "error: no such file: does-not-exist.csv"),
    ],
)
def test_user_errors_exit_with_2(project_root, args, message):
    result = run_cli(project_root, *args)
    assert result.returncode == 2
    assert result.stderr.startswith(message)
    assert "Traceback" not in result.stderr
