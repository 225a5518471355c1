"""``ratscrew lab report DIR``: draw a report folder's page again, or check that its command still gives its figures."""

from __future__ import annotations

from pathlib import Path

import click

from ratscrew.errors import MalformedInput
from ratscrew.lab.report import check_plotting, draw, read_report, rerun, shown_rerun


@click.group("lab")
def lab() -> None:
    """The lab's tools beyond the runs themselves (`simulate`, `bmn --random`, `bmn --search`)."""


@lab.command("report")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option(
    "--check",
    is_flag=True,
    help="Run the command that reproduces the figures (the recorded one, or the one the page names) and compare.",
)
def report_command(folder: str, check: bool) -> None:
    """Draw the plots and the page of report FOLDER (written by --report) again from its report.json."""
    path = Path(folder)
    report = read_report(path)
    check_plotting()
    draw(path, report)
    click.echo(f"{path / 'index.html'}: {report.title} (ratscrew {report.version}, {report.created})")
    if not check:
        return
    click.echo(f"rerunning: {shown_rerun(report)}")
    differences = rerun(report)
    if differences:
        raise MalformedInput(f"the command gave other figures: {'; '.join(differences[:5])}")
    click.echo("the same best deal again" if report.compare == "best" else "the same figures again")
