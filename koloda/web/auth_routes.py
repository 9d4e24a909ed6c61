"""The routes of accounts (``/api/me``, ``/api/register``, ``/api/login``, ``/api/logout``,
``/api/me/stats``), the CSRF check every state-changing request passes, and who sits down
at a table: the signed-in account under its own name, or a guest under a name no account
holds. The rules are in :mod:`koloda.web.accounts`."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from koloda.store import name_key
from koloda.web.accounts import (
    COOKIE,
    CSRF_HEADER,
    MAX_PASSWORD,
    Accounts,
    AuthError,
    SignedIn,
    check_name,
    same_csrf,
)
from koloda.web.rootpath import root_of

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200)
    password: str = Field(max_length=MAX_PASSWORD + 1)


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


def _own_origin(request: Request) -> str:
    """The origin the pages are served from: ``koloda serve --public-origin`` behind a
    proxy, else the scheme (a trusted proxy's X-Forwarded-Proto) and the Host."""
    public: str | None = getattr(request.app.state, "public_origin", None)
    if public is not None:
        return public
    return f"{request.url.scheme}://{request.headers.get('host', '')}"


def _refusal(err: AuthError) -> JSONResponse:
    return JSONResponse(err.to_json(), status_code=err.status)


class Auth:
    """Accounts wired into the app: the session of a request, and the seat's identity."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts

    async def current(self, request: HTTPConnection) -> SignedIn | None:
        """The session of a request or a websocket (read once; None: a guest)."""
        if hasattr(request.state, "signed"):
            signed: SignedIn | None = request.state.signed
            return signed
        token = request.cookies.get(COOKIE)
        signed = await asyncio.to_thread(self.accounts.session, token) if token else None
        request.state.signed = signed
        return signed

    async def seat_identity(self, request: Request, name: Any) -> tuple[str, int | None]:
        """Who sits down: ``(name, account id)`` — the account's own name when signed in
        (whatever ``name`` says), else the guest's ``name`` if no account holds it or a
        name that looks like it."""
        signed = await self.current(request)
        if signed is not None:
            return signed.account.name, signed.account.id
        checked = check_name(name)
        like = await asyncio.to_thread(self.accounts.account_like, checked)
        if like is not None:
            if name_key(like) == name_key(checked):
                raise AuthError("account_name_held", 409, name=checked)
            raise AuthError("name_looks_held", 409, name=checked, like=like)
        return checked, None

    async def csrf_refusal(self, request: Request) -> AuthError | None:
        """Why a state-changing request may not go on (None: it may). From another site
        (its ``Origin``, or ``Sec-Fetch-Site``): never. With a session cookie: only with
        that session's CSRF token in ``X-CSRF-Token``."""
        if request.method in SAFE_METHODS:
            return None
        origin = request.headers.get("origin")
        if origin is not None and origin != _own_origin(request):
            return AuthError("cross_site", 403)
        if request.headers.get("sec-fetch-site") == "cross-site":
            return AuthError("cross_site", 403)
        if request.cookies.get(COOKIE) is None:
            return None           # no ambient authority: nothing to forge
        signed = await self.current(request)
        if signed is None:
            return None           # a cookie of no session: the request is a guest's
        if not same_csrf(request.headers.get(CSRF_HEADER), signed):
            return AuthError("csrf_missing", 403)
        return None

    def set_cookie(self, request: Request, response: Response, token: str) -> None:
        response.set_cookie(COOKIE, token, max_age=int(self.accounts.session_days * 86400),
                            path=root_of(request) or "/", httponly=True, samesite="lax",
                            secure=_own_origin(request).startswith("https://"))


def me_json(signed: SignedIn | None) -> dict[str, Any]:
    return {"account": signed.account.to_json() if signed is not None else None,
            "csrf": signed.csrf if signed is not None else None}


def install(app: FastAPI, accounts: Accounts) -> Auth:
    """The account routes and the CSRF check on ``app``; returns the :class:`Auth`."""
    auth = Auth(accounts)
    router = APIRouter()

    @app.middleware("http")
    async def _csrf(request: Request, call_next: Any) -> Any:
        refusal = await auth.csrf_refusal(request)
        if refusal is not None:
            return _refusal(refusal)
        return await call_next(request)

    async def _signed_in_as(request: Request, response: Response, token: str
                            ) -> dict[str, Any]:
        old = request.cookies.get(COOKIE)
        if old:
            await asyncio.to_thread(accounts.logout, old)
        auth.set_cookie(request, response, token)
        signed = await asyncio.to_thread(accounts.session, token)
        request.state.signed = signed
        return me_json(signed)

    @router.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        """Who this browser is signed in as (``account`` null: a guest), and the CSRF
        token its state-changing requests send in ``X-CSRF-Token``."""
        return me_json(await auth.current(request))

    @router.post("/api/register", status_code=201)
    async def register(body: Credentials, request: Request, response: Response
                       ) -> dict[str, Any]:
        accounts.attempt(_client(request))
        _account, token = await asyncio.to_thread(accounts.register, body.name, body.password)
        return await _signed_in_as(request, response, token)

    @router.post("/api/login")
    async def login(body: Credentials, request: Request, response: Response
                    ) -> dict[str, Any]:
        client = _client(request)
        accounts.attempt(client)
        _account, token = await asyncio.to_thread(accounts.login, body.name, body.password,
                                                  client)
        return await _signed_in_as(request, response, token)

    @router.post("/api/logout")
    async def logout(request: Request, response: Response) -> dict[str, Any]:
        await asyncio.to_thread(accounts.logout, request.cookies.get(COOKIE))
        response.delete_cookie(COOKIE, path=root_of(request) or "/", httponly=True,
                               samesite="lax", secure=request.url.scheme == "https")
        request.state.signed = None
        return me_json(None)

    @router.get("/api/me/stats")
    async def my_stats(request: Request) -> dict[str, Any]:
        """The signed-in account's statistics, rank and rank history."""
        signed = await auth.current(request)
        if signed is None:
            raise AuthError("not_signed_in", 401)
        stats = await asyncio.to_thread(accounts.store.account_stats, signed.account.id)
        if stats is None:
            raise AuthError("not_signed_in", 401)
        out: dict[str, Any] = stats.to_json()
        return out

    app.include_router(router)
    return auth
