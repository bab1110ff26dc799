"""The coach page in a real browser: Debian's Chromium, headless, driven by Selenium.

A whole 2-player game (a record the rules core generated) is played through the page
by clicks alone: the roll typed into the page, every action-1 tap on the drawn sheets,
"Action 1 done", the action-2 tap or "No action 2".  On the way an illegal tap must show
its rule id, the advice panel must list the plans, undo must take a tap back; at the end
the review must be rendered, the saved record must validate clean and be the game
played, and a screenshot of the page must not be blank.  On a Big Points game a bonus
cell is tapped and an illegal bonus tap shows its BP rule id.

Slow (a browser start and a few hundred clicks).  Skipped when Chromium, its driver or
Selenium is absent, except in CI (``CI=true``), where that is a failure: ``.ci/run``
installs them (``apt-get install chromium chromium-driver``, ``pip install '.[coach]'``).
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from qwixx_math.coach import CoachGame, make_server
from qwixx_math.coach.server import CoachServer
from qwixx_math.notation import format_roll
from qwixx_math.record import TurnRecord, random_game
from qwixx_math.validation import load_record, validate_file

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


def _missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(path):
            return f"{path} is not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install 'qwixx_math[coach]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser test must run in CI: {missing}")
        pytest.skip(missing)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1100", "--no-first-run"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[CoachServer]:
    srv = make_server(CoachGame(2, names=("Kari", "Ola")), "127.0.0.1", 0,
                      str(tmp_path / "game.json"), seed=3)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _idle(driver: Any) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 300).until(  # a table's first solve may take minutes on CI
        lambda d: d.execute_script("return document.body.dataset.busy") == "0")


def _click(driver: Any, element_id: str) -> None:
    driver.find_element("id", element_id).click()
    _idle(driver)


def _message(driver: Any) -> str:
    text: str = driver.find_element("id", "message").text
    return text


def _phase(driver: Any) -> str:
    text: str = driver.find_element("id", "status").text
    return text


def _tap(driver: Any, player: int, colour: str, number: int) -> None:
    _click(driver, f"cell-{player}-{colour}-{number}")


def _play_turn(driver: Any, turn: TurnRecord) -> None:
    box = driver.find_element("id", "roll-input")
    box.clear()
    box.send_keys(format_roll(turn.roll))
    _click(driver, "roll-btn")
    assert _message(driver) == "", _message(driver)
    for player, mark in enumerate(turn.action1):
        if mark is not None:
            _tap(driver, player, mark.colour.value, mark.number)
            assert _message(driver) == "", _message(driver)
    _click(driver, "done")
    assert _message(driver) == "", _message(driver)
    if _phase(driver).startswith("Game over"):
        return
    if turn.action2 is not None:
        _tap(driver, turn.active, turn.action2.colour.value, turn.action2.number)
    else:
        _click(driver, "skip")
    assert _message(driver) == "", _message(driver)


def test_a_whole_game_through_the_page(browser: Any, server: CoachServer,
                                       tmp_path: Path) -> None:
    driver = browser
    record = random_game(players=2, seed=21, names=["Kari", "Ola"])
    driver.get(server.url)
    _idle(driver)
    assert "Kari" in driver.find_element("id", "sheet-0").text

    first = record.turns[0]
    # an illegal tap shows its rule id: before the roll nobody marks red 12 (R8)
    driver.find_element("id", "roll-input").send_keys(format_roll(first.roll))
    _click(driver, "roll-btn")
    white = first.roll.white_sum
    wrong = 2 if white != 2 else 3
    _tap(driver, 1, "red", wrong)
    assert "Refused: R5: " in _message(driver) and f"white sum {white}" in _message(driver)
    # the advice panel lists every plan of the active player, with EV and loss
    _click(driver, "advice-btn")
    rows = driver.find_elements("css selector", "#advice tr")
    assert len(rows) >= 2 and "EV loss" in rows[0].text
    # ... and the win rollouts, with their interval
    _click(driver, "rollouts-btn")
    assert "95% CI" in driver.find_element("id", "advice").text
    # a tap, then undo takes it back
    _tap(driver, 1, "red", white)
    assert "pending" in driver.find_element("id", f"cell-1-red-{white}").get_attribute("class")
    _click(driver, "undo")
    assert "pending" not in driver.find_element("id", f"cell-1-red-{white}").get_attribute(
        "class")
    _click(driver, "undo")  # the roll too: the turn is played again from the start

    for turn in record.turns:
        _play_turn(driver, turn)
    assert _phase(driver).startswith("Game over")
    assert record.result is not None
    for p, score in enumerate(record.result.scores):
        assert driver.find_element("id", f"score-{p}").text == f"{score} points"

    _idle(driver)
    review = driver.find_element("id", "review").text
    assert "Kari:" in review and "Ola:" in review and "decisions" in review

    _click(driver, "save")
    assert "validates clean" in _message(driver)
    saved = tmp_path / "game.json"
    assert validate_file(saved).valid
    assert load_record(saved).turns == record.turns

    shot = tmp_path / "coach.png"
    assert driver.save_screenshot(str(shot))
    import matplotlib.image as mpimg
    import numpy as np

    pixels = mpimg.imread(str(shot))
    assert pixels.shape[0] > 500 and pixels.shape[1] > 500
    colours = np.unique((pixels[..., :3] * 255).astype(np.uint8).reshape(-1, 3), axis=0)
    assert len(colours) > 50  # sheets in four colours, text, tables: far from blank


def test_a_ruleset_switch_from_the_new_game_form(browser: Any, server: CoachServer,
                                                 tmp_path: Path) -> None:
    """The R15 Option ticked in the form: the page names it, the game plays it, the advice
    says the win model does not know it, and the saved record carries it."""
    driver = browser
    driver.get(server.url)
    _idle(driver)
    assert driver.find_element("id", "rules-shown").text == ""  # the official rules
    driver.find_element("css selector", "#rules-form summary").click()
    driver.find_element("id", "rule-a2").click()
    _click(driver, "new-game")
    assert "R15 Option" in driver.find_element("id", "rules-shown").text
    assert server.game.state.ruleset.action2_after_game_end
    driver.find_element("id", "roll-input").send_keys("w:3,4/r:1/y:2/g:6/b:5")
    _click(driver, "roll-btn")
    _click(driver, "advice-btn")
    assert len(driver.find_elements("css selector", "#advice tr")) >= 2
    assert "no win model under the R15 Option" in driver.find_element("id", "advice-note").text
    _click(driver, "save")
    assert "validates clean" in _message(driver)
    assert load_record(tmp_path / "game.json").ruleset.action2_after_game_end


def test_a_big_points_bonus_cell_is_tapped(browser: Any, tmp_path: Path) -> None:
    """Big Points: the bonus rows are drawn, a bonus cell is tapped (shown pending, then
    crossed once action 1 is written), and an illegal bonus tap shows its BP rule id."""
    srv = make_server(CoachGame(2, "big-points", names=("Kari", "Ola")), "127.0.0.1", 0,
                      str(tmp_path / "game.json"), seed=3)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        driver = browser
        driver.get(srv.url)
        _idle(driver)
        for roll, taps in [("w:1,1/r:1/y:1/g:1/b:1", ["cell-0-red-2", "done", "skip"]),
                           ("w:1,1/r:6/y:6/g:6/b:6", [])]:
            box = driver.find_element("id", "roll-input")
            box.clear()
            box.send_keys(roll)
            _click(driver, "roll-btn")
            for element_id in taps:
                _click(driver, element_id)
                assert _message(driver) == "", _message(driver)
        _click(driver, "bonus-1-ry-2")  # Ola has no red or yellow 2 crossed (BP1)
        assert _message(driver).startswith("Refused: BP1: "), _message(driver)
        _click(driver, "bonus-0-ry-2")
        assert "pending" in driver.find_element("id", "bonus-0-ry-2").get_attribute("class")
        _click(driver, "done")
        assert "marked" in driver.find_element("id", "bonus-0-ry-2").get_attribute("class")
        assert srv.game.state.sheets[0].bonus_rows == (1, 0)
    finally:
        srv.shutdown()
        srv.server_close()
