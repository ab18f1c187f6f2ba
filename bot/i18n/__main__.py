"""``python -m bot.i18n extract|check|stats``: keep the catalogue in step with the source.

* ``extract`` — collect the msgids (``_()`` calls in ``bot/`` and ``cogs/``, the slash commands' names and
  descriptions, the games' titles), write ``bot/locales/tavolo.pot`` and merge it into every ``.po`` (new msgids
  come in empty, changed ones fuzzy with Babel's guess, gone ones are dropped).
* ``check`` — list every gap (missing, empty or fuzzy entries, placeholders that differ, plural forms); exit 1.
* ``stats`` — msgids and translated entries per language.

This tool reads the command tree, so unlike the rest of ``bot.i18n`` it imports the Discord side (``cogs``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from . import SOURCE, SUPPORTED, po_path, using
from . import catalog as cat


async def _extras() -> list[cat.Extra]:
    from bot.games import registry
    from bot.transport.client import entry_point, offline_bot
    from cogs._translator import command_strings

    # the offline bot has every optional feature configured (the Activity too) whatever the environment says, so
    # the tree is the full one: a command or text that only exists with a setting is never dropped
    async with offline_bot() as bot:
        extras = await command_strings(bot.tree)
    with using(SOURCE):  # the Activity's Entry Point command is synced beside the tree, not in it
        launch = entry_point()["description"]
    extras.append(cat.Extra(launch, "command-description", "/launch"))
    # the titles are the specs' own; screens show them through _p("game", title)
    extras += [cat.Extra(spec.title, "game", f"bot/games/{spec.id}/__init__.py") for spec in registry.specs()]
    return extras


def current_template() -> cat.Catalog:
    """The template as the source stands now."""
    return cat.template(asyncio.run(_extras()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("extract", "check", "stats"))
    args = parser.parse_args(argv)
    if args.command == "extract":
        for path in cat.update(current_template()):
            print(f"wrote {path}")
        return 0
    tmpl = cat.read(cat.TEMPLATE)
    if args.command == "stats":
        ids = [m for m in tmpl if m.id]
        print(f"{len(ids)} msgids")
        for loc in cat.TRANSLATED:
            entries = [m for m in cat.read(po_path(loc), loc) if m.id and not m.fuzzy]
            done = [m for m in entries if (all(m.string) if isinstance(m.string, tuple) else m.string)]
            print(f"{loc}: {len(done)} translated")
        return 0
    gaps = cat.stale_template(current_template(), tmpl)
    for loc in SUPPORTED[1:]:
        gaps += cat.problems(cat.read(po_path(loc), loc), tmpl)
    for g in gaps:
        print(g)
    print(f"{len(gaps)} problem(s)", file=sys.stderr)
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())
