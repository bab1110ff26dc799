"""Where numba keeps the compiled kernels: under the library's cache directory, never in
the package's ``__pycache__`` (which ``pip uninstall`` leaves behind), unless the user set
``NUMBA_CACHE_DIR``; and an unusable directory costs a warning, not the import.

Each case runs in a fresh interpreter: numba's cache directory is decided when the
kernels are decorated, once per process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import qwixx_math

ROOT = Path(qwixx_math.__file__).resolve().parent.parent

# A kernel of the script's own (quick to compile) and where the solver's kernel is cached.
SCRIPT = textwrap.dedent("""
    import warnings
    warnings.simplefilter("always")
    from qwixx_math.jit import jit
    from qwixx_math.solver import kernel

    @jit()
    def plus_one(x):
        return x + 1

    print(plus_one(41))
    print(kernel.solve_batch.stats.cache_path)
    print(kernel.__file__)
""")


def run(tmp_path: Path, env: dict[str, str], script: str = SCRIPT) -> tuple[list[str], str]:
    path = tmp_path / "probe.py"
    path.write_text(script)
    clean = {k: v for k, v in os.environ.items()
             if k not in ("NUMBA_CACHE_DIR", "QWIXX_MATH_CACHE")}
    env = {**clean, "PYTHONPATH": str(ROOT), **env}  # this checkout's qwixx_math
    result = subprocess.run([sys.executable, str(path)], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines(), result.stderr


def kernel_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.suffix in (".nbi", ".nbc"))


def test_kernels_are_cached_under_the_library_cache(tmp_path: Path) -> None:
    package_cache = ROOT / "qwixx_math" / "solver" / "__pycache__"
    before = set(kernel_files(package_cache)) if package_cache.exists() else set()
    out, err = run(tmp_path, {"QWIXX_MATH_CACHE": str(tmp_path / "tables")})
    assert out[0] == "42"
    assert Path(out[2]).is_relative_to(ROOT)
    numba_dir = tmp_path / "tables" / "numba"
    assert Path(out[1]).is_relative_to(numba_dir)
    names = [p.name for p in kernel_files(numba_dir)]
    assert any(n.startswith("probe.plus_one") and n.endswith(".nbi") for n in names), names
    after = set(kernel_files(package_cache)) if package_cache.exists() else set()
    assert after == before  # nothing new next to the sources
    assert "Warning" not in err


def test_numba_cache_dir_set_by_the_user_wins(tmp_path: Path) -> None:
    out, _ = run(tmp_path, {"QWIXX_MATH_CACHE": str(tmp_path / "tables"),
                            "NUMBA_CACHE_DIR": str(tmp_path / "mine")})
    assert out[0] == "42"
    assert Path(out[1]).is_relative_to(tmp_path / "mine")
    assert kernel_files(tmp_path / "mine")
    assert not (tmp_path / "tables" / "numba").exists()


def test_an_unusable_cache_dir_compiles_in_memory_with_a_warning(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    out, err = run(tmp_path, {"QWIXX_MATH_CACHE": str(blocker / "tables")})
    assert out[:2] == ["42", "None"]  # works; no on-disk cache
    assert "CacheWarning" in err and "compiled again on every run" in err
    assert err.count("CacheWarning") == 1  # once, not once per kernel


@pytest.mark.slow
def test_a_real_solve_leaves_its_kernels_in_the_library_cache(tmp_path: Path) -> None:
    script = textwrap.dedent("""
        from qwixx_math.solver import Variant, solve
        print(round(solve(variant=Variant.from_letters("aadd", 3, 1, 1, 2), cache=False,
                          progress=False).start_value, 6))
    """)
    run(tmp_path, {"QWIXX_MATH_CACHE": str(tmp_path / "tables")}, script)
    names = {p.name.split("-")[0] for p in kernel_files(tmp_path / "tables" / "numba")}
    assert {"kernel.solve_batch", "kernel.level_items", "kernel.derive_table"} <= names


def test_an_edit_of_a_module_a_kernel_calls_compiles_afresh(tmp_path: Path) -> None:
    """numba keys a cached kernel on its own file only, but ``solve_batch`` (kernel.py)
    compiles in ``bar.py``'s chains: an edit of bar.py alone must not find the old
    ``solve_batch``.  Our folder is keyed on every kernel module's source; an edit
    elsewhere (no kernel in cli.py) keeps it."""
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "qwixx_math", copy / "qwixx_math",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {"QWIXX_MATH_CACHE": str(tmp_path / "tables"), "PYTHONPATH": str(copy)}
    out, _ = run(tmp_path, env)
    assert Path(out[2]).is_relative_to(copy)  # the copy's kernel
    first = Path(out[1])
    assert first.is_relative_to(tmp_path / "tables" / "numba")
    with (copy / "qwixx_math" / "cli.py").open("a") as handle:
        handle.write("\n# an edit outside the kernels\n")
    assert Path(run(tmp_path, env)[0][1]) == first
    with (copy / "qwixx_math" / "solver" / "bar.py").open("a") as handle:
        handle.write("\n# an edit of the bonus bar's chains\n")
    second = Path(run(tmp_path, env)[0][1])
    assert second != first
    assert second.is_relative_to(tmp_path / "tables" / "numba")
