"""A report folder's page (lab/report.py): what ran and from which code, how to get the figures again, the
figures as tables, the plots, and the figures as JSON for machines. The page loads nothing but its own plots."""

from __future__ import annotations

import html
import json
import shlex
from typing import TYPE_CHECKING, Any

from ratscrew.lab.report_tables import Table, bmn_random_tables, bmn_search_tables, simulate_tables

if TYPE_CHECKING:
    from ratscrew.lab.report import Report

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1d2b24; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; } h3 { font-size: 1rem; margin: 1.4rem 0 .4rem; }
pre { background: #f2f5f3; padding: .7rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; margin: .3rem 0; } td, th { border: 1px solid #c9d3ce; padding: .25rem .6rem; }
th { text-align: left; background: #f2f5f3; }
table.figures td { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.figures td.label { text-align: left; white-space: normal; }
.note { color: #4c5c54; font-size: .9rem; margin: .2rem 0; }
figure { margin: 1rem 0; } img { max-width: 100%; height: auto; } details { margin: 1rem 0; }
"""


def tables(report: Report) -> list[Table]:
    figures: dict[str, Any] = report.figures
    if report.kind == "simulate":
        return simulate_tables(figures["cells"])
    if report.kind == "bmn-random":
        return bmn_random_tables(figures)
    return bmn_search_tables(figures)


def page(report: Report, plots: list[tuple[str, str]]) -> str:
    e = html.escape
    commit = report.commit
    if report.dirty:
        commit += " (with uncommitted changes)"
    about = [
        ("version", f"ratscrew {report.version}"),
        ("commit", commit),
        ("seed", "" if report.seed is None else str(report.seed)),
        ("written", report.created),
        ("in the folder", report.directory),
        ("kind", report.kind),
    ]
    rows = "".join(
        f"<tr><th scope='row'>{e(k)}</th><td id='about-{e(k.replace(' ', '-'))}'>{e(v)}</td></tr>" for k, v in about
    )
    reproduce = f"<pre id='reproduce'>{e(shlex.join(report.reproduce))}</pre>" if report.reproduce else ""
    check = (
        "<p>Check that it does with <code>ratscrew lab report FOLDER --check</code>, which runs "
        f"{'that command' if report.reproduce else 'it'} again and compares the figures.</p>"
    )
    figures = "".join(
        f'<figure><img src="{e(name)}" alt="{e(caption)}"><figcaption>{e(caption)}</figcaption></figure>'
        for name, caption in plots
    )
    output = "\n".join(json.dumps(line, ensure_ascii=False) for line in report.output)
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{e(report.title)}</title>"
        f"<style>{STYLE}</style></head><body>\n<h1>{e(report.title)}</h1>\n"
        f"<table id='about'>{rows}</table>\n"
        f"<h2>Command</h2><pre id='command'>{e(shlex.join(report.command))}</pre>\n"
        f"<h2>Getting these figures again</h2><p id='rerun'>{e(report.rerun_note)}</p>{reproduce}{check}\n"
        f"<h2>Figures</h2>\n{''.join(t.html() for t in tables(report))}\n"
        f"<h2>Plots</h2>\n{figures}\n"
        "<details><summary>The figures as JSON</summary><p>As the command prints them with <code>--json</code> "
        "(everything, histograms included, is in <code>report.json</code>):</p>"
        f"<pre id='figures'>{e(output)}</pre></details>\n"
        "</body></html>\n"
    )
