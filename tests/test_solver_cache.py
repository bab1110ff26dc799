"""The table cache: location, names, round trips, damaged files, concurrent solvers."""

from __future__ import annotations

import contextlib
import mmap
import multiprocessing
import os
import sys
import warnings
import zlib
from pathlib import Path

import numpy as np
import pytest

from qwixx_math.errors import CacheError
from qwixx_math.ruleset import Ruleset
from qwixx_math.solver import CacheWarning, Variant, cache_dir, solve
from qwixx_math.solver import cache as cache_module
from qwixx_math.solver.cache import crc32_of_blocks, read_table, table_filename, write_table
from qwixx_math.solver.layout import Layout

TINY = Variant.from_letters("ad", 5, 2, 2, 2)
OTHER = Variant.from_letters("ad", 5, 2, 3, 2)
RULES = Ruleset(players=1)


def table_path(directory: Path, variant: Variant = TINY, a2: bool = False) -> Path:
    return directory / table_filename(variant, a2)


# ------------------------------------------------------------------ location and names


def test_cache_dir_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(tmp_path / "here"))
    assert cache_dir() == tmp_path / "here"


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG rule is for Linux")
def test_cache_dir_defaults_to_the_xdg_user_cache(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    monkeypatch.delenv("QWIXX_MATH_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "qwixx_math"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path.home() / ".cache" / "qwixx_math"


def test_file_names_carry_version_variant_and_the_relevant_ruleset_part() -> None:
    name = table_filename(Variant(), False)
    assert name == "solitaire-v1-aadd-L11-t5-p4-k2-a2end0.qxt"
    assert table_filename(Variant(), True) != name
    assert table_filename(TINY, False) != name


def test_rulesets_that_play_the_same_solitaire_share_a_table(tmp_path: Path) -> None:
    first = solve(Ruleset(players=1), TINY, cache=tmp_path)
    second = solve(Ruleset(players=3), TINY, cache=tmp_path)
    assert not first.loaded and second.loaded
    assert second.ruleset.players == 3  # the table reports the ruleset asked for
    assert len(list(tmp_path.glob("*.qxt"))) == 1


def test_an_unusable_cache_directory_warns_and_solves_anyway(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory should be")
    with pytest.warns(CacheWarning, match="cannot use the cache directory"):
        table = solve(RULES, TINY, cache=blocker)
    assert table.path is None and not table.loaded
    assert table.start_value == solve(RULES, TINY, cache=False).start_value


# ------------------------------------------------------------------ round trip


def test_solve_writes_and_then_memory_maps_the_table(tmp_path: Path) -> None:
    solved = solve(RULES, TINY, cache=tmp_path)
    assert not solved.loaded and solved.path == table_path(tmp_path)
    loaded = solve(RULES, TINY, cache=tmp_path)
    assert loaded.loaded
    base = loaded._data.base  # memory-mapped, not read in
    assert isinstance(getattr(base, "obj", base), mmap.mmap)
    assert loaded.start_value == solved.start_value  # float64, exactly
    assert np.array_equal(loaded.data, solved.data)
    assert not loaded.data.flags.writeable
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_cache_false_touches_no_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(tmp_path))
    table = solve(RULES, TINY, cache=False)
    assert table.path is None
    assert list(tmp_path.iterdir()) == []


def test_the_default_cache_is_the_environment_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QWIXX_MATH_CACHE", str(tmp_path / "c"))
    table = solve(RULES, TINY)
    assert table.path == table_path(tmp_path / "c")
    assert table.path.exists()


# ------------------------------------------------------------------ damaged files


def damaged_then_rebuilt(tmp_path: Path, damage: str) -> str:
    """Damage the cached file, solve again: the warning text (and the rebuild is checked)."""
    good = solve(RULES, TINY, cache=tmp_path)
    path = table_path(tmp_path)
    blob = bytearray(path.read_bytes())
    if damage == "truncate":
        blob = blob[: len(blob) - 100]
    elif damage == "payload":
        blob[-5] ^= 0x10
    elif damage == "header":
        blob[20] ^= 0x01
    elif damage == "magic":
        blob[0:8] = b"NOTQWIXX"
    elif damage == "empty":
        blob = bytearray()
    elif damage == "trailing":
        blob += b"\x00" * 8
    elif damage == "garbage":
        blob = bytearray(os.urandom(5000))
    path.write_bytes(bytes(blob))
    with pytest.warns(CacheWarning) as caught:
        again = solve(RULES, TINY, cache=tmp_path)
    assert not again.loaded  # solved afresh, not used
    assert np.array_equal(again.data, good.data)
    reloaded = solve(RULES, TINY, cache=tmp_path)  # and the rebuilt file is good
    assert reloaded.loaded
    message = str(caught[0].message)
    assert str(path) in message
    return message


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        ("truncate", "truncated"),
        ("empty", "truncated"),
        ("payload", "checksum"),
        ("header", "corrupt header"),
        ("magic", "not a qwixx_math solver table"),
        ("garbage", "not a qwixx_math solver table"),
        ("trailing", "trailing bytes"),
    ],
)
def test_damaged_files_are_reported_and_rebuilt(tmp_path: Path, damage: str, words: str) -> None:
    assert words in damaged_then_rebuilt(tmp_path, damage)


def test_a_foreign_table_under_the_name_is_reported_and_rebuilt(tmp_path: Path) -> None:
    other = solve(RULES, OTHER, cache=tmp_path)
    assert other.path is not None
    os.replace(other.path, table_path(tmp_path))
    with pytest.warns(CacheWarning, match="foreign table"):
        table = solve(RULES, TINY, cache=tmp_path)
    assert not table.loaded
    assert table.start_value != other.start_value


def test_read_table_raises_cache_error_for_a_wrong_count(tmp_path: Path) -> None:
    path = table_path(tmp_path)
    data = np.zeros(Layout.of(TINY).size)
    write_table(path, TINY, False, data, 0.0)
    assert read_table(path, TINY, False, data.size).start_value == 0.0
    with pytest.raises(CacheError, match="foreign table"):
        read_table(path, TINY, False, data.size + 1)
    with pytest.raises(CacheError, match="foreign table"):
        read_table(path, TINY, True, data.size)


@pytest.mark.parametrize("size", [0, 1, 63, 64, 65, 640, 1000, 4096 + 7])
@pytest.mark.parametrize("block", [1, 8, 64, 333])
def test_the_payload_checksum_from_the_block_checksums_is_zlibs(size: int, block: int) -> None:
    payload = np.random.default_rng(size * 1000 + block).bytes(size)
    blocks = [zlib.crc32(payload[start : start + block]) for start in range(0, size, block)]
    assert crc32_of_blocks(blocks, size, block) == zlib.crc32(payload)


def test_a_table_written_in_blocks_on_every_core_is_the_sequential_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """write_table writes the payload in blocks from threads (os.pwrite) and takes the
    whole checksum from the blocks': the file is byte for byte the one written in one go
    with one running checksum, and reads back."""
    data = np.random.default_rng(7).random(Layout.of(TINY).size)
    monkeypatch.setattr(cache_module, "_BLOCK", 512)  # many blocks, the last one short
    assert data.nbytes % 512 != 0 and data.nbytes > 3 * 512
    path = table_path(tmp_path)
    write_table(path, TINY, False, data, 1.5)
    raw = path.read_bytes()
    loaded = read_table(path, TINY, False, data.size)
    assert loaded.header["payload_crc32"] == zlib.crc32(data.tobytes())
    assert loaded.header["payload_block_crc32"] == [
        zlib.crc32(data.tobytes()[start : start + 512]) for start in range(0, data.nbytes, 512)]
    offset = loaded.header["payload_offset"]
    assert raw[offset:] == data.tobytes() and len(raw) == offset + data.nbytes
    assert np.array_equal(loaded.data, data)


def test_a_good_file_gives_no_warning(tmp_path: Path) -> None:
    solve(RULES, TINY, cache=tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert solve(RULES, TINY, cache=tmp_path).loaded


# ------------------------------------------------------------------ two processes at once

MEDIUM = Variant.from_letters("aad", 8, 3, 4, 2)


def _solve_in_child(directory: str, barrier: multiprocessing.synchronize.Barrier,
                    out: multiprocessing.queues.Queue[tuple[bool, float]]) -> None:
    solve(RULES, Variant.from_letters("ad", 3, 0, 1, 2), cache=False)  # compile/load the JIT
    barrier.wait()
    table = solve(RULES, MEDIUM, cache=directory)
    out.put((table.loaded, table.start_value))


def test_two_processes_solving_at_once_solve_once_and_agree(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    out: multiprocessing.queues.Queue[tuple[bool, float]] = ctx.Queue()
    procs = [ctx.Process(target=_solve_in_child, args=(str(tmp_path), barrier, out))
             for _ in range(2)]
    for p in procs:
        p.start()
    results = [out.get(timeout=300) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    assert sorted(loaded for loaded, _ in results) == [False, True]  # one solved, one loaded
    assert results[0][1] == results[1][1]
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [table_filename(MEDIUM, False), table_filename(MEDIUM, False) + ".lock"]
    assert solve(RULES, MEDIUM, cache=tmp_path).loaded


# ------------------------------------------------------------------ forged headers (issue 32)


def forge_header(path: Path, text: bytes) -> None:
    """Replace a table file's JSON header by ``text`` under a valid checksum."""
    import struct
    import zlib

    blob = path.read_bytes()
    _, length, _ = struct.unpack("<8sII", blob[:16])
    payload = blob[16 + length:]
    path.write_bytes(struct.pack("<8sII", blob[:8], len(text), zlib.crc32(text)) + text
                     + payload)


def header_with(path: Path, field: str, value: str) -> bytes:
    """The file's header text with ``field``'s value replaced by the JSON text ``value``."""
    import json
    import struct

    blob = path.read_bytes()
    _, length, _ = struct.unpack("<8sII", blob[:16])
    header = json.loads(blob[16:16 + length])
    assert field in header
    header[field] = "@forged@"
    return json.dumps(header, sort_keys=True).replace('"@forged@"', value).encode()


@pytest.mark.parametrize(
    ("forged", "words"),
    [
        (lambda p: b"[" * 5000, "RecursionError"),
        (lambda p: b"9" * 5000, "ValueError"),
        (lambda p: header_with(p, "payload_offset", "1e999"), "payload_offset"),
        (lambda p: header_with(p, "payload_offset", "9" * 5000), "ValueError"),
        (lambda p: header_with(p, "count", '"64"'), "count"),
        (lambda p: header_with(p, "payload_crc32", "true"), "payload_crc32"),
        (lambda p: header_with(p, "start_value", "1e999"), "start_value"),
        (lambda p: header_with(p, "start_value", "9" * 400), "start_value"),
        (lambda p: header_with(p, "dtype", '"' + "x" * 100000 + '"'), "foreign"),
    ],
)
def test_a_forged_header_with_a_valid_checksum_is_rebuilt(
        tmp_path: Path, forged: object, words: str) -> None:
    good = solve(RULES, TINY, cache=tmp_path)
    path = table_path(tmp_path)
    assert callable(forged)
    forge_header(path, forged(path))
    with pytest.raises(CacheError, match=words) as raised:
        read_table(path, TINY, False, good.data.size)
    assert len(str(raised.value)) < 500  # a 100 kB header field is not echoed whole
    with pytest.warns(CacheWarning, match="corrupt header|foreign"):
        again = solve(RULES, TINY, cache=tmp_path)
    assert not again.loaded
    assert np.array_equal(again.data, good.data)
    assert solve(RULES, TINY, cache=tmp_path).loaded  # the rebuilt file is good


def test_read_table_raises_only_cache_error_for_any_forged_field(tmp_path: Path) -> None:
    """Fuzz: any JSON value in any header field gives a CacheError or a verified table."""
    import json

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    good = solve(RULES, TINY, cache=tmp_path)
    path = table_path(tmp_path)
    pristine = path.read_bytes()
    fields = ["payload_offset", "count", "payload_crc32", "start_value", "dtype", "format",
              "variant", "action2_after_action1_end", "payload_block_bytes",
              "payload_block_crc32"]
    values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner,
                                                                    max_size=3),
        max_leaves=8)

    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(field=st.sampled_from(fields), value=values)
    def check(field: str, value: object) -> None:
        path.write_bytes(pristine)
        forge_header(path, header_with(path, field, json.dumps(value)))
        with contextlib.suppress(CacheError):  # anything else fails the test
            read_table(path, TINY, False, good.data.size)

    check()
