"""The command line's own errors (an unknown command or option, a missing argument, a value
that is not a number) said in one line, like every other ``koloda`` error.

Typer prints these as a usage line, a hint and a boxed panel; ``KolodaGroup`` runs the
command line without Typer's error printing and says each one as ``error: …`` (``ошибка:
…`` in Russian) with the help command to try, on one line of stderr, exit code 2.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from contextlib import nullcontext
from difflib import get_close_matches
from typing import Any

from typer.core import TyperGroup

from koloda.i18n import LANGS, default_lang, t


def _exception_types(name: str) -> tuple[type[BaseException], ...]:
    """Click's exception ``name`` as Typer raises it (its own copy of Click, or Click)."""
    found: list[type[BaseException]] = []
    for module in ("typer._click.exceptions", "click.exceptions"):
        try:
            mod = __import__(module, fromlist=[name])
        except ImportError:
            continue
        kind = getattr(mod, name, None)
        if isinstance(kind, type) and kind not in found:
            found.append(kind)
    return tuple(found)


_CLICK_ERRORS = _exception_types("ClickException")
_ABORT = _exception_types("Abort")
_USAGE_ERRORS = _exception_types("UsageError")


def _usage_error() -> type[Exception]:
    kind = _USAGE_ERRORS[0]
    assert issubclass(kind, Exception)
    return kind


class UnknownCommand(_usage_error()):  # type: ignore[misc]
    """``koloda NAME`` where no command is called NAME."""

    def __init__(self, name: str, possibilities: Sequence[str], ctx: Any = None) -> None:
        super().__init__(f"No such command {name!r}.", ctx)
        self.command_name = name
        self.possibilities = get_close_matches(name, list(possibilities))


def language(args: Sequence[str]) -> str:
    """The language the command line asked for (``--lang ru``), else the locale's."""
    for i, arg in enumerate(args):
        value = None
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        if value in LANGS:
            return value
    return default_lang()


def _quoted(name: str, lang: str) -> str:
    return f"«{name}»" if lang == "ru" else f"'{name}'"


def _param_name(exc: Any) -> str:
    """The option (its longest spelling, ``--bots``) or argument (``game``) an error is
    about."""
    hint = getattr(exc, "param_hint", None)
    if isinstance(hint, str) and hint:
        return hint.strip("'\"")
    if isinstance(hint, Sequence) and hint:
        return str(hint[0]).strip("'\"")
    param = getattr(exc, "param", None)
    if param is None:
        return ""
    opts = [o for o in getattr(param, "opts", []) if o.startswith("-")]
    if opts:
        return max(opts, key=len)
    return str(getattr(param, "human_readable_name", None) or param.name or "").strip("{}")


#: Typer's words for a value of the wrong kind → the i18n key that says it
_VALUE_PROBLEMS = (("valid integer", "cli_whole_number"), ("valid number", "cli_number"),
                   ("valid float", "cli_number"), ("valid boolean", "cli_yes_no"))


def _given(name: str, args: Sequence[str]) -> str | None:
    """The value the command line gave option ``name`` (``--players abc`` → ``abc``)."""
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def message(exc: BaseException, lang: str, args: Sequence[str] = ()) -> str:
    """A Click/Typer error as one sentence in ``lang`` (no usage line, no box)."""
    kind = type(exc).__name__
    text = " ".join(str(getattr(exc, "message", "") or exc).split())
    if isinstance(exc, UnknownCommand):
        out = t("cli_no_command", lang, name=_quoted(exc.command_name, lang))
        if exc.possibilities:
            out += "; " + t("cli_did_you_mean", lang, names=", ".join(
                _quoted(p, lang) for p in exc.possibilities))
        return out
    if kind == "NoSuchOption":
        name = str(getattr(exc, "option_name", ""))
        out = t("cli_no_option", lang, name=_quoted(name, lang))
        close = get_close_matches(name, list(getattr(exc, "possibilities", None) or []))
        if close:
            out += "; " + t("cli_did_you_mean", lang,
                            names=", ".join(_quoted(p, lang) for p in close))
        return out
    if kind == "MissingParameter":
        param = getattr(exc, "param", None)
        which = getattr(exc, "param_type", None) or getattr(param, "param_type_name", "")
        key = "cli_missing_argument" if which == "argument" else "cli_missing_option"
        return t(key, lang, name=_quoted(_param_name(exc), lang))
    if kind == "BadParameter":
        why = text
        name = _param_name(exc)
        value = _given(name, args) if name.startswith("-") else None
        for words, key in _VALUE_PROBLEMS:
            if words in text and value is not None:
                why = t(key, lang, value=_quoted(value, lang))
                break
        if not name:
            return t("cli_bad_value_only", lang, reason=why)
        return t("cli_bad_value", lang, name=name if name.startswith("-") else
                 _quoted(name, lang), reason=why)
    if kind == "BadOptionUsage" and "requires an argument" in text:
        return t("cli_needs_value", lang,
                 name=_quoted(str(getattr(exc, "option_name", "")), lang))
    extra = re.match(r"Got unexpected extra arguments?(?:\(s\))? \((.*)\)", text)
    if extra:
        return t("cli_extra", lang, args=extra.group(1))
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def one_line(exc: BaseException, lang: str, args: Sequence[str] = ()) -> str:
    """``error: <what is wrong> (help: koloda play --help)``."""
    out = f"{t('error', lang)}: {message(exc, lang, args)}"
    ctx = getattr(exc, "ctx", None)
    path = getattr(ctx, "command_path", None)
    if path:
        out += f" ({t('cli_help_hint', lang, command=f'{path} --help')})"
    return out


def _reflow(command: Any) -> None:
    """A help text's paragraphs as flowing text: a docstring's line breaks inside a
    paragraph would break the help page's lines mid-sentence."""
    if getattr(command, "help", None):
        command.help = "\n\n".join(" ".join(p.split()) for p in command.help.split("\n\n"))
    for sub in getattr(command, "commands", {}).values():
        _reflow(sub)


class KolodaGroup(TyperGroup):
    """The ``koloda`` command group: Typer's commands, its errors said in one line."""

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name = args[0] if args else ""
        if (name and not name.startswith("-") and self.get_command(ctx, name) is None
                and not ctx.resilient_parsing):
            raise UnknownCommand(name, self.list_commands(ctx), ctx)
        return super().resolve_command(ctx, args)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        _reflow(self)
        from koloda.cli.help_ru import russian_help
        try:
            with russian_help(self) if language(argv) == "ru" else nullcontext():
                rv = super().main(argv, prog_name, complete_var, standalone_mode=False,
                                  windows_expand_args=windows_expand_args, **extra)
        except _CLICK_ERRORS as exc:
            if type(exc).__name__ != "NoArgsIsHelpError":   # (the help is printed)
                print(one_line(exc, language(argv), argv), file=sys.stderr)
            code = 2
        except _ABORT:
            print(f"{t('error', language(argv))}: {t('cli_aborted', language(argv))}",
                  file=sys.stderr)
            code = 1
        else:
            if not standalone_mode:
                return rv
            code = rv if isinstance(rv, int) else 0
        if not standalone_mode:
            return code
        sys.exit(code)
