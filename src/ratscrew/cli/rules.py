"""``ratscrew rules``: the presets, a whole rule set key by key, and what one key means."""

from __future__ import annotations

import click

from ratscrew.cli.common import json_option, print_json, rules_from_options
from ratscrew.i18n import LANGUAGES, text
from ratscrew.rules import PRESETS, Rules, option, rules_to_mapping, rules_to_toml


@click.group(invoke_without_command=True)
@click.pass_context
def rules(ctx: click.Context) -> None:
    """List the presets; `rules show` prints a rule set, `rules explain KEY` explains one key."""
    if ctx.invoked_subcommand is None:
        width = max(len(name) for name in PRESETS)
        for preset in PRESETS.values():
            click.echo(f"{preset.name:<{width}}  {preset.summary}")


@rules.command()
@click.argument("name_or_file", required=False)
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help="Change one rule (repeatable).")
@json_option
def show(name_or_file: str | None, sets: tuple[str, ...], as_json: bool) -> None:
    """Every key of a preset or rules file, as a TOML file that loads back to the same rules."""
    chosen = rules_from_options(name_or_file, sets)
    if as_json:
        print_json(rules_to_mapping(chosen, full=True))
    else:
        click.echo(rules_to_toml(chosen), nl=False)


@rules.command()
@click.argument("key")
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES),
    default="en",
    show_default=True,
    help="The language of the explanation (the key and its values keep their spelling).",
)
@json_option
def explain(key: str, lang: str, as_json: bool) -> None:
    """What one key (e.g. slaps.run) means, what it allows and what each preset sets it to."""
    opt = option(key)
    by_preset = {name: Rules.build(name).get(opt.key) for name in PRESETS}
    needs = opt.needs
    summary = text(lang, f"option.{opt.key}")
    # Each choice in words, in the chosen language, as the settings forms label it.
    labels = {_show(c): text(lang, f"choice.{opt.key}.{c}") for c in opt.choices}
    if as_json:
        print_json(
            {
                "key": opt.key,
                "summary": summary,
                "allowed": opt.allowed_text(),
                "labels": labels,
                "default": opt.default,
                "needs": None if needs is None else {"key": needs.key, "values": list(needs.values)},
                "presets": by_preset,
            }
        )
        return
    click.echo(f"{opt.key}: {summary}")
    click.echo(f"  allowed: {opt.allowed_text()}")
    for shown, label in labels.items():
        click.echo(f"    {shown}: {label}")
    click.echo(f"  default: {_show(opt.default)}")
    if needs is not None:
        click.echo(f"  only with: {needs.key} = {' or '.join(_show(v) for v in needs.values)}")
    for name, value in by_preset.items():
        click.echo(f"  {name}: {_show(value)}")


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
