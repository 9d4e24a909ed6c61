"""koloda in the browser: a multiplayer server (FastAPI, websockets) with rooms, computer
seats, reconnection by seat token and every accepted action stored before it is
acknowledged. ``koloda serve`` runs it; ``create_app`` builds the ASGI app.

Imported lazily: the engine never needs FastAPI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI


def create_app(*args: Any, **kwargs: Any) -> FastAPI:
    from koloda.web.app import create_app as make
    return make(*args, **kwargs)


__all__ = ["create_app"]
