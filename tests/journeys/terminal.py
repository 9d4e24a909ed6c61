"""The real ``koloda play`` in a pseudo-terminal, read back as a screen.

``Terminal`` starts ``python -m koloda play …`` under pexpect in a terminal of the asked
size, feeds what the program writes to a pyte screen (a VT100 emulator) and answers
"what is on the screen now" as plain lines, so a journey presses keys and reads the
screen exactly as a person at that terminal would.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte

ROOT = Path(__file__).resolve().parents[2]

KEYS = {"up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
        "enter": "\r", "escape": "\x1b", "space": " ", "backspace": "\x7f", "pagedown": "\x1b[6~",
        "pageup": "\x1b[5~"}

#: what a person should never read: data structures, empty values, code identifiers
RAW = re.compile(r"[{}\[\]]|\bNone\b|\bnull\b|\b[a-z]+_[a-z_]+\b")


class Terminal:
    """One program in one terminal of ``cols`` × ``rows``."""

    def __init__(self, args: list[str], home: Path, cols: int = 80, rows: int = 24,
                 lang: str = "en", name: str = "Anna") -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KOLODA_", "TEXTUAL"))}
        env.update(PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
                   KOLODA_HOME=str(home), KOLODA_LANG=lang, KOLODA_PLAYER=name,
                   TERM="xterm-256color", COLORTERM="truecolor", LANG="C.UTF-8",
                   LC_ALL="C.UTF-8", COLUMNS=str(cols), LINES=str(rows))
        self.cols, self.rows = cols, rows
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(sys.executable, ["-m", "koloda", "play", *args],
                                   env=env, cwd=str(ROOT), dimensions=(rows, cols),
                                   timeout=None)
        self.exit_status: int | None = None

    # ------------------------------------------------------------- reading
    def pump(self, wait: float = 0.05) -> bool:
        """Read what the program wrote in ``wait`` seconds; False once it has ended."""
        try:
            data = self.child.read_nonblocking(1 << 16, timeout=wait)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            self.child.close()
            self.exit_status = self.child.exitstatus
            return False
        self.stream.feed(data)
        return True

    @property
    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def wait(self, ready: Callable[[str], bool], timeout: float = 20.0,
             what: str = "the screen") -> str:
        """Read until ``ready(screen text)`` holds and the screen has stopped changing."""
        end = time.monotonic() + timeout
        last, still = None, 0
        while time.monotonic() < end:
            alive = self.pump()
            text = self.text
            if ready(text):
                still = still + 1 if text == last else 0
                if still >= 2 or not alive:
                    return text
            elif not alive:
                break
            last = text
        raise AssertionError(f"waited {timeout:.0f} s for {what}; the screen is:\n{self.text}")

    def settle(self, quiet: float = 0.25, timeout: float = 10.0) -> str:
        """Read until nothing has been written for ``quiet`` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            before = self.text
            if not self.pump(quiet):
                break
            if self.text == before:
                try:
                    data = self.child.read_nonblocking(1 << 16, timeout=quiet)
                except pexpect.TIMEOUT:
                    return self.text
                except pexpect.EOF:
                    self.child.close()
                    self.exit_status = self.child.exitstatus
                    break
                self.stream.feed(data)
        return self.text

    # ------------------------------------------------------------ writing
    def press(self, *keys: str) -> None:
        for key in keys:
            self.child.send(KEYS.get(key, key))

    def ended(self, timeout: float = 15.0) -> int | None:
        """Wait for the program to end; its exit status."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if not self.pump(0.1):
                return self.exit_status
        raise AssertionError(f"the program did not end; the screen is:\n{self.text}")

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)
