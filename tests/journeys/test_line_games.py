"""Whole matches in line mode, the real program on a pipe: every game and variant, in
English and in Russian, to the end of a short match, the person typing the first listed move
in the words it is listed in (computer players on the other seats).

Every prompt must say whose move it is, show the person's hand and the moves, and show
nothing raw: no ``{``, ``None``, ``null``, ``Value(`` or snake_case field names.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

import koloda

ROOT = Path(__file__).resolve().parents[2]

#: options that make a short match of each game, one that ends as a match ends (not cut
#: off by ``max_deals``)
SHORT: dict[str, list[str]] = {
    "dreyfus": ["-o", "finish=deal"],
    "durak": [],
    "durak-perevodnoy": ["--players", "3"],
    "kopilka": [],
    "mushka": ["--players", "3"],
    "opendaum": ["-o", "start_deal=23", "--players", "3"],
    "opendaum-33": ["-o", "start_deal=21"],
    "opendaum-shakhi": ["-o", "start_deal=18", "--players", "4"],
    "pyanitsy": ["-o", "end=first_elimination"],
    "stukolka": ["-o", "deals=1", "--players", "4"],
    "trinka": ["-o", "record=3"],
}

#: games whose cards in hand are face down (a Pyanitsy pile): the seat's row counts them
NO_HAND = {"pyanitsy"}

#: what each language says in a prompt
WORDS = {
    "en": {"turn": "— Your move, Аня —", "hand": "Your hand: ", "choose": "Choose a number",
           "enter": re.compile(r"^Press Enter to (.+) \(q saves and quits\)$"),
           "over": "The match is over.", "refused": "Not allowed"},
    "ru": {"turn": "— Ваш ход, Аня —", "hand": "Ваши карты: ", "choose": "Выберите номер",
           "enter": re.compile(r"^Нажмите Enter: (.+) \(q — сохранить и выйти\)$"),
           "over": "Партия окончена.", "refused": "Нельзя"},
}

RAW = re.compile(r"[{}]|\bNone\b|\bnull\b|Value\(|\b[a-z]+_[a-z_]+\b|\bTrue\b|\bFalse\b")
PATH = re.compile(r"(?<!\S)/\S+")


def raw(text: str) -> str | None:
    """Something raw in ``text`` (file paths aside), or None."""
    found = RAW.search(PATH.sub("", text))
    return found.group(0) if found else None
MOVE = re.compile(r"^\s*(\d+)\. (.+)$")


class LineGame:
    """``python -m koloda play … --line`` on pipes: read up to each prompt, type a line."""

    def __init__(self, args: list[str], home: Path) -> None:
        env = dict(os.environ, KOLODA_HOME=str(home), PYTHONPATH=str(ROOT),
                   COLUMNS="100", PYTHONUNBUFFERED="1")
        env.pop("KOLODA_LANG", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "koloda", "play", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, cwd=ROOT, env=env)
        self.buffer = b""

    def until_prompt(self, timeout: float = 30.0) -> str | None:
        """Everything said up to the next ``> `` prompt (None: the program ended)."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while True:
            text = self.buffer.decode("utf-8", errors="replace")
            if text.endswith("> "):
                self.buffer = b""
                return text
            left = deadline - time.monotonic()
            assert left > 0, f"no prompt in {timeout} s; said so far:\n{text[-3000:]}"
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.buffer += chunk

    def rest(self) -> str:
        return self.buffer.decode("utf-8", errors="replace")

    def type(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode("utf-8") + b"\n")
        self.proc.stdin.flush()


def check_prompt(block: str, lang: str, game: str) -> str:
    """Assert what a prompt must show; the first listed move, in its listed words."""
    words = WORDS[lang]
    assert words["refused"] not in block, block
    assert raw(block) is None, (raw(block), block)
    table = block[block.rindex(words["turn"]):]        # (bots' moves come before)
    lines = table.splitlines()
    assert any(ln.startswith("▶ Аня") for ln in lines), table      # whose move: the mark
    assert sum(ln.startswith("▶ ") for ln in lines) == 1, table
    hand = [ln for ln in lines if ln.startswith(words["hand"])]
    if game in NO_HAND:
        assert not hand, table
    else:
        assert len(hand) == 1 and hand[0][len(words["hand"]):].strip(), table
    single = [m for ln in lines if (m := words["enter"].match(ln))]
    listed = [m for ln in lines if (m := MOVE.match(ln))]
    if single:
        return single[0].group(1)
    assert listed and words["choose"] in table, table
    assert [int(m.group(1)) for m in listed] == list(range(1, len(listed) + 1)), table
    first = listed[0].group(2)
    if lang == "ru":
        assert not re.search(r"\b(play|bid|beat|take|attack|pass|discard|pick)\b", first), \
            first                                     # listed in Russian words
    return first


def play_to_the_end(game: str, lang: str, home: Path) -> tuple[int, str]:
    args = [game, "--line", "--seed", "5", "--lang", lang, "--name", "Аня", "--bots",
            "random", "--no-store", *SHORT[game]]
    run = LineGame(args, home)
    prompts = 0
    said: list[str] = []
    typed: str | None = None
    try:
        while True:
            block = run.until_prompt()
            if typed is not None:      # the move typed, said back as every seat's move is
                assert (block or run.rest()).startswith(f"Аня: {typed}\n"), \
                    (typed, (block or run.rest())[:300])
            if block is None:
                break
            said.append(block)
            typed = check_prompt(block, lang, game)
            run.type(typed)
            prompts += 1
        code = run.proc.wait(timeout=30)
    finally:
        if run.proc.poll() is None:
            run.proc.kill()
    end = run.rest()
    said.append(end)
    assert code == 0, end[-3000:]
    assert WORDS[lang]["over"] in end, end[-3000:]
    assert raw(end) is None, (raw(end), end)
    assert "--resume" not in end                  # a finished match is not to be continued
    assert prompts > 0
    return prompts, "".join(said)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game", sorted(koloda.registry()))
def test_line_mode_plays_a_whole_match(game: str, lang: str, tmp_path: Path) -> None:
    prompts, said = play_to_the_end(game, lang, tmp_path)
    record = next((tmp_path / "autosave").glob(f"{game}-*.json"))
    import json
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["result"] is not None and data["result"]["over"] is True
    humans = [a for a in data["actions"] if a["seat"] == 0]
    assert len(humans) == prompts                  # every typed move was played
    if lang == "ru":
        assert "Your hand" not in said and "Choose a number" not in said


def test_all_games_are_covered() -> None:
    assert set(SHORT) == set(koloda.registry())
