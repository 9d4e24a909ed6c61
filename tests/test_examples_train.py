"""The training examples (examples/train_*.py) run end to end in their ``--quick`` mode
and print a win rate against the heuristic before and after training.

MaskablePPO needs the ``train`` extra (sb3-contrib and PyTorch), which CI does not
install: that test skips without it. The OpenSpiel example needs only the ``openspiel``
extra.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = pytest.mark.train

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RATE = re.compile(r"win rate vs heuristic (\d\.\d{3})")


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_output(out: dict[str, float], printed: str) -> None:
    rates = [float(x) for x in RATE.findall(printed)]
    assert len(rates) == 2, printed
    assert rates == [round(out["before"], 3), round(out["after"], 3)]
    assert printed.startswith("before training") and "after training" in printed
    assert all(0.0 <= r <= 1.0 for r in rates)


def test_train_openspiel_quick(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    out = load("train_openspiel").main(["--quick"])
    check_output(out, capsys.readouterr().out)


def test_train_maskable_ppo_quick(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("sb3_contrib", reason="the train extra (sb3-contrib, PyTorch) is not "
                        "installed: pip install '.[train]'")
    out = load("train_maskable_ppo").main(["--quick"])
    check_output(out, capsys.readouterr().out)
